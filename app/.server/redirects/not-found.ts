/**
 * The 404 log (issue 46): each GET that answered 404 is counted in memory
 * by Toronto day and path, with its referrer (a page of this site: its path;
 * another site: its host; never a query), and written every FLUSH_MS in one
 * statement (db/not-found-log.ts bounds the day's paths).
 *
 * Never stored: a path of a route whose parameter is a secret
 * (lib/route-patterns.ts `isSecretRoutePath`, e.g. /admin/reset-password/:token),
 * any query string, the site's own picture and build files. Crawlers' probes
 * (/wp-admin, .php, .env…) are counted under one row a day.
 */
import { firmToday } from "~/lib/stats";
import { isSecretRoutePath } from "~/lib/route-patterns";
import { writeNotFound, type NotFoundCount } from "../db/not-found-log";
import { getEnv } from "../env";
import { log } from "../log";
import { processServices } from "../services";
import { sitePatterns } from "../http/route-table";
import { canonicalPath } from "./paths";

const FLUSH_MS = 10_000;
/** Distinct paths held between two writes; more are counted as "other" (a scan cannot fill memory). */
const MAX_PENDING = 5_000;
const MAX_LOGGED_PATH = 300;

export const PROBE_PATH = "(crawler probes)";
export const OTHER_PATH = "(other paths)";

/** Paths that only a vulnerability scanner asks for on a site that is not WordPress or PHP. */
const PROBE =
  /(?:\.(?:php\d?|aspx?|jsp|cgi|env|git|sql|bak|old|ini|ya?ml|swp|DS_Store)(?:$|\/))|^\/(?:wp-admin|wp-login|wp-includes|wp-json|xmlrpc|phpmyadmin|pma|cgi-bin|\.well-known\/|\.git|\.env|\.aws|\.ssh|vendor\/|server-status|actuator|boaform|owa\/|ecp\/|autodiscover)/i;

export function isProbe(path: string): boolean {
  return PROBE.test(path);
}

type Pending = NotFoundCount;

let secretTest: { for: readonly string[]; test: (path: string) => boolean } | undefined;

/** A path of a route whose parameter is a secret (the running site's routes): never stored. */
function isSecret(path: string): boolean {
  const patterns = sitePatterns();
  if (secretTest?.for !== patterns) secretTest = { for: patterns, test: isSecretRoutePath(patterns) };
  return secretTest.test(path);
}

export class NotFoundLog {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;

  start() {
    this.timer ??= setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Counts one 404 (rawUrl: the request's path and query as received; referer: its header). */
  note(rawUrl: string, referer: string | undefined, siteHost: string, now = new Date()) {
    const q = rawUrl.indexOf("?");
    const raw = q === -1 ? rawUrl : rawUrl.slice(0, q);
    if (raw.startsWith("/images/") || raw.startsWith("/assets/") || raw.startsWith("/files/")) return;
    const path = canonicalPath(raw);
    if (!path || isSecret(path)) return;
    const probe = isProbe(path);
    const day = firmToday(now);
    let key = probe ? PROBE_PATH : path.slice(0, MAX_LOGGED_PATH);
    if (!probe && !this.pending.has(`${day} ${key}`) && this.pending.size >= MAX_PENDING) key = OTHER_PATH;
    const id = `${day} ${key}`;
    let entry = this.pending.get(id);
    if (!entry) {
      entry = { day, path: key, kind: probe ? "probe" : key === OTHER_PATH ? "other" : "path", count: 0, last: now, referrers: new Map() };
      this.pending.set(id, entry);
    }
    entry.count++;
    entry.last = now;
    const from = referrerOf(referer, siteHost);
    if (from && !probe) entry.referrers.set(from, (entry.referrers.get(from) ?? 0) + 1);
  }

  async flush() {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await writeNotFound(batch, getEnv().NOT_FOUND_PATHS_PER_DAY);
    } catch (error) {
      log("warn", "404 log not written", { error: (error as Error).message, paths: batch.length });
    }
  }
}

/** Where a visitor came from, as the log keeps it: a page of this site (its path), another site (its host), or "". */
export function referrerOf(referer: string | undefined, siteHost: string): string {
  if (!referer) return "";
  try {
    const url = new URL(referer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return "";
    if (url.host === siteHost) {
      const path = canonicalPath(url.pathname);
      return path && !isSecret(path) ? path.slice(0, MAX_LOGGED_PATH) : "";
    }
    return url.hostname.slice(0, 200);
  } catch {
    return "";
  }
}

/** The instance's 404 log, kept in the process's services. */
export function notFoundLog(): NotFoundLog {
  const services = processServices();
  services.notFoundLog ??= new NotFoundLog();
  return services.notFoundLog;
}

export function startNotFoundLog() {
  notFoundLog().start();
}

export async function stopNotFoundLog() {
  await processServices().notFoundLog?.stop();
}
