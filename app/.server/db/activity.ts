/**
 * The Activity screen's reading of the audit trail: newest first, filtered by
 * person, kind of item, action and date range, paged in the database, with
 * the address of each entry's item when it still exists (the Trash for a
 * deleted article or team member).
 */
import { and, desc, eq, gte, isNull, lt, sql, type SQL } from "drizzle-orm";
import { startOfLocalDay } from "~/lib/activity";
import { AUDIT_ACTIONS, AUDIT_ITEM_TYPES, type AuditAction, type AuditItemType } from "./audit";
import { db } from "./client";
import { readPage } from "./rows";
import { auditLog, user } from "./schema";

export const ACTIVITY_PAGE_SIZE = 50;

export type ActivityFilters = {
  /** An account id, "system" (no account: the timed jobs, commands, sign-in attempts of unknown names), or "" for everyone. */
  person: string;
  item: AuditItemType | "";
  action: AuditAction | "";
  /** Inclusive bounds as instants (the route turns the firm's local dates into them). */
  from: Date | null;
  to: Date | null;
};

export type ActivityEntry = {
  id: number;
  at: Date;
  actorId: string | null;
  actorLabel: string;
  actorName: string | null;
  ip: string;
  action: string;
  itemType: string;
  itemId: string | null;
  itemLabel: string;
  changes: Record<string, unknown> | null;
  href: string | null;
};

/** The filters as the screen's GET form sent them (the screen and its CSV export read them alike); unknown values are ignored. */
export function activityFiltersOf(
  params: URLSearchParams,
  people: readonly { id: string }[],
): { filters: ActivityFilters; values: Record<"person" | "item" | "action" | "from" | "to", string> } {
  const get = (name: string) => (params.get(name) ?? "").slice(0, 100);
  const [person, item, action, from, to] = [get("person"), get("item"), get("action"), get("from"), get("to")];
  const toStart = startOfLocalDay(to);
  const filters: ActivityFilters = {
    person: person === "system" || people.some((p) => p.id === person) ? person : "",
    item: (ACTIVITY_ITEMS as readonly string[]).includes(item) ? (item as ActivityFilters["item"]) : "",
    action: (ACTIVITY_ACTIONS as readonly string[]).includes(action) ? (action as ActivityFilters["action"]) : "",
    from: startOfLocalDay(from),
    // "To" includes that whole day.
    to: toStart ? new Date(startOfLocalDay(new Date(toStart.getTime() + 36 * 3_600_000).toISOString().slice(0, 10))!.getTime()) : null,
  };
  return {
    filters,
    values: {
      person: filters.person,
      item: filters.item,
      action: filters.action,
      from: filters.from ? from : "",
      to: filters.to ? to : "",
    },
  };
}

/** An entry as the screen and the CSV export show it: when, who (as recorded) and from where, what, on which item, and the changes. */
const entryColumns = {
  at: auditLog.at,
  actorLabel: auditLog.actor_label,
  ip: auditLog.ip,
  action: auditLog.action,
  itemType: auditLog.item_type,
  itemId: auditLog.item_id,
  itemLabel: auditLog.item_label,
  changes: auditLog.changes,
};

/** The most entries one CSV export holds (the newest; the screen's filters narrow it). */
export const ACTIVITY_EXPORT_MAX = 100_000;

/** The entries the filters select, newest first, for the CSV export: who, from where, what, on which item, and the changes. */
export async function activityForExport(filters: ActivityFilters) {
  return db()
    .select(entryColumns)
    .from(auditLog)
    .where(where(filters))
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(ACTIVITY_EXPORT_MAX);
}

function where(f: ActivityFilters): SQL | undefined {
  const parts: SQL[] = [];
  if (f.person === "system") parts.push(isNull(auditLog.actor_id));
  else if (f.person) parts.push(eq(auditLog.actor_id, f.person));
  if (f.item) parts.push(eq(auditLog.item_type, f.item));
  if (f.action) parts.push(eq(auditLog.action, f.action));
  if (f.from) parts.push(gte(auditLog.at, f.from));
  if (f.to) parts.push(lt(auditLog.at, f.to));
  return parts.length ? and(...parts) : undefined;
}

/** Where a content item is now: its edit page, the Trash (deleted, not yet purged), or gone. */
type ContentPlace = "live" | "trash" | null;

