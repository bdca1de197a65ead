/**
 * One nginx cluster (tests/support/cluster.ts: two instances behind the reference nginx, one PostgreSQL
 * database, one bucket; its access log kept) for the files that need one: statistics and multi-instance.
 * They run in the "e2e-cluster" project (vitest.e2e.config.ts), one after the other in one worker without
 * isolation, so this `nginxCluster` fixture (worker scope) starts once, for the first file that asks for it,
 * and stops when the worker ends: one start of 30-45 s instead of one per file.
 *
 * A file takes it in its `it.beforeAll(({ nginxCluster }) => …)`, which calls `heal()` first: an instance or
 * the bucket a test stopped (and left stopped when it failed) is started again, so each file begins with the
 * cluster as it was started. The files keep to their own data: statistics empties and counts only the
 * statistics tables and its own beacons; multi-instance its own team members, hours and sign-in address,
 * and the nginx error log written since its own kill.
 *
 * Without nginx or PostgreSQL there is no cluster (`cluster` undefined, `skipReason` says why) and the files'
 * tests skip; on CI (which installs both) that is a failure instead.
 */
import { nginxAvailable } from "../support/nginx";
import { postgresAvailable, startCluster, type Cluster } from "../support/cluster";
import { test as base } from "./fixture";

export { describe, expect, onTestFinished } from "./fixture";

export type SharedCluster = { cluster?: Cluster; skipReason: string };

export const test = base
  // vitest reads a fixture's first parameter for the fixtures it uses: an empty pattern says none.
  // eslint-disable-next-line no-empty-pattern
  .extend("nginxCluster", { scope: "worker" }, async ({}, { onCleanup }): Promise<SharedCluster> => {
    let skipReason = "";
    if (!nginxAvailable()) skipReason = "nginx is not installed (apt-get install -y nginx-light)";
    else if (!(await postgresAvailable())) skipReason = "no PostgreSQL server (set TEST_DATABASE_URL)";
    if (skipReason) {
      // CI installs and starts both: there a missing one is a failure, not a skip.
      if (process.env.CI) throw new Error(skipReason);
      return { skipReason };
    }
    const cluster = await startCluster({ accessLog: true });
    onCleanup(() => cluster.stop());
    return { cluster, skipReason };
  });

export const it = test;

/** The time a file's `beforeAll` gives the cluster: its start (30-45 s, more on a loaded machine) and the file's own set-up. */
export const CLUSTER_START_TIMEOUT = 180_000;
