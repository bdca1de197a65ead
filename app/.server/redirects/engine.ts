/**
 * The redirects in memory (decision 0025): every instance holds the enabled
 * rules of the `redirects` table and answers them without the database.
 *
 * - `fast(rawUrl)`: the hot path, run before the page cache on every GET: one
 *   Map lookup of the raw path (each rule is stored under the forms a
 *   request's path arrives in: pathKeys). Regex rules are not run here.
 * - `find(rawUrl)`: when the page cache has no page for the request (a miss,
 *   or a route it does not keep), before React Router renders: the path in
 *   its canonical form, rules with a query, then the regex rules in order.
 *   A regex rule can never be skipped by a cached page: a rule change clears
 *   the page cache on every instance (content-events, NOTIFY), and a request
 *   a rule answers is never rendered, so never cached.
 * - Reloaded when the table's version (raised by a trigger, not by hit
 *   counts) moves: checked on every content change here or on another
 *   instance (content-sync.ts), and every RELOAD_CHECK_MS in case a NOTIFY
 *   was missed.
 * - Hits are counted in memory and written every FLUSH_MS in one statement.
 */
import type { ServerResponse } from "node:http";
import { onContentChange } from "../db/content-events";
import { log } from "../log";
import { processServices } from "../services";
import { canonicalPath, fillTarget, MAX_PATH, pathKeys, queryKeys } from "./paths";

export type LoadedRule = { id: number; match: string; source: string; query: string; target: string; status: number };

export type RedirectAnswer = { id: number; status: number; location: string };

type PathEntry = { any?: LoadedRule; byQuery?: Map<string, LoadedRule> };
type RegexRule = { rule: LoadedRule; regex: RegExp };

export type RedirectStore = {
  version(): Promise<number>;
  load(): Promise<LoadedRule[]>;
  writeHits(hits: ReadonlyMap<number, { count: number; last: Date }>): Promise<void>;
};

const FLUSH_MS = 5_000;
const RELOAD_CHECK_MS = 30_000;

export class RedirectEngine {
  private byPath = new Map<string, PathEntry>();
  private regexes: RegexRule[] = [];
  private loadedVersion = -1;
  private pendingHits = new Map<number, { count: number; last: Date }>();
  private timers: NodeJS.Timeout[] = [];
  private reloading: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;
  /** How many rules are in memory (exact and regex). */
  size = 0;

  constructor(private readonly store: RedirectStore) {}

  /** Loads the rules and starts listening for changes; flushes hits on a timer. */
  async start(): Promise<void> {
    await this.reload(true);
    this.unsubscribe = onContentChange(() => void this.reload());
    const reload = setInterval(() => void this.reload(), RELOAD_CHECK_MS);
    const flush = setInterval(() => void this.flush(), FLUSH_MS);
    reload.unref();
    flush.unref();
    this.timers.push(reload, flush);
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.unsubscribe?.();
    await this.flush();
  }

  /** Reads the rules again if the table changed (`force`: whatever the version). Errors are logged: the last rules stay. */
  reload(force = false): Promise<void> {
    this.reloading ??= (async () => {
      try {
        const version = await this.store.version();
        if (!force && version === this.loadedVersion) return;
        this.replace(await this.store.load());
        this.loadedVersion = version;
      } catch (error) {
        log("warn", "redirects not reloaded", { error: (error as Error).message });
      } finally {
        this.reloading = undefined;
      }
    })();
    return this.reloading;
  }

  /** Builds the lookup structures from rows (enabled rules only, as loaded). */
  replace(rules: readonly LoadedRule[]) {
    const byPath = new Map<string, PathEntry>();
    const regexes: RegexRule[] = [];
    for (const rule of rules) {
      if (rule.match === "regex") {
        try {
          regexes.push({ rule, regex: new RegExp(rule.source, "i") });
        } catch {
          /* checked when saved; a rule that no longer compiles is skipped */
        }
        continue;
      }
      const canonical = canonicalPath(rule.source);
      if (!canonical) continue;
      for (const key of pathKeys(canonical)) {
        let entry = byPath.get(key);
        if (!entry) byPath.set(key, (entry = {}));
        if (rule.query) (entry.byQuery ??= new Map()).set(rule.query, rule);
        else entry.any ??= rule;
      }
    }
    this.byPath = byPath;
    this.regexes = regexes;
    this.size = rules.length;
  }