function hrefOf(e: {
  itemType: string;
  itemId: string | null;
  teamSlug: string | null;
  team: ContentPlace;
  article: ContentPlace;
  staffExists: boolean;
  enquiryExists: boolean;
}): string | null {
  switch (e.itemType) {
    case "team":
      return e.team === "trash" ? "/dashboard/trash" : e.team === "live" && e.teamSlug ? `/dashboard/lawyer/${e.teamSlug}` : null;
    case "article":
      return e.article === "trash" ? "/dashboard/trash" : e.article === "live" ? `/dashboard/articles/${e.itemId}/edit` : null;
    case "enquiry":
      return e.enquiryExists ? `/dashboard/enquiries/${e.itemId}` : null;
    case "hours":
      return "/dashboard/hours/edit";
    case "header":
      return "/dashboard/headers/edit";
    case "staff":
    case "session":
      return e.staffExists ? `/dashboard/staff#staff-${e.itemId}` : null;
    case "mail":
      return e.itemId && /^\d+$/.test(e.itemId) ? `/dashboard/outbox/${e.itemId}` : "/dashboard/outbox";
    case "settings":
      return "/dashboard/staff#security";
    default:
      return null;
  }
}

export async function listActivity(
  filters: ActivityFilters,
  page: number,
): Promise<{ entries: ActivityEntry[]; total: number; pageCount: number; page: number }> {
  const condition = where(filters);
  const { rows, ...paging } = await readPage(auditLog, condition, page, ACTIVITY_PAGE_SIZE, (limit, offset) =>
    db()
      .select({
        id: auditLog.id,
        actorId: auditLog.actor_id,
        actorName: user.name,
        ...entryColumns,
        // Written out with table names: inside a subquery Drizzle would leave "id" unqualified.
        teamSlug: sql<
          string | null
        >`(select t."slug" from "team" t where "audit_log"."item_type" = 'team' and "audit_log"."item_id" ~ '^[0-9]{1,9}$' and t."id" = "audit_log"."item_id"::int)`,
        // 'live', 'trash' (deleted_at set: its edit page is 404, the Trash has it) or null (gone).
        team: sql<ContentPlace>`(select case when t."deleted_at" is null then 'live' else 'trash' end from "team" t where "audit_log"."item_type" = 'team' and "audit_log"."item_id" ~ '^[0-9]{1,9}$' and t."id" = "audit_log"."item_id"::int)`,
        article: sql<ContentPlace>`(select case when a."deleted_at" is null then 'live' else 'trash' end from "articles" a where "audit_log"."item_type" = 'article' and "audit_log"."item_id" ~ '^[0-9]{1,9}$' and a."id" = "audit_log"."item_id"::int)`,
        staffExists: sql<boolean>`exists (select 1 from "user" u2 where "audit_log"."item_type" in ('staff', 'session') and u2."id" = "audit_log"."item_id")`,
        enquiryExists: sql<boolean>`exists (select 1 from "enquiries" e where "audit_log"."item_type" = 'enquiry' and "audit_log"."item_id" ~ '^[0-9]{1,9}$' and e."id" = "audit_log"."item_id"::int)`,
      })
      .from(auditLog)
      .leftJoin(user, eq(user.id, auditLog.actor_id))
      .where(condition)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
  );
  return {
    ...paging,
    entries: rows.map((r) => ({
      id: Number(r.id),
      at: r.at,
      actorId: r.actorId,
      actorLabel: r.actorLabel,
      actorName: r.actorName,
      ip: r.ip,
      action: r.action,
      itemType: r.itemType,
      itemId: r.itemId,
      itemLabel: r.itemLabel,
      changes: r.changes,
      href: hrefOf({
        itemType: r.itemType,
        itemId: r.itemId,
        teamSlug: r.teamSlug,
        team: r.team,
        article: r.article,
        staffExists: r.staffExists === true || (r.staffExists as unknown) === "t",
        enquiryExists: r.enquiryExists === true || (r.enquiryExists as unknown) === "t",
      }),
    })),
  };
}

/** The people who appear in the trail, for the filter (accounts by name; entries outlive accounts, so labels too). */
export async function activityPeople(): Promise<{ id: string; label: string }[]> {
  const rows = await db().select({ id: user.id, name: user.name, email: user.email }).from(user).orderBy(user.email);
  return rows.map((r) => ({ id: r.id, label: r.name && r.name !== r.email.split("@")[0] ? `${r.name} (${r.email})` : r.email }));
}

export const ACTIVITY_ACTIONS = AUDIT_ACTIONS;
export const ACTIVITY_ITEMS = AUDIT_ITEM_TYPES;
