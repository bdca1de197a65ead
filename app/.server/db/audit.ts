/**
 * The audit trail: who did what, when, from where, to which item, with the
 * changed fields before and after. `recordAudit` is called with the
 * transaction that makes the change, so a change without its record (or a
 * record without its change) cannot happen. The table is append-only
 * (a trigger refuses UPDATE, and DELETE outside the retention sweep).
 *
 * Never recorded: passwords, tokens, secrets, codes (a field whose name says
 * so is noted as changed, without its value). Long texts (article bodies,
 * biographies) are recorded as a short diff of their words.
 */
import { diffWordsWithSpace } from "diff";
import { lt, sql } from "drizzle-orm";
import { db, type Db } from "./client";
import { auditLog } from "./schema";

/** Who made a change: a staff account, or the system (a timed job, a command). */
export type Actor = { userId: string | null; label: string; ip: string };

export function systemActor(label = "system"): Actor {
  return { userId: null, label, ip: "" };
}

export function staffActor(staff: { userId: string; email: string }, ip: string): Actor {
  return { userId: staff.userId, label: staff.email, ip };
}

export const AUDIT_ACTIONS = [
  "create",
  "update",
  "delete",
  "restore",
  "publish",
  "unpublish",
  "purge",
  "sign-in",
  "sign-out",
  "failed-sign-in",
  "lockout",
  "two-factor",
  "passkey",
  "role-change",
  "invitation",
  "deactivate",
  "reactivate",
  "password-change",
  "password-reset",
  "settings",
  "export",
  "import",
  "mail",
  "retry",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Kinds of item, in the firm's words. */
export const AUDIT_ITEM_TYPES = [
  "team",
  "article",
  "hours",
  "header",
  "staff",
  "session",
  "settings",
  "enquiry",
  "mail",
  "site",
  "subscriber",
  "redirect",
  "event",
  "job",
] as const;
export type AuditItemType = (typeof AUDIT_ITEM_TYPES)[number];

export type FieldChange = { before?: unknown; after?: unknown; diff?: string; hidden?: true };
export type Changes = Record<string, FieldChange>;

export type AuditEntry = {
  action: AuditAction;
  itemType: AuditItemType;
  itemId?: string | number | null;
  itemLabel?: string;
  changes?: Changes | null;
};

/** Appends one entry, in the caller's transaction (pass `tx`), or on its own. */
export async function recordAudit(tx: Db | undefined, actor: Actor, entry: AuditEntry): Promise<void> {
  await (tx ?? db()).insert(auditLog).values({
    actor_id: actor.userId,
    actor_label: actor.label.slice(0, 320),
    ip: actor.ip.slice(0, 100),
    action: entry.action,
    item_type: entry.itemType,
    item_id: entry.itemId == null ? null : String(entry.itemId),
    item_label: (entry.itemLabel ?? "").replace(/\0/g, "").slice(0, 300),
    changes: entry.changes && Object.keys(entry.changes).length ? entry.changes : null,
  });
}

/** Records that an article, event or team member was moved to the Trash. */
export function recordMovedToTrash(
  tx: Db,
  actor: Actor,
  itemType: "article" | "event" | "team",
  itemId: number,
  itemLabel: string,
): Promise<void> {
  return recordAudit(tx, actor, { action: "delete", itemType, itemId, itemLabel, changes: { trash: { after: "moved to the Trash" } } });
}

/** A save's action for an article or event: going live is a publish, leaving the public site an unpublish, anything else an update. */
export function saveAction(before: { status: string }, after: { status: string }): "publish" | "unpublish" | "update" {
  if (before.status !== "published" && after.status === "published") return "publish";
  if (before.status === "published" && after.status !== "published") return "unpublish";
  return "update";
}

/** An entry a staff member makes about their own account on My account (from `ip`): the account is both who and what. */
export function recordOwnAccountEntry(
  tx: Db,
  staff: { userId: string; email: string },
  ip: string,
  entry: { action: AuditAction; itemType: "staff" | "session"; changes: Changes },
): Promise<void> {
  return recordAudit(tx, { userId: staff.userId, label: staff.email, ip }, { ...entry, itemId: staff.userId, itemLabel: staff.email });
}

/** Records that the scheduled-publishing job put a scheduled article or event live. */
export function recordScheduledPublish(
  tx: Db,
  actor: Actor,
  itemType: "article" | "event",
  row: { id: number; title: string },
): Promise<void> {
  return recordAudit(tx, actor, {
    action: "publish",
    itemType,
    itemId: row.id,
    itemLabel: row.title,
    changes: { status: { before: "scheduled", after: "published" } },
  });
}

const SECRET_FIELD = /password|token|secret|code|hash|key$/i;
const NEVER_RECORDED = new Set(["updated_at", "updatedAt", "created_at", "createdAt", "version"]);
/** Texts longer than this are recorded as a short diff. */
export const LONG_TEXT = 200;
const DIFF_MAX = 600;
const CONTEXT = 40;

function plain(text: string): string {
  return /<[a-z/!]/i.test(text)
    ? text
        .replace(/<\/(p|h\d|li|blockquote)>/gi, "\n")
        .replace(/<[^>]*>/g, "")
        .replace(/&nbsp;/g, " ")
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
    : text;
}

/**
 * A short, readable diff of two long texts: removed words as [-…-], added as
 * {+…+}, with a little context around each change; at most ~600 characters.
 */
export function shortDiff(before: string, after: string): string {
  const parts = diffWordsWithSpace(plain(before), plain(after));
  let out = "";
  for (let i = 0; i < parts.length && out.length < DIFF_MAX; i++) {
    const part = parts[i];
    if (part.added) out += `{+${part.value}+}`;
    else if (part.removed) out += `[-${part.value}-]`;
    else {
      const v = part.value;
      const first = i === 0;
      const last = i === parts.length - 1;
      if (v.length <= CONTEXT * 2) out += v;
      else out += `${first ? "…" : v.slice(0, CONTEXT)}${first || last ? "" : " … "}${last ? "…" : v.slice(-CONTEXT)}`;
    }
  }
  out = out.replace(/\s+/g, " ").trim();
  return out.length > DIFF_MAX ? `${out.slice(0, DIFF_MAX)}…` : out;
}

function same(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  return JSON.stringify(a) === JSON.stringify(b);
}

function recorded(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}

/**
 * The fields that differ between two versions of a row (either may be null
 * for a create or a delete). Secrets are marked hidden, long texts diffed,
 * timestamps of the row itself left out.
 */
export function fieldChanges(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  options: { ignore?: readonly string[] } = {},
): Changes {
  const changes: Changes = {};
  const names = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const name of names) {
    if (NEVER_RECORDED.has(name) || options.ignore?.includes(name)) continue;
    const a = before?.[name];
    const b = after?.[name];
    if (before && after && same(a, b)) continue;
    if (SECRET_FIELD.test(name)) {
      changes[name] = { hidden: true };
      continue;
    }
    const long = (typeof a === "string" && a.length > LONG_TEXT) || (typeof b === "string" && b.length > LONG_TEXT);
    const text = (value: unknown) => (typeof value === "string" ? value : "");
    if (long && before && after) changes[name] = { diff: shortDiff(text(a), text(b)) };
    else if (long) changes[name] = before ? { diff: shortDiff(text(a), "") } : { diff: shortDiff("", text(b)) };
    else changes[name] = { ...(before ? { before: recorded(a) } : {}), ...(after ? { after: recorded(b) } : {}) };
  }
  return changes;
}

/** Default retention of the trail (AUDIT_RETENTION_DAYS overrides it). */
export const AUDIT_RETENTION_DAYS = 730;

/**
 * The one place entries are ever deleted: those older than the retention
 * period, in a transaction that lifts the append-only trigger for itself.
 * Returns how many were removed.
 */
export async function sweepAuditTrail(retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000);
  return db().transaction(async (tx) => {
    await tx.execute(sql`select set_config('firm.audit_sweep', 'on', true)`);
    const removed = await tx.delete(auditLog).where(lt(auditLog.at, cutoff)).returning({ id: auditLog.id });
    return removed.length;
  });
}
