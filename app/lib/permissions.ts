/**
 * What a dashboard screen or action may need. Which role has which is decided
 * in one place, app/.server/auth/roles.ts; routes declare the one they need in their
 * `handle` (app/lib/route-handle.ts).
 */
export const PERMISSIONS = [
  /** Team members, articles, office hours, page headers (and their history and trash). */
  "content",
  /** The Staff screen: invite, change roles, deactivate (owners only for owner accounts). */
  "staff",
  /** The Activity screen (the audit trail). */
  "activity",
  /** Enquiries sent through the public form. */
  "enquiries",
  /** The mail outbox (it holds invitation and reset links). */
  "outbox",
  /** Security settings such as requiring two-factor sign-in for everyone. */
  "security",
  /** The Statistics screen (visit statistics, CSV export) and the views panel of the edit screens. */
  "statistics",
  /** Insight subscribers: the list, search, consent history, CSV export and import, withdrawal on request (issue 31). */
  "subscribers",
  /** How many subscribers there are, by status and topic (no addresses). */
  "subscriber-counts",
  /** Erasing a subscriber on request (only a hash of the address stays). */
  "subscriber-erase",
  /** Sending an article to subscribers (Send to subscribers; a test to oneself needs only "content"): issue 42. */
  "subscriber-mailing",
  /** Redirects and the 404 log: rules from old addresses, made, searched, disabled, deleted, CSV in and out (issue 46). */
  "redirects",
  /** Importing a WordPress site from the dashboard (issue 46). */
  "wordpress-import",
  /** Failed jobs: timed work that failed its last attempt, with its error, and sending it again (issue 44). */
  "failed-jobs",
  /** Events and webinars: create, edit, schedule, cancel, move and delete them (issue 45). Editors have it. */
  "events",
  /** An event's registrants (their personal data): the list, CSV export, attendance and certificates (issue 45). */
  "event-registrations",
] as const;

export type Permission = (typeof PERMISSIONS)[number];
