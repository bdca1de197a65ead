/**
 * Saving a redirect rule (the dashboard's form, a CSV line, a click in the
 * 404 log): checked, then written with its audit entry.
 *
 * - The source: an exact path (with an optional query that must be part of
 *   the request's), or a regular expression checked for catastrophic
 *   backtracking (regex-check.ts).
 * - The target: paths.ts `checkTarget` (another host only when a person
 *   typed it: `origin` 'manual').
 * - No loop: a rule to itself, or one whose chain comes back to its source,
 *   is refused. No chain: a target that itself redirects is replaced by where
 *   that chain ends (one hop), and rules that pointed at the new rule's
 *   source are pointed at its target. `notes` says which, for the screen.
 */
import { contentChanged } from "../db/content-events";
import { recordAudit, type Actor } from "../db/audit";
import { db, type Db } from "../db/client";
import {
  deleteRedirects,
  setRedirectsEnabled,
  findExactRule,
  findRegexRule,
  insertRedirect,
  retarget,
  rulesPointingAt,
  updateRedirectRow,
  type RedirectOrigin,
  type RedirectRow,
  type RedirectValues,
} from "../db/redirects";
import { getEnv } from "../env";
import { canonicalPath, canonicalQuery, checkTarget } from "./paths";
import { checkRegex } from "./regex-check";
import { REDIRECT_STATUSES, type RedirectStatus } from "~/lib/redirects";

export { REDIRECT_STATUSES, type RedirectStatus };

export type RuleInput = {
  match: "exact" | "regex";
  /** Exact: a path, optionally with ?query; regex: the pattern. */
  source: string;
  target: string;
  status: RedirectStatus;
  enabled?: boolean;
  note?: string;
};

export type RuleErrors = Partial<Record<"source" | "target" | "status" | "note", string>>;
export type SaveResult = { ok: true; rule: RedirectRow; notes: string[] } | { ok: false; errors: RuleErrors };

const MAX_HOPS = 10;

/** The source split into canonical path and query (exact rules), or an error in words. */
export function exactSource(input: string): { source: string; query: string } | { error: string } {
  const text = input.trim();
  let pathAndQuery = text;
  if (/^https?:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      pathAndQuery = `${url.pathname}${url.search}`;
    } catch {
      return { error: "This is not an address. Enter the old path, such as /2021/03/old-post/." };
    }
  }
  if (!pathAndQuery.startsWith("/")) return { error: "The old address must start with /, such as /2021/03/old-post/." };
  const q = pathAndQuery.indexOf("?");
  const source = canonicalPath(q === -1 ? pathAndQuery : pathAndQuery.slice(0, q));
  if (!source) return { error: "This old address cannot be redirected (it is too long, or holds control characters)." };
  return { source, query: q === -1 ? "" : canonicalQuery(pathAndQuery.slice(q + 1)) };
}

type Checked = { values: RedirectValues; regex?: RegExp } | { errors: RuleErrors };

/** Checks a rule without writing anything. */
export function checkRule(input: RuleInput, origin: RedirectOrigin): Checked {
  const errors: RuleErrors = {};
  if (!(REDIRECT_STATUSES as readonly number[]).includes(input.status)) errors.status = "Choose 301, 302, 307, 308 or 410.";
  let source = "";
  let query = "";
  let regex: RegExp | undefined;
  if (input.match === "regex") {
    // PostgreSQL text cannot hold NUL; a control character never appears in a request's path anyway.
    const checked = /\p{Cc}/u.test(input.source)
      ? ({ ok: false, message: "The regular expression cannot contain control characters. Write \\t or \\x01 instead." } as const)
      : checkRegex(input.source);
    if (checked.ok) {
      source = input.source;
      regex = checked.regex;
    } else errors.source = checked.message;
  } else {
    const exact = exactSource(input.source);
    if ("error" in exact) errors.source = exact.error;
    else ({ source, query } = exact);
  }
  let target = "";
  if (input.status !== 410) {
    const checked = checkTarget(input.target, { allowOtherHost: origin === "manual", siteOrigin: getEnv().publicUrl });
    if (checked.ok) target = checked.target;
    else errors.target = checked.message;
  }
  const note = (input.note ?? "").trim();
  if (/\p{Cc}/u.test(note)) errors.note = "The note cannot contain control characters.";
  if (Object.keys(errors).length) return { errors };
  return {
    values: {
      match: input.match,
      source,
      query,
      target,
      status: input.status,
      enabled: input.enabled ?? true,
      origin,
      note: note.slice(0, 500),
    },
    regex,
  };
}

/** Where a same-site target ends after following exact rules (loop: null). */
async function finalTarget(tx: Db, values: RedirectValues, selfId: number | undefined): Promise<{ target: string; via: string[] } | null> {
  let target = values.target;
  const via: string[] = [];
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    if (!target.startsWith("/")) return { target, via };
    const q = target.indexOf("?");
    const path = canonicalPath(q === -1 ? target : target.slice(0, q));
    if (!path) return { target, via };
    if (
      values.match === "exact" &&
      path === values.source &&
      (values.query === "" || canonicalQuery(q === -1 ? "" : target.slice(q + 1)) === values.query)
    ) {
      return null;
    }
    const next =
      (await findExactRule(tx, path, q === -1 ? "" : canonicalQuery(target.slice(q + 1)))) ?? (await findExactRule(tx, path, ""));
    if (!next || !next.enabled || next.id === selfId || next.status === 410) return { target, via };
    via.push(target);
    target = next.target;
  }
  return null;
}

