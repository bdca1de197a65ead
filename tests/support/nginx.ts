/**
 * nginx (Debian's package) with the shipped reference configuration
 * (deploy/nginx/harrow-kline.conf), run unprivileged for tests and the proxy
 * benchmark: the same file with the instance lines, the listen line, the cache
 * folder and TLS swapped for local ones, inside a small main nginx.conf
 * (daemon off, pid, logs and temporary files in a temporary folder).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
export const REFERENCE_CONFIG = path.resolve(import.meta.dirname, "../../deploy/nginx/harrow-kline.conf");

export function nginxAvailable(): boolean {
  return fs.existsSync(NGINX);
}

/**
 * Each `server …;  # <marker>` line of an upstream becomes one line per
 * address, with the first such line's parameters, where the first one was.
 */
function serverLines(text: string, marker: string, addresses: string[]): string {
  const line = new RegExp(`^(\\s*)server\\s+\\S+:\\d+(\\s[^;]*)?;\\s*#\\s*${marker}\\s*\\n`, "m");
  const first = line.exec(text);
  if (!first) throw new Error(`${REFERENCE_CONFIG}: no "# ${marker}" server line`);
  const lines = addresses.map((a) => `${first[1]}server ${a}${first[2] ?? ""};\n`).join("");
  return text.slice(0, first.index) + lines + text.slice(first.index).replace(new RegExp(line.source, "gm"), "");
}

/**
 * The reference site configuration for local instances: each `# instance`
 * line becomes one line per address (same parameters), the TLS server
 * listens on plain HTTP at 127.0.0.1:port, the port-80 redirect server is
 * dropped and the cache lives in `cacheDir`.
 */
export function localSiteConfig(options: { instances: string[]; port: number; cacheDir: string; redirectsMap?: string }): string {
  let text = fs.readFileSync(REFERENCE_CONFIG, "utf8");
  text = serverLines(text, "instance", options.instances);
  text = text.replace(/# BEGIN http-redirect[\s\S]*?# END http-redirect\n?/, "");
  if (!/listen 443 ssl[^;]*;/.test(text)) throw new Error(`${REFERENCE_CONFIG}: no "listen 443 ssl" line`);
  text = text.replace(/^\s*listen 443 ssl[^;]*;/m, `    listen 127.0.0.1:${options.port};`);
  text = text.replace(/^\s*listen \[::\]:443[^;]*;\n/m, "");
  text = text.replace(/^\s*ssl_[a-z_]+\s[^;]*;\n/gm, "");
  if (!text.includes("/var/cache/nginx/harrow-kline")) throw new Error(`${REFERENCE_CONFIG}: no cache path`);
  text = text.replace("/var/cache/nginx/harrow-kline", options.cacheDir);
  // The redirects map: the one given (npm run redirects:nginx), or the empty one shipped beside the configuration.
  if (!text.includes("/etc/nginx/harrow-kline-redirects.map")) throw new Error(`${REFERENCE_CONFIG}: no redirects map include`);
  text = text.replace(
    "/etc/nginx/harrow-kline-redirects.map",
    options.redirectsMap ?? path.join(path.dirname(REFERENCE_CONFIG), "harrow-kline-redirects.map"),
  );
  return text;
}

export type RunningNginx = {
  url: string;
  port: number;
  dir: string;
  /** The log nginx wrote (errors, upstream failures). */
  errorLog(): string;
  /** Process ids of the worker processes (CPU accounting in the benchmark). */
  workerPids(): number[];
  /** Reloads the configuration (SIGHUP) and waits for the new workers. */
  reload(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * Starts nginx with the reference site for `instances` (host:port) on
 * 127.0.0.1:port; `extraServer` is added inside http {} (the benchmark's
 * static-file server).
 */
export async function startNginx(options: {
  instances: string[];
  port: number;
  extraServer?: string;
  workers?: number;
  /** Log each request's cache status and upstream to DIR/access.log (diagnosis). */
  accessLog?: boolean;
  /** A redirects map file (npm run redirects:nginx); default: the empty one shipped. */
  redirectsMap?: string;
}): Promise<RunningNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "firm-nginx-"));
  for (const sub of ["cache", "tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"])
    fs.mkdirSync(path.join(dir, sub), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "site.conf"),
    localSiteConfig({
      instances: options.instances,
      port: options.port,
      cacheDir: path.join(dir, "cache"),
      redirectsMap: options.redirectsMap,
    }),
  );
  // The http {} settings of Debian's /etc/nginx/nginx.conf, without its users, paths and logs.
  // As root (CI) nginx would run its workers as nobody, who cannot write the cache in this folder.
  const main = `${process.getuid?.() === 0 ? "user root;\n" : ""}daemon off;
worker_processes ${options.workers ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    ${options.accessLog ? `log_format cache '$upstream_cache_status $status $upstream_addr $request_uri';\n    access_log ${dir}/access.log cache;` : "access_log off;"}
    gzip on;
    client_body_temp_path ${dir}/tmp/body;
    proxy_temp_path ${dir}/tmp/proxy;
    fastcgi_temp_path ${dir}/tmp/fastcgi;
    uwsgi_temp_path ${dir}/tmp/uwsgi;
    scgi_temp_path ${dir}/tmp/scgi;
    include ${dir}/site.conf;
${options.extraServer ?? ""}
}
`;
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(conf, main);
  try {
    execFileSync(NGINX, ["-t", "-q", "-c", conf, "-p", dir], { stdio: "pipe" });
  } catch (error) {
    throw new Error(`nginx refused the configuration:\n${(error as { stderr?: Buffer }).stderr?.toString() ?? String(error)}`);
  }
  const child: ChildProcess = spawn(NGINX, ["-c", conf, "-p", dir], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const running: RunningNginx = {
    url,
    port: options.port,
    dir,
    errorLog: () => {
      try {
        return fs.readFileSync(path.join(dir, "error.log"), "utf8");
      } catch {
        return "";
      }
    },
    workerPids() {
      const out = execFileSync("pgrep", ["-P", String(child.pid)], { encoding: "utf8" }).trim();
      return out
        .split("\n")
        .map(Number)
        .filter((pid) => {
          try {
            return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("worker process");
          } catch {
            return false;
          }
        });
    },
    async reload() {
      const before = new Set(running.workerPids());
      child.kill("SIGHUP");
      const until = Date.now() + 10_000;
      while (Date.now() < until) {
        const now = running.workerPids();
        if (now.length && now.every((pid) => !before.has(pid))) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`nginx did not reload: ${running.errorLog().slice(-500)}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once("exit", () => resolve());
          child.kill("SIGQUIT"); // graceful: finish open requests
          setTimeout(() => child.kill("SIGKILL"), 5000).unref();
        });
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return running;
}
