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
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

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
    AOP: text("AOP").array().notNull().default(sql`'{}'::text[]`),
    area_details: text("area_details").array().notNull().default(sql`'{}'::text[]`),
    staff: jsonb("staff").$type<SupportStaff[]>().notNull().default(sql`'[]'::jsonb`),
  },
  (t) => [
    uniqueIndex("team_slug_unique").on(t.slug),
    index("team_full_name_idx").on(sql`lower(${t.full_name})`),
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
    date: text("date").notNull().default(""),
  },
  (t) => [
    uniqueIndex("articles_slug_unique").on(t.slug),
    index("articles_slug_lower_idx").on(sql`lower(${t.slug})`),
    // Ascending indexes: scanned backward they give ORDER BY … DESC (NULLS FIRST, the default),
    // scanned forward the ascending order used for pages in the second half of a list.
    index("articles_created_idx").on(t.created_at, t.id),
    index("articles_category_idx").on(sql`lower(${t.category})`, t.created_at, t.id),
    index("articles_category_priority_idx").on(sql`lower(${t.category})`, t.priority, t.created_at, t.id),
    index("articles_news_idx").on(t.news, t.created_at, t.id),
    index("articles_news_priority_idx").on(t.news, t.priority, t.created_at, t.id),
  ],
);

/**
 * Old URLs after a rename: when a lawyer's name or an article's title changes
 * (and so its slug), a trigger (migration 0001) records old -> new here, and
 * `/lawyer/{old}` or `/post/{old}` answers 301 to the current page. Chains
 * are kept flat (A -> B then B -> C makes A -> C). A target that no longer
 * exists simply finds nothing (404). `kind` is 'lawyer' or 'post'.
 */
export const slugRedirects = pgTable(
  "slug_redirects",
  {
    id: serial("id").primaryKey(),
    kind: text("kind").notNull(),
    old_slug: text("old_slug").notNull(),
    new_slug: text("new_slug").notNull(),
    created_at: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("slug_redirects_kind_old_slug_unique").on(t.kind, t.old_slug)],
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

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
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

export type TeamMemberRow = typeof team.$inferSelect;
export type ArticleRow = typeof articles.$inferSelect;