/** Writes a checked rule (new, or `id` changed), making chains one hop. */
export async function saveRule(
  input: RuleInput,
  actor: Actor,
  options: { origin?: RedirectOrigin; id?: number } = {},
): Promise<SaveResult> {
  const origin = options.origin ?? "manual";
  const checked = checkRule(input, origin);
  if ("errors" in checked) return { ok: false, errors: checked.errors };
  const { values, regex } = checked;
  const result = await db().transaction(async (tx): Promise<SaveResult> => {
    const existing =
      values.match === "exact" ? await findExactRule(tx, values.source, values.query) : await findRegexRule(tx, values.source);
    if (existing && existing.id !== options.id) {
      return {
        ok: false,
        errors: { source: `A redirect for this address exists already (to ${existing.target || "410 Gone"}). Change that one.` },
      };
    }
    const notes: string[] = [];
    if (values.status !== 410 && values.target.startsWith("/")) {
      if (regex) {
        // A regex whose target (with its groups filled in) matches the regex again would send visitors round.
        const sample = values.target.replace(/\$\d/g, "x");
        if (regex.test(sample)) {
          return { ok: false, errors: { target: `This would be a loop: the target ${values.target} matches the rule's own pattern.` } };
        }
      } else {
        const final = await finalTarget(tx, values, options.id);
        if (!final)
          return { ok: false, errors: { target: `This would be a loop: ${values.target} leads back to ${input.source.trim()}.` } };
        if (final.via.length) {
          notes.push(`${final.via[0]} already redirects to ${final.target}, so this rule goes straight to ${final.target} (one hop).`);
          values.target = final.target;
        }
      }
    }
    const rule = options.id ? await updateRedirectRow(tx, options.id, values) : await insertRedirect(tx, values);
    if (!rule) return { ok: false, errors: { source: "This redirect no longer exists. Reload the page." } };
    if (values.match === "exact" && values.query === "") {
      const pointing = (await rulesPointingAt(tx, values.source)).filter((r) => r.id !== rule.id && r.match === "exact");
      if (values.status === 410) {
        if (pointing.length)
          notes.push(
            `${pointing.length} other redirect${pointing.length === 1 ? " points" : "s point"} at this address, which is now gone (410).`,
          );
      } else if (pointing.length) {
        await retarget(
          tx,
          pointing.map((r) => r.id),
          values.target,
        );
        notes.push(
          `${pointing.length} redirect${pointing.length === 1 ? "" : "s"} that pointed at ${input.source.trim()} now go${pointing.length === 1 ? "es" : ""} straight to ${values.target} (one hop).`,
        );
      }
    }
    await recordAudit(tx, actor, {
      action: options.id ? "update" : "create",
      itemType: "redirect",
      itemId: rule.id,
      itemLabel: `${describeSource(rule)} → ${rule.status === 410 ? "410 Gone" : rule.target}`,
      changes: { status: { after: rule.status }, origin: { after: origin } },
    });
    return { ok: true, rule, notes };
  });
  if (result.ok) contentChanged("redirects");
  return result;
}

/** A rule's source as a person reads it: the path with its query, or the pattern. */
export function describeSource(rule: Pick<RedirectRow, "match" | "source" | "query">): string {
  return rule.match === "regex" ? `regex ${rule.source}` : rule.query ? `${rule.source}?${rule.query}` : rule.source;
}

/** Deletes rules (with their audit entries); returns how many. */
export async function deleteRules(ids: readonly number[], actor: Actor): Promise<number> {
  const removed = await db().transaction(async (tx) => {
    const rows = await deleteRedirects(tx, ids);
    for (const r of rows) {
      await recordAudit(tx, actor, {
        action: "delete",
        itemType: "redirect",
        itemId: r.id,
        itemLabel: `${describeSource(r)} → ${r.target || "410 Gone"}`,
      });
    }
    return rows.length;
  });
  if (removed) contentChanged("redirects");
  return removed;
}

/** Turns rules on or off (recorded); returns how many changed. */
export async function enableRules(ids: readonly number[], enabled: boolean, actor: Actor): Promise<number> {
  const rows = await setRedirectsEnabled(ids, enabled);
  await recordAudit(undefined, actor, {
    action: "update",
    itemType: "redirect",
    itemLabel: `${rows.length} redirect${rows.length === 1 ? "" : "s"} ${enabled ? "enabled" : "disabled"}`,
    changes: { enabled: { after: enabled } },
  });
  if (rows.length) contentChanged("redirects");
  return rows.length;
}

/** One line of a CSV import: old address, new address, status (default 301), and "regex" in a fourth cell for a regular expression. */
export async function importCsvRules(rows: readonly string[][], actor: Actor): Promise<{ added: number; refused: string[] }> {
  let added = 0;
  const refused: string[] = [];
  for (const [n, cells] of rows.entries()) {
    const [source = "", target = "", status = "301", match = ""] = cells.map((c) => c.trim());
    if (n === 0 && /^(source|from|old)/i.test(source)) continue;
    const code = Number(status || 301) as RedirectStatus;
    const result = await saveRule({ match: match.toLowerCase() === "regex" ? "regex" : "exact", source, target, status: code }, actor, {
      origin: "csv",
    });
    if (result.ok) added++;
    else refused.push(`Line ${n + 1} (${source || "empty"}): ${Object.values(result.errors).join(" ")}`);
  }
  return { added, refused };
}