  /** The hot path: an exact rule for the raw path as it arrived, or undefined. No regex, no decoding. */
  fast(rawUrl: string): RedirectAnswer | undefined {
    const q = rawUrl.indexOf("?");
    const entry = this.byPath.get(q === -1 ? rawUrl : rawUrl.slice(0, q));
    if (!entry) return undefined;
    return this.fromEntry(entry, q === -1 ? "" : rawUrl.slice(q + 1), rawUrl);
  }

  /** Everything: the canonical path, rules with a query, then regex rules. */
  find(rawUrl: string, count = true): RedirectAnswer | undefined {
    if (this.size === 0 || rawUrl.length > MAX_PATH + 1024) return undefined;
    const q = rawUrl.indexOf("?");
    const search = q === -1 ? "" : rawUrl.slice(q + 1);
    const canonical = canonicalPath(q === -1 ? rawUrl : rawUrl.slice(0, q));
    if (!canonical) return undefined;
    const entry = this.byPath.get(canonical);
    const exact = entry && this.fromEntry(entry, search, rawUrl, count);
    if (exact) return exact;
    for (const { rule, regex } of this.regexes) {
      const m = regex.exec(rawUrl);
      if (!m) continue;
      if (rule.status === 410) return this.hit(rule, "", count);
      const location = fillTarget(rule.target, m);
      if (location && canonicalPath(location) !== canonical) return this.hit(rule, location, count);
    }
    return undefined;
  }

  private fromEntry(entry: PathEntry, search: string, rawUrl: string, count = true): RedirectAnswer | undefined {
    if (entry.byQuery && search) {
      for (const key of queryKeys(search)) {
        const rule = entry.byQuery.get(key);
        if (rule) return this.answerOf(rule, rawUrl, count);
      }
    }
    return entry.any ? this.answerOf(entry.any, rawUrl, count) : undefined;
  }

  private answerOf(rule: LoadedRule, rawUrl: string, count: boolean): RedirectAnswer | undefined {
    // Never to itself (a loop a person could not make, but a rename race could).
    if (rule.status !== 410 && rule.target === rawUrl) return undefined;
    return this.hit(rule, rule.status === 410 ? "" : rule.target, count);
  }

  private hit(rule: LoadedRule, location: string, count: boolean): RedirectAnswer {
    if (!count) return { id: rule.id, status: rule.status, location };
    const counted = this.pendingHits.get(rule.id);
    if (counted) {
      counted.count++;
      counted.last = new Date();
    } else this.pendingHits.set(rule.id, { count: 1, last: new Date() });
    return { id: rule.id, status: rule.status, location };
  }

  /** Writes the hits counted since the last flush (kept for the next one if the database does not answer). */
  async flush(): Promise<void> {
    if (this.pendingHits.size === 0) return;
    const hits = this.pendingHits;
    this.pendingHits = new Map();
    try {
      await this.store.writeHits(hits);
    } catch (error) {
      for (const [id, h] of hits) {
        const now = this.pendingHits.get(id);
        this.pendingHits.set(id, now ? { count: now.count + h.count, last: now.last } : h);
      }
      log("warn", "redirect hits not written", { error: (error as Error).message });
    }
  }
}

const GONE_PAGE = "This page has been removed.";

/** Sends a redirect's answer: the status and Location (or 410 with a line of text), never cached by a proxy for long. */
export function sendRedirect(res: ServerResponse, answer: RedirectAnswer, headers: Record<string, string>, method: string | undefined) {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.statusCode = answer.status;
  if (answer.status === 410) {
    res.setHeader("Content-Type", "text/plain; charset=utf-8");
    res.setHeader("Cache-Control", "public, max-age=3600");
    res.end(method === "HEAD" ? undefined : GONE_PAGE);
    return;
  }
  res.setHeader("Location", answer.location);
  // Permanent redirects may be kept a day by browsers and proxies; temporary ones not at all.
  res.setHeader("Cache-Control", answer.status === 301 || answer.status === 308 ? "public, max-age=86400" : "no-store");
  res.setHeader("Content-Length", "0");
  res.end();
}

/** The instance's engine, kept in the process's services (undefined before start-up: nothing is redirected). */
export function redirectEngine(): RedirectEngine | undefined {
  return processServices().redirectEngine;
}

export function setRedirectEngine(engine: RedirectEngine | undefined) {
  processServices().redirectEngine = engine;
}
