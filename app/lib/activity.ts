/** Words for the audit trail's actions and kinds of item (Activity screen), and local-date bounds in the firm's time zone. */
import { FIRM_TIME_ZONE, startOfZonedDay } from "./firm-time";

export const ACTION_LABELS: Record<string, string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
  restore: "Restored",
  publish: "Published",
  unpublish: "Unpublished",
  purge: "Purged",
  "sign-in": "Signed in",
  "sign-out": "Signed out",
  "failed-sign-in": "Failed sign-in",
  lockout: "Locked out",
  "two-factor": "Two-factor change",
  passkey: "Passkey change",
  "role-change": "Role changed",
  invitation: "Invitation",
  deactivate: "Deactivated",
  reactivate: "Reactivated",
  "password-change": "Password changed",
  "password-reset": "Password reset",
  settings: "Settings changed",
  export: "Exported",
  import: "Imported",
  mail: "E-mail",
  retry: "Tried again",
};

export const ITEM_LABELS: Record<string, string> = {
  team: "Team member",
  article: "Article",
  hours: "Office hours",
  header: "Page header",
  staff: "Staff account",
  session: "Sign-in",
  settings: "Settings",
  enquiry: "Enquiry",
  mail: "E-mail",
  site: "Whole site",
  subscriber: "Subscriber",
  redirect: "Redirect",
  event: "Event",
  job: "Timed job",
};

/** The instant a local date (YYYY-MM-DD) starts in `timeZone`, or null for anything else. */
export function startOfLocalDay(value: string, timeZone = FIRM_TIME_ZONE): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1970 || y > 9999 || mo < 1 || mo > 12 || d < 1 || d > 31) return null;
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return null;
  return startOfZonedDay(value, timeZone);
}

export function formatWhen(date: Date | string, timeZone = FIRM_TIME_ZONE): string {
  return new Intl.DateTimeFormat("en-CA", { dateStyle: "medium", timeStyle: "medium", timeZone }).format(new Date(date));
}

/** The outbox's states in words (Outbox screens). */
export const OUTBOX_STATUS_TEXT: Record<string, string> = {
  outbox: "Kept (not sent)",
  sending: "Sending",
  sent: "Sent",
  failed: "Not sent yet",
  held: "Held (hourly limit on sign-up e-mails)",
  queued: "Waiting to be sent",
};
