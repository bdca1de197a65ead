/**
 * The database schema, one definition for PGlite and PostgreSQL.
 *
 * `team`, `articles`, `headers` and `hours` keep the table and column names of
 * the original hosted database (SPEC §3) so exported rows load as they are.
 * Added for a real site: `slug` (unique, the page's URL) and `updated_at`.
 * Lists are typed columns: `AOP` and `area_details` are text arrays, `staff`
 * is JSONB whose shape is checked by Zod at the boundary.
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from "drizzle-orm/pg-core";

/**
 * The partial indexes' predicate: the same condition as `articleIsPublic` in
 * visibility.ts, written with bare column names (an index predicate is SQL text).
 */
const PUBLIC_ARTICLE_SQL = sql`status = 'published' and deleted_at is null`;

/**
 * A file sent with an e-mail (mail_outbox.attachments): its text content (an
 * event's .ics), or a binary file as base64 with `encoding: "base64"` (a
 * certificate of attendance's PDF).
 */
export type MailAttachment = { filename: string; contentType: string; content: string; encoding?: "base64" };

/** A bar admission: where and when (issue 33). */
export type BarAdmission = { jurisdiction: string; year: number };
/** A degree: what, where and (optionally) when. */
export type EducationEntry = { degree: string; school: string; year: number | null };

export type SupportStaff = {
  name: string;
  title: string;
  email: string;
  extension: string;
};

