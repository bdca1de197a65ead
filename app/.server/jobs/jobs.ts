/**
 * Every timed job of the site, in one list, run by the one job queue
 * (queue.ts, pg-boss): add new timed work here, never a timer of its own.
 */
import { sweepAuditTrail, systemActor } from "../db/audit";
import { publishDueArticles } from "../db/articles";
import { publishDueEvents } from "../db/event-editing";
import { purgeExpiredEnquiries } from "../db/enquiries";
import { sweepSubscribers } from "../db/subscribers";
import { deliveryFetchedInBatches, MAILING_DELIVERY_JOB, runMailings } from "../subscriptions/mailing-sender";
import { describeDelivery } from "../db/mailings";
import { runNextImport, sweepImports } from "../db/subscriber-imports";
import { queueStrandedImports, sweepStoredExports, wordpressImportJob } from "../wordpress/task";
import { sendConsentRequests } from "../subscriptions/consent-requests";
import { applyDueTeamVisibility } from "../db/team";
import { sweepTrash } from "../db/trash";
import { pruneAutosaves } from "../db/autosaves";
import type { Database } from "../db/client";
import { getEnv } from "../env";
import { sweepStaffTokens } from "../db/staff-links";
import { pruneSignInAttempts } from "../auth/login-limits";
import { rollupStats, statsRetention } from "../db/stats";
import { purgeNotFoundLog } from "../db/not-found-log";
import { describeMailJob, keepMail, MAIL_JOB, MAIL_JOB_EXPIRE_SECONDS, queueStrandedMail, runMailJob } from "../mail/mail";
import { claimDueReminders } from "../db/events";
import { eraseExpiredRegistrants } from "../db/event-registrations";
import { eventsChangedSinceLastLook } from "../db/event-listings";
import { contentChanged } from "../db/content-events";
import { eventMail } from "../events/messages";
import { certificatesJob } from "../events/certificate-job";
import { releaseHeldSignUpMail } from "../subscriptions/subscribe-form.server";
import { createPictureSweeper, SWEEP_CRON } from "../pictures/picture-sweep";
import { jobRowId, type TimedJob } from "./queue";
import { getStorage } from "../storage/storage";

/** Scheduled articles and planned team visibility are checked this often: live within 60 s of their time. */
export const SCHEDULED_PUBLISHING_INTERVAL_MS = 15_000;

/**
 * Scheduled publishing (decision 0012): articles and events whose publish
 * time has come go live, team members' "visible from" / "hidden from" apply. Run by one
 * process at a time (its queue's `exclusive` policy) and written as
 * conditional updates, so a repeat or a race changes each item once. The
 * change announces itself on content-events, which clears the page cache and
 * the team memo here and, through content-sync's NOTIFY, on every process.
 * At start-up it runs before the server listens: what fell due while no
 * server ran goes live then.
 */
export async function runScheduledPublishing(now = new Date()) {
  const actor = systemActor("scheduled publishing");
  const articles = await publishDueArticles(actor, now);
  const events = await publishDueEvents(actor, now);
  const members = await applyDueTeamVisibility(actor, now);
  return {
    articlesPublished: articles.length,
    eventsPublished: events.length,
    membersShown: members.shown,
    membersHidden: members.hidden,
  };
}

/**
 * Event reminders (issue 45), 24 hours and 1 hour before the start, to
 * everyone registered: each registration is claimed and its message kept in
 * the outbox, with the job that sends it, in one transaction (db/events.ts
 * `claimDueReminders`). Exactly once each across restarts: a claimed
 * reminder is never claimed again, and its message's job (`mail-send`)
 * delivers it once, on whichever instance, however the process ends.
 */
export async function sendEventReminders(now = new Date()) {
  let reminded = 0;
  for (const kind of ["24h", "1h"] as const) {
    const kept = await claimDueReminders(
      kind,
      async (tx, { registration, event }) => keepMail(tx, eventMail(`reminder-${kind}`, event, registration)),
      now,
    );
    reminded += kept.length;
  }
  return { reminded };
}

/** With no look on record (a database older than the mark), the first look begins this far back. */
const PASSED_LOOKBACK_MS = 5 * 60_000;

