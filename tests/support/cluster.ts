/**
 * The site as several machines would run it, on loopback: one PostgreSQL
 * database (created here, dropped at the end), one S3-compatible bucket
 * (s3rver), N production instances with their own DATA_DIR, and nginx with
 * the reference configuration in front. Demo content is seeded into the
 * database and the bucket first. Used by tests/e2e/cluster-fixture.ts (one
 * cluster for statistics and multi-instance) and `npm run bench:proxy`.
 * Needs `npm run build` and Debian's nginx — unless
 * started with `proxy: false` (tests/e2e/editorial-schedule.test.ts): then no
 * nginx, and the site's address (PUBLIC_URL) is the first instance's.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, setDatabase } from "~/.server/db/client";
import { seedDemoContent } from "~/.server/db/seed";
import { setStorage } from "~/.server/storage/storage";
import { freePort, startServer, type RunningServer } from "../e2e/support";
import { startNginx, type RunningNginx } from "./nginx";
import { startS3, type TestBucket } from "./s3";

export const ADMIN_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export type Cluster = ClusterWithoutProxy & { nginx: RunningNginx };

/** A cluster started with `proxy: false`: `url` is the first instance's address. */
export type ClusterWithoutProxy = {
  databaseUrl: string;
  /** The bucket (the one `heal` started again if a test stopped it). */
  bucket: TestBucket;
  /** The site's address (PUBLIC_URL): through the proxy, or the first instance's without one. */
  url: string;
  instances: RunningServer[];
  /** The environment every instance runs with. */
  env: Record<string, string>;
  /** Starts instance i again on its port and DATA_DIR (after it was killed or stopped). */
  restart(i: number): Promise<RunningServer>;
  /**
   * Starts again what a test stopped: every instance that is not running (on its port and DATA_DIR), and the
   * bucket if it does not answer (on its port, with the pictures it held): the cluster as it was started.
   */
  heal(): Promise<void>;
  /** One query on the site's database. */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  stop(): Promise<void>;
};

export async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** True when the PostgreSQL server of TEST_DATABASE_URL (default: the machine's) answers. */
export async function postgresAvailable(): Promise<boolean> {
  try {
    await adminQuery("select 1");
    return true;
  } catch {
    return false;
  }
}

type ClusterOptions = {
  instances?: number;
  env?: Record<string, string>;
  /** Start nginx in front (default true). */
  proxy?: boolean;
  extraServer?: string;
  nginxWorkers?: number;
  accessLog?: boolean;
  log?: (m: string) => void;
};

export async function startCluster(options: ClusterOptions & { proxy: false }): Promise<ClusterWithoutProxy>;
export async function startCluster(options?: ClusterOptions & { proxy?: true }): Promise<Cluster>;
export async function startCluster(options: ClusterOptions = {}): Promise<ClusterWithoutProxy | Cluster> {
  const proxy = options.proxy !== false;
  const log = options.log ?? (() => {});
  const name = `firm_cluster_${randomBytes(4).toString("hex")}`;
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  await adminQuery(`create database ${name}`);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let bucket: TestBucket | undefined;
  // The bucket's folder is the cluster's, kept when the bucket is stopped, so that `heal` can start it again.
  const bucketDir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-s3-"));
  let nginx: RunningNginx | undefined;
  const instances: RunningServer[] = [];
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(instances.map((s) => s.stop()));
    for (const s of instances) fs.rmSync(s.dataDir, { recursive: true, force: true });
    await bucket?.stop();
    fs.rmSync(bucketDir, { recursive: true, force: true });
    await pool.end().catch(() => {});
    await adminQuery(`drop database if exists ${name} with (force)`).catch(() => {});
  };
  try {
    bucket = await startS3({ bucket: "cluster-pictures", directory: bucketDir });
    // Demo content into the shared database and bucket, as `npm run db:seed` would.
    log("seeding demo content into PostgreSQL and the bucket…");
    const database = await openDatabase({ url: databaseUrl });
    setDatabase(database);
    const storage = bucket.storage();
    setStorage(storage);
    try {
      await seedDemoContent();
    } finally {
      setDatabase(undefined);
      setStorage(undefined);
      storage.close?.();
      await database.close();
    }

    const count = options.instances ?? 2;
    const ports = await Promise.all(Array.from({ length: count }, () => freePort()));
    const proxyPort = proxy ? await freePort() : 0;
    // startServer's address for an instance is http://localhost:{port}.
    const siteUrl = proxy ? `http://127.0.0.1:${proxyPort}` : `http://localhost:${ports[0]}`;
    const env = {
      DATABASE_URL: databaseUrl,
      ...bucket.env,
      ...(proxy ? { TRUST_PROXY: "true" } : {}),
      PUBLIC_URL: siteUrl,
      AUTH_SECRET: randomBytes(32).toString("hex"),
      ...options.env,
    };
    log(`starting ${count} instances…`);
    instances.push(...(await Promise.all(ports.map((port) => startServer({ port, env, quiet: true })))));
    if (proxy) {
      nginx = await startNginx({
        instances: ports.map((p) => `127.0.0.1:${p}`),
        port: proxyPort,
        extraServer: options.extraServer,
        workers: options.nginxWorkers,
        accessLog: options.accessLog,
      });
    }
    const cluster: ClusterWithoutProxy = {
      databaseUrl,
      get bucket() {
        return bucket!;
      },
      url: siteUrl,
      instances,
      env,
      async restart(i) {
        const old = instances[i];
        const fresh = await startServer({ port: old.port, dataDir: old.dataDir, env, quiet: true });
        instances[i] = fresh;
        return fresh;
      },
      async heal() {
        for (const [i, s] of instances.entries())
          if (s.process.exitCode !== null || s.process.signalCode !== null) await cluster.restart(i);
        const answers = await fetch(bucket!.endpoint).then(
          () => true,
          () => false,
        );
        if (!answers) bucket = await startS3({ bucket: bucket!.bucket, port: bucket!.port, directory: bucketDir });
      },
      async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) {
        return (await pool.query<T>(sql, params)).rows;
      },
      stop,
    };
    // Object.assign, not a spread: `bucket` stays a getter.
    return nginx ? Object.assign(cluster, { nginx }) : cluster;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Signs in through `url` with the e2e staff account; the session cookie. */
export async function signInCookie(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/admin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
    body: new URLSearchParams({ email, password }),
  });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie.includes("session_token")) throw new Error(`sign-in through ${url} failed (${response.status})`);
  return cookie;
}
