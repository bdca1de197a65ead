CREATE TABLE "background_tasks" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "background_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"input" jsonb NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"result" jsonb,
	"error" text,
	"created_by" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "not_found_ignored" (
	"path" text PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"by" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "not_found_log" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"kind" text DEFAULT 'path' NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	"referrer" text DEFAULT '' NOT NULL,
	"referrer_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "not_found_log_day_path_pk" PRIMARY KEY("day","path")
);
--> statement-breakpoint
CREATE TABLE "redirects" (
	"id" serial PRIMARY KEY NOT NULL,
	"match" text DEFAULT 'exact' NOT NULL,
	"source" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"target" text DEFAULT '' NOT NULL,
	"status" integer DEFAULT 301 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"origin" text DEFAULT 'manual' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"hits" bigint DEFAULT 0 NOT NULL,
	"last_hit_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "redirects_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wordpress_files" (
	"source_url" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"kind" text NOT NULL,
	"width" integer,
	"height" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wordpress_items" (
	"site" text NOT NULL,
	"wp_id" integer NOT NULL,
	"kind" text NOT NULL,
	"article_id" integer,
	"source_hash" text NOT NULL,
	"article_version" integer,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wordpress_items_site_wp_id_pk" PRIMARY KEY("site","wp_id")
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "byline" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "wordpress_items" ADD CONSTRAINT "wordpress_items_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "background_tasks_kind_idx" ON "background_tasks" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "not_found_log_path_idx" ON "not_found_log" USING btree ("path");--> statement-breakpoint
CREATE UNIQUE INDEX "redirects_source_unique" ON "redirects" USING btree ("match","source","query");--> statement-breakpoint
CREATE INDEX "redirects_target_idx" ON "redirects" USING btree (lower("target"));--> statement-breakpoint
CREATE INDEX "redirects_created_idx" ON "redirects" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "wordpress_items_article_idx" ON "wordpress_items" USING btree ("article_id");