/**
 * Pages listing upcoming events (/events, a lawyer's profile, a practice
 * page) are out of date once an event ends, with no write to say so: when a
 * public event ended since the last look, the change is announced on
 * content-events (the page cache is cleared here and, through content-sync,
 * on every process). So is an event written or trashed since then (a write
 * that did not announce itself is caught within a minute). The last look's
 * end is kept in the database, so the next look begins there whichever
 * process makes it: a look missed only widens the next window, and a
 * process's first look after a start announces only what no look covered.
 */
export async function announcePassedEvents(now = new Date()) {
  const changed = await eventsChangedSinceLastLook(now, PASSED_LOOKBACK_MS);
  if (changed) contentChanged("events");
  return { changed };
}

export function siteJobs(database: Database): TimedJob[] {
  const pictures = createPictureSweeper();
  let firstSweep = true;
  return [
    {
      name: "scheduled-publishing",
      label: "Scheduled publishing",
      when: { everySeconds: SCHEDULED_PUBLISHING_INTERVAL_MS / 1000 },
      run: () => runScheduledPublishing(),
    },
    {
      // The Trash: items deleted more than 30 days ago, with their pictures (each recorded as a purge);
      // and autosaved article working copies nobody came back to in 30 days (db/autosaves.ts).
      name: "trash-sweep",
      label: "Emptying the Trash",
      when: { cron: "7 * * * *" },
      run: async () => ({ purged: await sweepTrash(systemActor("trash sweep")), autosavesRemoved: await pruneAutosaves() }),
    },
    {
      // Pictures without a row after a crash. Embedded database with pictures on its own disk:
      // everything at once at start-up (nothing saves before the server listens); PostgreSQL or a
      // bucket: only what was already orphaned at the previous sweep (another process may be between
      // picture and row right now). A bucket is listed page by page (storage-s3.ts).
      name: "picture-sweep",
      label: "Removing unused pictures",
      when: { cron: SWEEP_CRON },
      run: async () => {
        const { removed, temporaryRemoved } = await pictures.sweep(
          database.kind === "pglite" && getStorage().kind === "disk" && firstSweep,
        );
        firstSweep = false;
        return { removed: removed.length, temporaryRemoved };
      },
    },
    {
      // Mailings to subscribers (decisions 0024, 0026): articles now public become per-recipient deliveries, each with
      // its `mailing-delivery` job; a run fetches those jobs in batches and sends them at SUBSCRIBER_MAIL_RATE for at
      // most 50 s, the next run going on. One run at a time on all instances (`singleton`): the pace is one instance's.
      name: "mailing-send",
      label: "Sending mailings to subscribers",
      when: { everySeconds: 5 },
      policy: "singleton",
      expireInSeconds: 120,
      run: () => runMailings(),
    },
    {
      // One subscriber's copy of a mailing: one job a delivery, keyed by its row, written with the rows; no worker of
      // its own (the `mailing-send` run fetches them in batches and beats their heartbeats). pg-boss retries it with the
      // one retry policy and puts it on Failed jobs after the last try.
      name: MAILING_DELIVERY_JOB,
      label: "Mailing to a subscriber",
      describe: async (data) => describeDelivery(jobRowId(data) ?? 0),
      worker: false,
      run: () => deliveryFetchedInBatches(),
    },
    {
      // Subscriber CSV imports (issue 42): the upload only keeps the file; this reads it in chunks of
      // 1,000 rows, writing the progress the screen polls. One run at a time on all instances; a killed
      // run's import resumes at its last chunk. Sends nothing.
      name: "subscriber-import",
      label: "Importing subscribers",
      when: { everySeconds: 5 },
      policy: "singleton",
      expireInSeconds: 30 * 60,
      run: async () => {
        let imports = 0;
        while ((await runNextImport()) !== null) imports++;
        return { imports };
      },
    },
    // WordPress dry runs and imports started on the dashboard (issue 46, wordpress/task.ts): one job a run, sent with its
    // row by the screen; one run at a time on all instances, tried again by pg-boss (the import does what is not done yet).
    wordpressImportJob,
    {
      // Uploaded WordPress exports no longer needed: imported, or a day after a dry run nobody imported; and a job for
      // any run waiting without one (queued by an earlier version).
      name: "wordpress-exports-sweep",
      label: "Removing WordPress exports",
      when: { cron: "37 * * * *" },
      run: async () => ({ ...(await queueStrandedImports()), ...(await sweepStoredExports()) }),
    },
    {
      // Requests for express consent staff asked for (Subscribers: Ask for consent), at most
      // CONSENT_REQUESTS_PER_DAY a firm day; the rest wait for the next day.
      name: "consent-requests",
      label: "Consent requests",
      when: { cron: "* * * * *" },
      run: () => sendConsentRequests(),
    },
    {
      // Each reminder goes within a minute of its time (24 hours and 1 hour before the start).
      name: "event-reminders",
      label: "Event reminders",
      when: { cron: "* * * * *" },
      run: () => sendEventReminders(),
    },
    // "Send certificates" on an event's registrations screen: sent by the button, one job per event at a time
    // (events/certificate-job.ts); never on a schedule.
    certificatesJob,
    {
      // Lists of upcoming events are refreshed within a minute of an event's end (the page cache holds them).
      name: "events-passed",
      label: "Refreshing lists of upcoming events",
      when: { cron: "* * * * *" },
      runAtStart: false,
      run: () => announcePassedEvents(),
    },
    {
      // One e-mail of the Outbox (mail/mail.ts): one job a message, keyed by its id, sent with the row that keeps it;
      // pg-boss retries it with the one retry policy and puts it on Failed jobs after the last try.
      name: MAIL_JOB,
      label: "E-mail",
      describe: describeMailJob,
      expireInSeconds: MAIL_JOB_EXPIRE_SECONDS,
      run: (data, attempt) => runMailJob(data, attempt),
    },
    {
      // Held sign-up e-mails let go as the site-wide hour allows, and a job for any message without one (kept while
      // no job queue ran, or whose job is gone): every minute.
      name: "outbox-release",
      label: "Releasing held e-mail",
      when: { cron: "* * * * *" },
      run: async () => ({ released: await releaseHeldSignUpMail(), queued: await queueStrandedMail() }),
    },
    {
      // Retention: the audit trail (AUDIT_RETENTION_DAYS), sign-in attempts (a day), enquiries
      // (ENQUIRY_RETENTION_DAYS, each purge recorded under "retention") and enquiry-form attempts (a day),
      // e-mailed staff links a week past their expiry; subscriptions never confirmed (30 days) and the
      // consent records of withdrawn or bounced addresses (three years; then only a hash stays); finished subscriber
      // imports, whose refused rows hold addresses (30 days); the 404
      // log's days older than NOT_FOUND_LOG_DAYS.
      name: "retention",
      label: "Retention (removing old records)",
      when: { cron: "17 */6 * * *" },
      run: async () => {
        const env = getEnv();
        const auditRemoved = await sweepAuditTrail(env.AUDIT_RETENTION_DAYS);
        await pruneSignInAttempts();
        const enquiriesRemoved = await purgeExpiredEnquiries(env.ENQUIRY_RETENTION_DAYS, systemActor("retention"));
        const linksRemoved = await sweepStaffTokens();
        const subscribers = await sweepSubscribers();
        const importsRemoved = await sweepImports();
        const notFoundDaysRemoved = await purgeNotFoundLog(env.NOT_FOUND_LOG_DAYS);
        return { auditRemoved, enquiriesRemoved, linksRemoved, notFoundDaysRemoved, importsRemoved, ...subscribers };
      },
    },
    {
      // Event registrants' personal data (issue 45): erased EVENT_REGISTRANT_RETENTION_DAYS after their event
      // ended (two years by default), once a day; the counts by status remain (db/event-registrations.ts).
      name: "event-registrant-erasure",
      label: "Erasing past events' registrants",
      when: { cron: "43 3 * * *" },
      run: async () => ({
        registrantsErased: await eraseExpiredRegistrants(getEnv().EVENT_REGISTRANT_RETENTION_DAYS, systemActor("retention")),
      }),
    },
    {
      // Visit statistics (decision 0023): the raw events written since the last run, rolled up into
      // the hourly and daily tables (Toronto days; idempotent, so a repeat or a catch-up is safe).
      name: "stats-rollup",
      label: "Statistics roll-up",
      when: { cron: "* * * * *" },
      run: () => rollupStats(new Date(), { topValues: getEnv().STATS_TOP_VALUES }),
    },
    {
      // Visit statistics: the day's salts ahead, old salts, raw events after STATS_RAW_DAYS and rollups
      // after STATS_ROLLUP_DAYS (db/stats.ts statsRetention).
      name: "stats-retention",
      label: "Statistics retention",
      when: { cron: "*/15 * * * *" },
      run: () => statsRetention(getEnv().STATS_RAW_DAYS, getEnv().STATS_ROLLUP_DAYS),
    },
  ];
}