export const team = pgTable(
  "team",
  {
    id: serial("id").primaryKey(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    slug: text("slug").notNull(),
    full_name: text("full_name").notNull(),
    title: text("title").notNull(),
    email: text("email").notNull(),
    extension: integer("extension"),
    mobile: text("mobile").notNull().default(""),
    desc: text("desc").notNull().default(""),
    img: text("img").notNull().default(""),
    AOP: text("AOP")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    area_details: text("area_details")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    staff: jsonb("staff")
      .$type<SupportStaff[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Bar admissions, in the order entered (issue 33; app/lib/profile.ts). */
    admissions: jsonb("admissions")
      .$type<BarAdmission[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Languages from the fixed list (BCP 47 tags, app/lib/profile.ts LANGUAGES). */
    languages: text("languages")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Other languages, as typed (names separated by commas). */
    other_languages: text("other_languages").notNull().default(""),
    education: jsonb("education")
      .$type<EducationEntry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** Representative matters: a short list as sanitised HTML (clients named only with their consent). */
    matters: text("matters").notNull().default(""),
    /** Professional memberships, one entry each. */
    memberships: text("memberships")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Law Society of Ontario certified specialist: the area ("" when not certified) and the year certified. */
    specialist_area: text("specialist_area").notNull().default(""),
    specialist_year: integer("specialist_year"),
    /** Shown on the public site (visibility.ts says exactly when a member is public). */
    visible: boolean("visible").notNull().default(true),
    /** A hidden member becomes visible at this moment (the `scheduled-publishing` job); null: no change planned. */
    visible_from: timestamp("visible_from", { withTimezone: true }),
    /** A visible member becomes hidden at this moment (the same job); null: no change planned. */
    hidden_from: timestamp("hidden_from", { withTimezone: true }),
    /** In the Trash since (null: not deleted); removed for good 30 days later. */
    deleted_at: timestamp("deleted_at", { withTimezone: true }),
    /** Raised by every save: an edit made on an older version is refused (two people editing). */
    version: integer("version").notNull().default(1),
  },
  (t) => [
    uniqueIndex("team_slug_unique").on(t.slug),
    index("team_full_name_idx").on(sql`lower(${t.full_name})`),
    index("team_pending_idx").on(t.visible_from, t.hidden_from),
  ],
);

export const articles = pgTable(
  "articles",
  {
    id: serial("id").primaryKey(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    img: text("img").notNull().default(""),
    category: text("category").notNull(),
    news: boolean("news").notNull().default(false),
    priority: boolean("priority").notNull().default(false),
    copy: text("copy").notNull().default(""),
    /** The publish date as the spec shows it ("Monday, March 3, 2025"): set from `published_at` when it goes live. */
    date: text("date").notNull().default(""),
    /** draft, scheduled or published (visibility.ts says exactly when an article is public). */
    status: text("status").notNull().default("draft"),
    /** Published: when it went live (the public lists' order); scheduled: when it will; draft: null. */
    published_at: timestamp("published_at", { withTimezone: true }),
    /** In the Trash since (null: not deleted); removed for good 30 days later. */
    deleted_at: timestamp("deleted_at", { withTimezone: true }),
    /** Raised by every save: an edit made on an older version is refused (two people editing). */
    version: integer("version").notNull().default(1),
    /** A short plain-text summary (cards, meta description, RSS); empty: derived from the body. Weight B in search. */
    summary: text("summary").notNull().default(""),
    /** The <title>/og:title when set (empty: the title). */
    seo_title: text("seo_title").notNull().default(""),
    /** The meta/og description when set (empty: the summary, else derived from the body). */
    seo_description: text("seo_description").notNull().default(""),
    /** The link-preview picture (file name in the articles folder) used instead of `img` when set. */
    social_img: text("social_img").notNull().default(""),
    /** Authors named as text (an imported article's WordPress author who is not on the team); shown when no member is its author. */
    byline: text("byline").notNull().default(""),
  },
  (t) => [
    uniqueIndex("articles_slug_unique").on(t.slug),
    index("articles_slug_lower_idx").on(sql`lower(${t.slug})`),
    // The dashboard's list (every state), newest first.
    index("articles_created_idx").on(t.created_at, t.id),
    // Public lists read only public articles (partial indexes: the predicate is visibility.ts's).
    // Ascending indexes: scanned backward they give ORDER BY … DESC (NULLS FIRST, the default),
    // scanned forward the ascending order used for pages in the second half of a list.
    index("articles_public_idx").on(t.published_at, t.id).where(PUBLIC_ARTICLE_SQL),
    index("articles_category_idx")
      .on(sql`lower(${t.category})`, t.published_at, t.id)
      .where(PUBLIC_ARTICLE_SQL),
    index("articles_category_priority_idx")
      .on(sql`lower(${t.category})`, t.priority, t.published_at, t.id)
      .where(PUBLIC_ARTICLE_SQL),
    index("articles_news_idx").on(t.news, t.published_at, t.id).where(PUBLIC_ARTICLE_SQL),
    index("articles_news_priority_idx").on(t.news, t.priority, t.published_at, t.id).where(PUBLIC_ARTICLE_SQL),
    // The scheduled-publishing job: what falls due.
    index("articles_scheduled_idx")
      .on(t.published_at)
      .where(sql`status = 'scheduled'`),
  ],
);

/**
 * The team members an article names as its authors, in the order chosen.
 * Rows go with the article or the member when either is purged from the
 * Trash; the public sees an author only when visibility.ts allows the member.
 */
export const articleAuthors = pgTable(
  "article_authors",
  {
    article_id: integer("article_id")
      .notNull()
      .references(() => articles.id, { onDelete: "cascade" }),
    member_id: integer("member_id")
      .notNull()
      .references(() => team.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.article_id, t.member_id] }), index("article_authors_member_idx").on(t.member_id, t.article_id)],
);

/**
 * Redirects (issue 46, decision 0025): the one list of old addresses that
 * answer with another. `match` is 'exact' (a path, compared case-insensitively
 * without its trailing slash, and optionally a query that must be part of the
 * request's: `query` holds its parameters sorted, '' for any query) or
 * 'regex' (`source` is a JavaScript regular expression over path and query,
 * `$1`… in the target). `target` is a path on this site, or a full URL on
 * another host only when a person typed it (`origin` 'manual'); empty for 410.
 * `origin`: manual, slug (a rename: articles, team members, events… through
 * `record_path_move`), wordpress (the importer), csv (an imported file),
 * not-found (made from the 404 log). Hits are counted in memory and written
 * every few seconds (app/.server/redirects/engine.ts).
 */
export const redirects = pgTable(
  "redirects",
  {
    id: serial("id").primaryKey(),
    match: text("match").notNull().default("exact"),
    source: text("source").notNull(),
    query: text("query").notNull().default(""),
    target: text("target").notNull().default(""),
    status: integer("status").notNull().default(301),
    enabled: boolean("enabled").notNull().default(true),
    origin: text("origin").notNull().default("manual"),
    note: text("note").notNull().default(""),
    hits: bigint("hits", { mode: "number" }).notNull().default(0),
    last_hit_at: timestamp("last_hit_at", { withTimezone: true }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("redirects_source_unique").on(t.match, t.source, t.query),
    index("redirects_target_idx").on(sql`lower(${t.target})`),
    index("redirects_created_idx").on(t.created_at, t.id),
  ],
);

/**
 * One row (id 1): raised by a trigger on every change to the redirects that
 * matters to answering them (not hit counts), so each instance reloads its
 * in-memory copy only when something changed.
 */
export const redirectsState = pgTable("redirects_state", {
  id: integer("id").primaryKey(),
  version: bigint("version", { mode: "number" }).notNull().default(0),
});

export type RedirectRow = typeof redirects.$inferSelect;

/**
 * The 404 log (issue 46): per Toronto day and path, how often it answered
 * 404, when last, and its most frequent referrer (the site it came from, no
 * more). Bounded as statistics are: at most NOT_FOUND_PATHS_PER_DAY paths a
 * day, the rest counted under one row; crawlers' probes (`/wp-admin`,
 * `.php`, `.env`…) counted under one row a day. Paths of routes that carry a
 * secret (lib/route-patterns.ts) and queries are never stored.
 */
export const notFoundLog = pgTable(
  "not_found_log",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    /** 'path', 'probe' (the day's probes, grouped) or 'other' (paths past the day's limit). */
    kind: text("kind").notNull().default("path"),
    count: integer("count").notNull().default(0),
    last_at: timestamp("last_at", { withTimezone: true }).notNull(),
    referrer: text("referrer").notNull().default(""),
    referrer_count: integer("referrer_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] }), index("not_found_log_path_idx").on(t.path)],
);

/** Paths of the 404 log that staff marked as not worth a redirect: left out of the screen. */
export const notFoundIgnored = pgTable("not_found_ignored", {
  path: text("path").primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  by: text("by").notNull().default(""),
});

/**
 * What a WordPress import made of each item (issue 46): the site it came
 * from (its base URL), the item's WordPress id and kind, the article it
 * became (null: skipped, or an attachment), a hash of what was read (a
 * second import of the same item changes nothing) and the article's version
 * after the import (a newer export updates an article only if nobody edited
 * it here since).
 */
export const wordpressItems = pgTable(
  "wordpress_items",
  {
    site: text("site").notNull(),
    wp_id: integer("wp_id").notNull(),
    kind: text("kind").notNull(),
    article_id: integer("article_id").references(() => articles.id, { onDelete: "set null" }),
    source_hash: text("source_hash").notNull(),
    article_version: integer("article_version"),
    imported_at: timestamp("imported_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.site, t.wp_id] }), index("wordpress_items_article_idx").on(t.article_id)],
);

/**
 * Files downloaded from the old site, once each: the old URL (without a
 * WordPress size suffix), the address it is served at here
 * (`/images/articles/body-….jpg` or `/files/….pdf`), and a picture's size.
 */
export const wordpressFiles = pgTable("wordpress_files", {
  source_url: text("source_url").primaryKey(),
  url: text("url").notNull(),
  kind: text("kind").notNull(),
  width: integer("width"),
  height: integer("height"),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Dry runs and imports of WordPress exports started from the dashboard (issue 46), run by the
 * `wordpress-import` job of the job queue (app/.server/wordpress/task.ts): the uploaded export's key in
 * the site's storage (null once removed), the choices, the state and progress the screen reads from any
 * instance, and the report.
 */
export const wordpressImports = pgTable(
  "wordpress_imports",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** queued, running, done, failed. */
    status: text("status").notNull().default("queued"),
    dry_run: boolean("dry_run").notNull(),
    file_name: text("file_name").notNull().default(""),
    /** `imports/….xml` in the site's storage; null once the stored export is removed. */
    upload: text("upload"),
    /** pages, defaultCategory, categoryMap. */
    choices: jsonb("choices").$type<Record<string, unknown>>().notNull(),
    progress: jsonb("progress")
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    report: jsonb("report").$type<Record<string, unknown>>(),
    error: text("error"),
    created_by: text("created_by").notNull().default(""),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    started_at: timestamp("started_at", { withTimezone: true }),
    finished_at: timestamp("finished_at", { withTimezone: true }),
  },
  (t) => [index("wordpress_imports_status_idx").on(t.status, t.id), index("wordpress_imports_upload_idx").on(t.upload)],
);

export const headers = pgTable("headers", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  value: text("value").notNull(),
  header_text: text("header_text").notNull().default(""),
  updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const hours = pgTable("hours", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  start_time: text("start_time").notNull().default("9:00"),
  end_time: text("end_time").notNull().default("5:00"),
  updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Sign-in attempts, kept in the database so limits hold across restarts and processes. */
export const loginAttempts = pgTable(
  "login_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    email: text("email").notNull(),
    ip: text("ip").notNull(),
    success: boolean("success").notNull(),
  },
  (t) => [index("login_attempts_email_idx").on(t.email, t.at), index("login_attempts_ip_idx").on(t.ip, t.at)],
);

// ---- better-auth tables (staff accounts and sessions) ----

/**
 * Staff accounts. `role` is owner, admin, editor or events (app/.server/auth/roles.ts is the
 * one place that says what each may do); `status` is invited, active or
 * deactivated (only active accounts have sessions).
 */
export type StaffStatus = "invited" | "active" | "deactivated";
export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  role: text("role").notNull().default("editor"),
  status: text("status").notNull().default("active"),
  lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  /** Kept by better-auth's two-factor plugin: true once TOTP is set up and confirmed. */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  },
  (t) => [index("session_user_idx").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("account_user_idx").on(t.userId)],
);

export const verification = pgTable("verification", {
  id: text("id").primaryKey(),
  identifier: text("identifier").notNull(),
  value: text("value").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * TOTP two-factor sign-in (better-auth's two-factor plugin): the secret and
 * the recovery codes, both encrypted with the auth secret; `verified` turns
 * true when the person confirms the set-up with a code. Wrong codes at
 * sign-in are counted per account (`failed_verification_count`,
 * `locked_until`), besides the sign-in limits of login-limits.ts.
 */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (t) => [index("two_factor_user_idx").on(t.userId), index("two_factor_secret_idx").on(t.secret)],
);

/** Passkeys (WebAuthn credentials) of staff accounts (better-auth's passkey plugin). */
export const passkey = pgTable(
  "passkey",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    createdAt: timestamp("created_at", { withTimezone: true }).defaultNow(),
    aaguid: text("aaguid"),
  },
  (t) => [index("passkey_user_idx").on(t.userId), uniqueIndex("passkey_credential_unique").on(t.credentialID)],
);

/**
 * Single-use links sent by e-mail: staff invitations (72 hours) and password
 * resets (1 hour). Only the SHA-256 of the token is stored; a row is deleted
 * when used, withdrawn or replaced, so an expired link can still be told
 * apart from a used or forged one until the retention sweep removes it.
 */
export const staffTokens = pgTable(
  "staff_tokens",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    token_hash: text("token_hash").notNull(),
    user_id: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex("staff_tokens_hash_unique").on(t.token_hash), index("staff_tokens_user_idx").on(t.user_id, t.kind)],
);

/** Site-wide settings changed by owners (e.g. two-factor required for everyone): one row per key. */
export const siteSettings = pgTable("site_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").$type<unknown>().notNull(),
  updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The audit trail: one row per write, appended in the same transaction as the
 * change (app/.server/db/audit.ts). Append-only: a trigger (migration 0004)
 * refuses UPDATE, and DELETE except in the retention sweep. `actor_id` has no
 * foreign key on purpose: entries outlive the accounts they name.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor_id: text("actor_id"),
    actor_label: text("actor_label").notNull(),
    ip: text("ip").notNull().default(""),
    action: text("action").notNull(),
    item_type: text("item_type").notNull(),
    item_id: text("item_id"),
    item_label: text("item_label").notNull().default(""),
    changes: jsonb("changes").$type<Record<string, unknown>>(),
  },
  (t) => [
    index("audit_log_at_idx").on(t.at, t.id),
    index("audit_log_actor_idx").on(t.actor_id, t.at),
    index("audit_log_item_idx").on(t.item_type, t.item_id, t.at),
    index("audit_log_action_idx").on(t.action, t.at),
  ],
);

/**
 * Every e-mail the site sends, kept before it is sent (app/.server/mail/mail.ts).
 * status: outbox (no SMTP configured: kept for owners to read), sending,
 * queued (its `mail-send` job sends it), held, sent, failed (retried by its `mail-send` job until `attempts` reaches
 * the limit, jobs/retry.ts; refused for good: not retried).
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    kind: text("kind").notNull(),
    to_address: text("to_address").notNull(),
    subject: text("subject").notNull(),
    text_body: text("text_body").notNull(),
    html_body: text("html_body").notNull(),
    /** Holds a sign-in link: the body is removed once an SMTP server accepted it. */
    sensitive: boolean("sensitive").notNull().default(false),
    /** Files sent with the message (an event's calendar file, a certificate's PDF): name, type and content (text, or base64). */
    attachments: jsonb("attachments")
      .$type<MailAttachment[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    status: text("status").notNull(),
    attempts: integer("attempts").notNull().default(0),
    last_error: text("last_error"),
    last_attempt_at: timestamp("last_attempt_at", { withTimezone: true }),
    next_attempt_at: timestamp("next_attempt_at", { withTimezone: true }),
    sent_at: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("mail_outbox_created_idx").on(t.created_at, t.id), index("mail_outbox_retry_idx").on(t.status, t.next_attempt_at)],
);

export type TeamMemberRow = typeof team.$inferSelect;
export type ArticleRow = typeof articles.$inferSelect;

/**
 * Enquiries sent through the public form (/contact and the home page's
 * contact section). state: new, in_progress, closed. Deleted automatically
 * after ENQUIRY_RETENTION_DAYS by the `retention` job, or at once by staff on
 * request (PIPEDA). No IP address is kept with an enquiry.
 */
export const enquiries = pgTable(
  "enquiries",
  {
    id: serial("id").primaryKey(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    phone: text("phone").notNull().default(""),
    practice_area: text("practice_area").notNull(),
    message: text("message").notNull(),
    /** When the sender ticked the consent box (the form cannot be sent without it). */
    consented_at: timestamp("consented_at", { withTimezone: true }).notNull().defaultNow(),
    state: text("state").notNull().default("new"),
    staff_note: text("staff_note").notNull().default(""),
    /** Who last changed its state or note (staff account id and e-mail at the time). */
    handled_by_id: text("handled_by_id"),
    handled_by: text("handled_by"),
    handled_at: timestamp("handled_at", { withTimezone: true }),
  },
  (t) => [index("enquiries_created_idx").on(t.created_at, t.id), index("enquiries_state_idx").on(t.state, t.created_at, t.id)],
);

/**
 * Form submissions per sender address, for the per-address limit of the
 * enquiry form. `address` is a keyed hash of the IP address (never the
 * address itself); rows older than a day are removed by the retention job.
 */
export const enquiryAttempts = pgTable(
  "enquiry_attempts",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    address: text("address").notNull(),
  },
  (t) => [index("enquiry_attempts_address_idx").on(t.address, t.at)],
);

export type EnquiryRow = typeof enquiries.$inferSelect;

/**
 * Every save of an article or team member keeps a copy of all its fields
 * (who, when): the History screen lists them, shows what changed and can
 * restore one (a new save, so a new revision). The last 50 per item are kept.
 * No foreign key: an item's revisions go with it when it is purged from the Trash.
 */
export const revisions = pgTable(
  "revisions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    item_type: text("item_type").notNull(),
    item_id: integer("item_id").notNull(),
    /** The item's `version` this save made. */
    version: integer("version").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    actor_id: text("actor_id"),
    actor_label: text("actor_label").notNull(),
    fields: jsonb("fields").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index("revisions_item_idx").on(t.item_type, t.item_id, t.id)],
);

/**
 * Share-a-preview links: a partner opens a draft without an account. Only
 * the SHA-256 of the token is stored; a link works until `expires_at`
 * (7 days) unless `revoked_at` is set, and shows the latest saved version.
 */
export const previewLinks = pgTable(
  "preview_links",
  {
    id: serial("id").primaryKey(),
    token_hash: text("token_hash").notNull(),
    item_type: text("item_type").notNull(),
    item_id: integer("item_id").notNull(),
    created_by: text("created_by").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    revoked_at: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("preview_links_hash_unique").on(t.token_hash), index("preview_links_item_idx").on(t.item_type, t.item_id)],
);

export type RevisionRow = typeof revisions.$inferSelect;

/**
 * Drafts kept while writing (issue 12): the article form's autosaved working
 * copy, one per person and article (`article_id` null: the new-article
 * form, so autosave never creates an article). The form's fields as sent
 * (`values`); never shown to the public and never changes the article: it
 * is offered back ("Restored your unsaved changes from …") when the person
 * opens the form again, and removed by their next successful save, by
 * Discard, with the article (cascade) or the account, or after 30 days
 * (the trash-sweep job). Body pictures it names count as used (picture-sweep.ts).
 */
export const articleAutosaves = pgTable(
  "article_autosaves",
  {
    id: serial("id").primaryKey(),
    user_id: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    article_id: integer("article_id").references(() => articles.id, { onDelete: "cascade" }),
    /** The article's version the form was opened on: a save of the restored text is checked against it. */
    base_version: integer("base_version"),
    values: jsonb("values").$type<Record<string, string | string[]>>().notNull(),
    saved_at: timestamp("saved_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("article_autosaves_user_article_unique").on(t.user_id, t.article_id).nullsNotDistinct(),
    index("article_autosaves_article_idx").on(t.article_id),
  ],
);

export type ArticleAutosaveRow = typeof articleAutosaves.$inferSelect;

/**
 * Visit statistics (issue 32, decision 0023), kept by the site itself with no
 * cookie and no outside service.
 *
 * `stats_salts`: one secret a day (Toronto date), shared by every instance;
 * a visitor is a hash of that day's salt, the site, the IP address and the
 * user agent (neither of which is stored). Deleted two days after its day,
 * so yesterday's visitor can no longer be recognised.
 */
export const statsSalts = pgTable("stats_salts", {
  day: date("day", { mode: "string" }).primaryKey(),
  salt: text("salt").notNull(),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Raw events, written in batches by app/.server/statistics/stats-ingest.ts, rolled up
 * into the tables below and deleted after STATS_RAW_DAYS. `kind`: 'view' (a
 * page shown), 'leave' (time on page, `amount` ms), 'outbound' (`detail`:
 * the tel:/mailto: address or the vCard/PDF path), 'conversion' (`detail`:
 * 'enquiry' or 'subscription'). A view of /search carries its term in
 * `detail` and the number of results in `amount`. `visitor` is the day's
 * hash (48 bits), `entry` marks the first page of a visit (arrived from
 * another site or none), `referrer` is a domain or a search engine's name.
 */
export const statsEvents = pgTable(
  "stats_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true }).notNull(),
    kind: text("kind").notNull(),
    visitor: bigint("visitor", { mode: "number" }).notNull(),
    path: text("path").notNull(),
    entry: boolean("entry").notNull().default(false),
    referrer: text("referrer"),
    campaign: text("campaign"),
    device: text("device"),
    browser: text("browser"),
    detail: text("detail"),
    amount: integer("amount"),
  },
  (t) => [
    index("stats_events_at_idx").on(t.at),
    // A conversion's visit: the visitor's latest entry page before it (the rollup's lookup).
    index("stats_events_entry_idx")
      .on(t.visitor, t.at)
      .where(sql`kind = 'view' and entry`),
    // A visitor's pages not found count once a day (the visitor's number is made with the day's salt), on every instance.
    uniqueIndex("stats_events_not_found_idx")
      .on(t.visitor)
      .where(sql`kind = 'view' and path = '(not found)'`),
  ],
);

/** Site totals per hour (the hour's start, UTC): no personal data; kept. */
export const statsHourly = pgTable("stats_hourly", {
  hour: timestamp("hour", { withTimezone: true }).primaryKey(),
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
  visits: integer("visits").notNull(),
});

/** Site totals per Toronto day: no personal data; kept. `time_ms`/`time_count`: time on page. */
export const statsDaily = pgTable("stats_daily", {
  day: date("day", { mode: "string" }).primaryKey(),
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
  visits: integer("visits").notNull(),
  time_ms: bigint("time_ms", { mode: "number" }).notNull(),
  time_count: integer("time_count").notNull(),
});

/**
 * Per Toronto day, one row per dimension and value: 'page', 'entry',
 * 'referrer', 'campaign', 'device', 'browser', 'search', 'search-none',
 * 'outbound', 'conversion:enquiry', 'conversion:subscription' (`key`: the
 * visit's entry page, '' when unknown). No personal data; kept.
 */
export const statsDailyItems = pgTable(
  "stats_daily_items",
  {
    day: date("day", { mode: "string" }).notNull(),
    dimension: text("dimension").notNull(),
    key: text("key").notNull(),
    count: integer("count").notNull(),
    visitors: integer("visitors").notNull().default(0),
    time_ms: bigint("time_ms", { mode: "number" }).notNull().default(0),
    time_count: integer("time_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.dimension, t.day, t.key] }), index("stats_daily_items_day_idx").on(t.day)],
);

/** What the rollup must look at again: the earliest event written since its last run (one row, id 1). */
export const statsRollupState = pgTable("stats_rollup_state", {
  id: integer("id").primaryKey(),
  dirty_from: timestamp("dirty_from", { withTimezone: true }),
  rolled_at: timestamp("rolled_at", { withTimezone: true }),
});

/**
 * Where the `events-passed` look (jobs.ts) stopped last, whichever process made it (one row, id 1): the next look,
 * in any process, begins there, so a process's first look after a start or a deploy announces only what no look
 * covered, and the first start marks its demo events as covered before it serves a page.
 */
export const eventsLookState = pgTable("events_look_state", {
  id: integer("id").primaryKey(),
  checked_until: timestamp("checked_until", { withTimezone: true }).notNull(),
});

/**
 * Insight subscriptions (issue 31, CASL). One row per address (lower-cased):
 * status pending → confirmed (double opt-in) → unsubscribed, or bounced. A
 * withdrawn address stays, marked, so it is never mailed again; an owner's
 * erasure deletes the row (and its history) and leaves only a hash in
 * `subscriber_suppressions`.
 */
export const subscribers = pgTable(
  "subscribers",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    email: text("email").notNull(),
    status: text("status").notNull().default("pending"),
    topics: text("topics")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** How consent was asked: 'web' (the form) or 'import' (a staff CSV import; still confirmed by the person). */
    source: text("source").notNull().default("web"),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    confirmed_at: timestamp("confirmed_at", { withTimezone: true }),
    withdrawn_at: timestamp("withdrawn_at", { withTimezone: true }),
    /** The last e-mail a sign-up sent: a confirmation, or a confirmed subscriber's preferences link (at most one an hour per address). */
    confirmation_sent_at: timestamp("confirmation_sent_at", { withTimezone: true }),
    /**
     * The consent the site mails on (issue 42, CASL): 'express' (the web form's double opt-in, or an
     * import's evidence of express consent) or 'implied' (an import's business relationship or enquiry),
     * which ends at `consent_expires_at`: never mailed after it.
     */
    consent_kind: text("consent_kind").notNull().default("express"),
    consent_expires_at: timestamp("consent_expires_at", { withTimezone: true }),
    /** A request for express consent (Subscribers: "Ask for consent") waiting for the day's allowance. */
    consent_request_queued_at: timestamp("consent_request_queued_at", { withTimezone: true }),
    /** When that request was sent (asked once at most). */
    consent_requested_at: timestamp("consent_requested_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("subscribers_email_idx").on(t.email), index("subscribers_status_idx").on(t.status, t.id)],
);

/**
 * The proof of consent, append-only: every request, confirmation, change of
 * topics, withdrawal and bounce with its time, the exact wording shown and
 * its version, and the form's URL. Deleted only with its subscriber (erasure).
 */
export const subscriberConsents = pgTable(
  "subscriber_consents",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    subscriber_id: bigint("subscriber_id", { mode: "number" })
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    event: text("event").notNull(),
    topics: text("topics")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    wording: text("wording").notNull().default(""),
    wording_version: text("wording_version").notNull().default(""),
    form_url: text("form_url").notNull().default(""),
    source: text("source").notNull().default("web"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** An import's evidence (issue 42): 'express' or 'implied', the date consent was given or the relationship began, and for implied consent its basis and end. */
    consent_kind: text("consent_kind").notNull().default(""),
    consent_date: timestamp("consent_date", { withTimezone: true }),
    implied_basis: text("implied_basis").notNull().default(""),
    expires_at: timestamp("expires_at", { withTimezone: true }),
  },
  (t) => [index("subscriber_consents_subscriber_idx").on(t.subscriber_id, t.at)],
);

/**
 * A subscriber CSV import (issue 42): the upload only keeps the file here
 * (any instance's job can read it) and answers; the `subscriber-import` job
 * reads it in chunks, writing its progress (rows read, accepted, refused)
 * and each refused row's reason as it goes. The file is dropped when done.
 * status: queued, running, done, failed.
 */
export const subscriberImports = pgTable("subscriber_imports", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  status: text("status").notNull().default("queued"),
  file_name: text("file_name").notNull().default(""),
  csv: text("csv").notNull().default(""),
  topics: text("topics")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  created_by: text("created_by").notNull().default(""),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  started_at: timestamp("started_at", { withTimezone: true }),
  finished_at: timestamp("finished_at", { withTimezone: true }),
  rows_total: integer("rows_total").notNull().default(0),
  rows_read: integer("rows_read").notNull().default(0),
  accepted: integer("accepted").notNull().default(0),
  refused: integer("refused").notNull().default(0),
  /** Each refused row: its number in the file, the address as written, the reason in words. */
  refusals: jsonb("refusals")
    .$type<{ row: number; email: string; reason: string }[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  error: text("error").notNull().default(""),
});

/** Erased addresses: a SHA-256 of the lower-cased address, nothing else. Never mailed, never imported again. */
export const subscriberSuppressions = pgTable("subscriber_suppressions", {
  address_hash: text("address_hash").primaryKey(),
  at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
});

/** Confirmation links: a SHA-256 of the token only, valid 48 hours, used once. */
export const subscriberTokens = pgTable(
  "subscriber_tokens",
  {
    token_hash: text("token_hash").primaryKey(),
    subscriber_id: bigint("subscriber_id", { mode: "number" })
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    /** The topics asked for with this request: confirmed as they are. */
    topics: text("topics")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expires_at: timestamp("expires_at", { withTimezone: true }).notNull(),
    used_at: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("subscriber_tokens_subscriber_idx").on(t.subscriber_id)],
);

/** One mailing per article at most (the unique article_id): "Send to subscribers". */
export const mailings = pgTable("mailings", {
  id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
  article_id: integer("article_id").notNull().unique(),
  topics: text("topics")
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  /** scheduled (waits for the article to be public), queued (recipients chosen), done. */
  status: text("status").notNull().default("scheduled"),
  created_by: text("created_by").notNull().default(""),
  created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  queued_at: timestamp("queued_at", { withTimezone: true }),
  finished_at: timestamp("finished_at", { withTimezone: true }),
});

/**
 * One row per recipient of a mailing (unique: a person gets an article at
 * most once), with its own `mailing-delivery` job (pg-boss) that tries it.
 * status: queued, sending, sent, failed (gave up), bounced, skipped.
 */
export const mailingDeliveries = pgTable(
  "mailing_deliveries",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    mailing_id: bigint("mailing_id", { mode: "number" })
      .notNull()
      .references(() => mailings.id, { onDelete: "cascade" }),
    subscriber_id: bigint("subscriber_id", { mode: "number" })
      .notNull()
      .references(() => subscribers.id, { onDelete: "cascade" }),
    status: text("status").notNull().default("queued"),
    // When its sender took it for the SMTP exchange (`sending`): a job that finds it taken less than
    // SENDING_FOR_MS ago leaves it to that sender (subscriptions/mailing-sender.ts). Its tries are its
    // `mailing-delivery` job's (pg-boss, decision 0026).
    claimed_at: timestamp("claimed_at", { withTimezone: true }),
    sent_at: timestamp("sent_at", { withTimezone: true }),
    last_error: text("last_error"),
  },
  (t) => [unique("mailing_deliveries_once").on(t.mailing_id, t.subscriber_id)],
);

export type SubscriberRow = typeof subscribers.$inferSelect;
export type SubscriberConsentRow = typeof subscriberConsents.$inferSelect;

/**
 * Events and webinars (issue 45): seminars with CPD hours, registration and
 * calendar files. The editorial state (`status`, `published_at`,
 * `deleted_at`, `version`) works as the articles' does (visibility.ts
 * `eventIsPublic`). `event_status` is what schema.org and the calendar files
 * say of the event itself: scheduled, rescheduled (moved: the start it had
 * is kept in `previous_starts_at`) or cancelled. Every change of time or
 * cancellation raises `sequence` (RFC 5545 SEQUENCE; the UID stays).
 */
export const events = pgTable(
  "events",
  {
    id: serial("id").primaryKey(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    summary: text("summary").notNull().default(""),
    /** The body: sanitised HTML, as an article's. */
    copy: text("copy").notNull().default(""),
    /** draft, scheduled or published (as articles). */
    status: text("status").notNull().default("draft"),
    published_at: timestamp("published_at", { withTimezone: true }),
    deleted_at: timestamp("deleted_at", { withTimezone: true }),
    version: integer("version").notNull().default(1),
    /** scheduled, rescheduled or cancelled (schema.org eventStatus). */
    event_status: text("event_status").notNull().default("scheduled"),
    starts_at: timestamp("starts_at", { withTimezone: true }).notNull(),
    ends_at: timestamp("ends_at", { withTimezone: true }).notNull(),
    /** A moved event's start before it moved. */
    previous_starts_at: timestamp("previous_starts_at", { withTimezone: true }),
    /** RFC 5545 SEQUENCE: raised by every change of time and by a cancellation. */
    sequence: integer("sequence").notNull().default(0),
    /** in-person, webinar or hybrid. */
    format: text("format").notNull(),
    /** A practice area (lib/practice.ts PRACTICE_AREAS). */
    practice_area: text("practice_area").notNull(),
    venue_name: text("venue_name").notNull().default(""),
    venue_street: text("venue_street").notNull().default(""),
    venue_city: text("venue_city").notNull().default(""),
    venue_region: text("venue_region").notNull().default(""),
    venue_postal_code: text("venue_postal_code").notNull().default(""),
    /** The webinar's joining link: sent to registered attendees only, never on a public page. */
    webinar_url: text("webinar_url").notNull().default(""),
    /** Places (null: no limit). */
    capacity: integer("capacity"),
    /** Registration closes at this moment (null: at the start). */
    registration_closes_at: timestamp("registration_closes_at", { withTimezone: true }),
    /** CPD minutes by kind (LSO): Substantive and Professionalism. */
    cpd_substantive_minutes: integer("cpd_substantive_minutes").notNull().default(0),
    cpd_professionalism_minutes: integer("cpd_professionalism_minutes").notNull().default(0),
    /** The LSO's accreditation of the Professionalism hours: both recorded before they are advertised. */
    accreditation_number: text("accreditation_number").notNull().default(""),
    accreditation_date: date("accreditation_date", { mode: "string" }),
    /** After the event: the recording (a link, or the path of an uploaded file). */
    recording_url: text("recording_url").notNull().default(""),
    /** An uploaded recording's captions (WebVTT, `recordings/{uuid}.vtt`; '' for none): its track, and the page's transcript. */
    recording_captions: text("recording_captions").notNull().default(""),
  },
  (t) => [
    uniqueIndex("events_slug_unique").on(t.slug),
    index("events_slug_lower_idx").on(sql`lower(${t.slug})`),
    index("events_public_idx")
      .on(t.starts_at, t.id)
      .where(sql`status = 'published' and deleted_at is null`),
    index("events_created_idx").on(t.created_at, t.id),
  ],
);

/** An event's speakers in order: a team member (linked to the profile) or a guest (name and organisation). */
export const eventSpeakers = pgTable(
  "event_speakers",
  {
    id: serial("id").primaryKey(),
    event_id: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    position: integer("position").notNull().default(0),
    member_id: integer("member_id").references(() => team.id, { onDelete: "cascade" }),
    guest_name: text("guest_name").notNull().default(""),
    guest_organisation: text("guest_organisation").notNull().default(""),
  },
  (t) => [index("event_speakers_event_idx").on(t.event_id, t.position), index("event_speakers_member_idx").on(t.member_id)],
);

/**
 * Registrations: one per event and address (lower-cased). status:
 * registered, waiting (the waiting list, first come first served by `id`),
 * cancelled or attended. Only a SHA-256 of the cancel link's token is kept.
 * The reminders' columns say which reminder went (each once). An erased
 * registration keeps its status (the counts) and nothing about the person.
 */
export const eventRegistrations = pgTable(
  "event_registrations",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    event_id: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    organisation: text("organisation").notNull().default(""),
    job_title: text("job_title").notNull().default(""),
    accessibility_needs: text("accessibility_needs").notNull().default(""),
    /** The SHA-256 of a cancel link sent before links were signed (still honoured); null for a newer registration. */
    cancel_token_hash: text("cancel_token_hash"),
    /**
     * The random part of this registration's cancel link (events/cancel-link.ts: the link is the id and an
     * HMAC of it with this nonce, so every e-mail carries the same link). Renewed when a cancelled
     * registration is taken up again or erased: the earlier links stop working.
     */
    cancel_nonce: text("cancel_nonce")
      .notNull()
      .default(sql`gen_random_uuid()::text`),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updated_at: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    cancelled_at: timestamp("cancelled_at", { withTimezone: true }),
    promoted_at: timestamp("promoted_at", { withTimezone: true }),
    reminded_24h_at: timestamp("reminded_24h_at", { withTimezone: true }),
    reminded_1h_at: timestamp("reminded_1h_at", { withTimezone: true }),
    /** When staff marked the person as attended (status "attended"); cleared by an undo. */
    attended_at: timestamp("attended_at", { withTimezone: true }),
    /** When the certificate of attendance was e-mailed (once each). */
    certificate_sent_at: timestamp("certificate_sent_at", { withTimezone: true }),
    /** When the personal data were erased (EVENT_REGISTRANT_RETENTION_DAYS after the event): name, e-mail and the rest blanked; the status stays for the counts. */
    erased_at: timestamp("erased_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("event_registrations_once")
      .on(t.event_id, t.email)
      .where(sql`erased_at is null`),
    uniqueIndex("event_registrations_token_unique").on(t.cancel_token_hash),
    index("event_registrations_status_idx").on(t.event_id, t.status, t.id),
  ],
);

export type EventRow = typeof events.$inferSelect;
export type EventSpeakerRow = typeof eventSpeakers.$inferSelect;
export type EventRegistrationRow = typeof eventRegistrations.$inferSelect;
