/**
 * Queries for redirects (table `redirects`, decision 0025). What a rule may
 * be is checked in app/.server/redirects/rules.ts before anything is written
 * here; a rule a person disabled stays disabled when an import names it
 * again. A page that moves calls `recordPathMove` (the SQL function
 * `record_path_move`, migration 0015), which the articles' and team's slug
 * trigger also calls.
 */
import { and, asc, desc, eq, ilike, inArray, or, sql, type SQL } from "drizzle-orm";
import { pageCount, pageOffset } from "~/lib/pagination";
import type { LoadedRule, RedirectStore } from "../redirects/engine";
import { db, type Db } from "./client";
import { rowsOf } from "./rows";
import { redirects, redirectsState, type RedirectRow } from "./schema";
import { escapeLike } from "./slugs";

export type RedirectOrigin = "manual" | "slug" | "wordpress" | "csv" | "not-found";
export type { RedirectRow };

/** A rule as it is written (already checked). */
export type RedirectValues = {
  match: "exact" | "regex";
  source: string;
  query: string;
  target: string;
  status: number;
  enabled: boolean;
  origin: RedirectOrigin;
  note: string;
};

/**
 * A page moved from `from` to `to` (paths on this site): a redirect from the
 * old path, redirects that pointed at it now point at the new one (one hop),
 * and no rule hides the new path. The hook for every kind of page with a
 * slug: articles and team members call it through their slug trigger; an
 * events module calls it in the transaction that renames an event
 * (`recordPathMove(tx, "/event/old", "/event/new")`).
 */
export async function recordPathMove(tx: Db, from: string, to: string): Promise<void> {
  await tx.execute(sql`select record_path_move(${from}, ${to})`);
}

/** The store the in-memory engine reads (enabled rules) and writes hit counts to. */
export function redirectStore(): RedirectStore {
  return {
    async version() {
      const [row] = await db().select({ v: redirectsState.version }).from(redirectsState).where(eq(redirectsState.id, 1));
      return row?.v ?? 0;
    },
    load(): Promise<LoadedRule[]> {
      return db()
        .select({
          id: redirects.id,
          match: redirects.match,
          source: redirects.source,
          query: redirects.query,
          target: redirects.target,
          status: redirects.status,
        })
        .from(redirects)
        .where(eq(redirects.enabled, true))
        .orderBy(asc(redirects.id));
    },
    async writeHits(hits) {
      const values = [...hits].map(([id, h]) => sql`(${id}::int, ${h.count}::int, ${h.last.toISOString()}::timestamptz)`);
      await db().execute(sql`
        update redirects r set hits = r.hits + v.n, last_hit_at = greatest(coalesce(r.last_hit_at, v.at), v.at)
        from (values ${sql.join(values, sql`, `)}) as v(id, n, at) where r.id = v.id`);
    },
  };
}

export const REDIRECTS_PAGE_SIZE = 50;

function searchWhere(search: string, origin: string): SQL | undefined {
  const parts: SQL[] = [];
  const text = search.trim();
  if (text) {
    const like = `%${escapeLike(text)}%`;
    parts.push(or(ilike(redirects.source, like), ilike(redirects.target, like), ilike(redirects.note, like))!);
  }
  if (origin) parts.push(eq(redirects.origin, origin));
  return parts.length ? and(...parts) : undefined;
}

/** The dashboard's list: newest first, searched in source, target and note, optionally one origin. */
export async function listRedirects(options: { search?: string; origin?: string; page?: number }) {
  const where = searchWhere(options.search ?? "", options.origin ?? "");
  const [{ total }] = await db()
    .select({ total: sql<number>`count(*)::int` })
    .from(redirects)
    .where(where);
  const pages = pageCount(total, REDIRECTS_PAGE_SIZE);
  const page = Math.min(Math.max(1, options.page ?? 1), pages);
  const rows = await db()
    .select()
    .from(redirects)
    .where(where)
    .orderBy(desc(redirects.created_at), desc(redirects.id))
    .limit(REDIRECTS_PAGE_SIZE)
    .offset(pageOffset(page, REDIRECTS_PAGE_SIZE));
  return { rows, total, page, pages };
}

export async function getRedirect(id: number): Promise<RedirectRow | undefined> {
  const [row] = await db().select().from(redirects).where(eq(redirects.id, id));
  return row;
}

