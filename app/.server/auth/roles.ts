/**
 * Roles: the one place that says what each kind of staff account may do.
 * Each dashboard route declares the permission it needs in its `handle`; the
 * dashboard's guard (admin/guard.server.ts, the layout's middleware) asks
 * here, through `requireStaff(request, permission)` (auth.ts), and answers
 * 403 when the role lacks it.
 *
 * - owner: everything (the account from ADMIN_EMAIL or `npm run admin:create`);
 * - admin: everything but owners (cannot make, change or remove an owner;
 *   cannot read the outbox or change security settings);
 * - editor: content (team, articles, office hours, page headers), the visit statistics and the
 *   subscriber counts (no addresses).
 * Subscribers (issue 31): owners and admins manage them; only owners erase one;
 * owners and admins send an article to them, editors only a test to themselves (issue 42).
 * Redirects and the 404 log (issue 46): all three roles; the WordPress import: owners and admins.
 * Events (issue 45): owners, admins and editors manage them; their registrants' personal data: owners, admins
 * and the events coordinator.
 * - events (the events coordinator): events and their registrants only.
 */
import { MSG } from "~/lib/forms/messages";
import { PERMISSIONS, type Permission } from "~/lib/permissions";

export const ROLES = ["owner", "admin", "editor", "events"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", admin: "Admin", editor: "Editor", events: "Events coordinator" };

export type { Permission };

const GRANTS: Record<Role, readonly Permission[]> = {
  /** Owners may do everything there is. */
  owner: PERMISSIONS,
  admin: [
    "content",
    "staff",
    "activity",
    "enquiries",
    "statistics",
    "subscribers",
    "subscriber-counts",
    "subscriber-mailing",
    "redirects",
    "wordpress-import",
    "events",
    "event-registrations",
  ],
  editor: ["content", "statistics", "subscriber-counts", "redirects", "events"],
  /** The events coordinator: events, their registrants, attendance and certificates; nothing else. */
  events: ["events", "event-registrations"],
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/**
 * Whether `actor` may manage an account of role `target` (change its role,
 * deactivate, resend or withdraw its invitation), or give an account the role
 * `target`. Only owners touch owners.
 */
export function canManageRole(actor: Role, target: Role): boolean {
  if (!can(actor, "staff")) return false;
  return target !== "owner" || actor === "owner";
}

export const FORBIDDEN_MESSAGE = MSG.forbidden;