/** The rule with this exact source (canonical path and query), if any. */
export async function findExactRule(tx: Db, source: string, query: string): Promise<RedirectRow | undefined> {
  const [row] = await tx
    .select()
    .from(redirects)
    .where(and(eq(redirects.match, "exact"), eq(redirects.source, source), eq(redirects.query, query)));
  return row;
}

export async function findRegexRule(tx: Db, source: string): Promise<RedirectRow | undefined> {
  const [row] = await tx
    .select()
    .from(redirects)
    .where(and(eq(redirects.match, "regex"), eq(redirects.source, source)));
  return row;
}

/** Enabled exact rules that send visitors to `path` (compared lower-cased, with or without a trailing slash). */
export async function rulesPointingAt(tx: Db, path: string): Promise<RedirectRow[]> {
  const lower = path.toLowerCase();
  const forms = lower === "/" ? [lower] : [lower, `${lower}/`];
  return tx
    .select()
    .from(redirects)
    .where(and(inArray(sql`lower(${redirects.target})`, forms), eq(redirects.enabled, true)));
}

export async function insertRedirect(tx: Db, values: RedirectValues): Promise<RedirectRow> {
  const [row] = await tx.insert(redirects).values(values).returning();
  return row;
}

export async function updateRedirectRow(tx: Db, id: number, values: Partial<RedirectValues>): Promise<RedirectRow | undefined> {
  const [row] = await tx
    .update(redirects)
    .set({ ...values, updated_at: new Date() })
    .where(eq(redirects.id, id))
    .returning();
  return row;
}

/** Points the given rules at `target` (a chain made one hop). */
export async function retarget(tx: Db, ids: readonly number[], target: string): Promise<void> {
  if (!ids.length) return;
  await tx.update(redirects).set({ target, updated_at: new Date() }).where(inArray(redirects.id, ids));
}

export async function setRedirectsEnabled(ids: readonly number[], enabled: boolean): Promise<RedirectRow[]> {
  if (!ids.length) return [];
  return db().update(redirects).set({ enabled, updated_at: new Date() }).where(inArray(redirects.id, ids)).returning();
}

export async function deleteRedirects(tx: Db, ids: readonly number[]): Promise<RedirectRow[]> {
  if (!ids.length) return [];
  return tx.delete(redirects).where(inArray(redirects.id, ids)).returning();
}

/** Every rule, oldest first (the CSV export and the nginx map). */
export async function allRedirects(options: { enabledOnly?: boolean } = {}): Promise<RedirectRow[]> {
  return db()
    .select()
    .from(redirects)
    .where(options.enabledOnly ? eq(redirects.enabled, true) : undefined)
    .orderBy(asc(redirects.id));
}

/**
 * Imported rules (WordPress, CSV) written in one statement: a source that
 * has a rule already gets the new target (an import run again changes
 * nothing that is the same). Returns how many rows were new or changed.
 */
export async function upsertRedirects(tx: Db, rows: readonly RedirectValues[]): Promise<number> {
  let changed = 0;
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500);
    const result = await tx.execute(sql`
      insert into redirects (match, source, query, target, status, enabled, origin, note)
      values ${sql.join(
        chunk.map((r) => sql`(${r.match}, ${r.source}, ${r.query}, ${r.target}, ${r.status}, ${r.enabled}, ${r.origin}, ${r.note})`),
        sql`, `,
      )}
      on conflict (match, source, query) do update
        set target = excluded.target, status = excluded.status, updated_at = now()
        where redirects.target is distinct from excluded.target or redirects.status <> excluded.status
      returning id`);
    changed += rowsOf(result).length;
  }
  return changed;
}

/** Counts by origin (the screen's filter). */
export async function countRedirectsByOrigin(): Promise<Record<string, number>> {
  const rows = await db()
    .select({ origin: redirects.origin, n: sql<number>`count(*)::int` })
    .from(redirects)
    .groupBy(redirects.origin);
  return Object.fromEntries(rows.map((r) => [r.origin, r.n]));
}

/** Exact sources among `sources` (canonical paths) that have an enabled rule without a query. */
export async function sourcesWithRules(sources: readonly string[]): Promise<Set<string>> {
  if (!sources.length) return new Set();
  const rows = await db()
    .select({ source: redirects.source })
    .from(redirects)
    .where(and(eq(redirects.match, "exact"), eq(redirects.query, ""), inArray(redirects.source, [...sources])));
  return new Set(rows.map((r) => r.source));
}
