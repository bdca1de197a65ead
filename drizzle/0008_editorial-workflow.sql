CREATE TABLE "preview_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"item_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "revisions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "revisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"item_type" text NOT NULL,
	"item_id" integer NOT NULL,
	"version" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_label" text NOT NULL,
	"fields" jsonb NOT NULL
);
--> statement-breakpoint
DROP INDEX "articles_category_idx";--> statement-breakpoint
DROP INDEX "articles_category_priority_idx";--> statement-breakpoint
DROP INDEX "articles_news_idx";--> statement-breakpoint
DROP INDEX "articles_news_priority_idx";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "visible" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "visible_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "hidden_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
-- Articles written before drafts existed were live: they stay published, their date is their publish date.
UPDATE "articles" SET "status" = 'published', "published_at" = "created_at";--> statement-breakpoint
CREATE UNIQUE INDEX "preview_links_hash_unique" ON "preview_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "preview_links_item_idx" ON "preview_links" USING btree ("item_type","item_id");--> statement-breakpoint
CREATE INDEX "revisions_item_idx" ON "revisions" USING btree ("item_type","item_id","id");--> statement-breakpoint
CREATE INDEX "articles_public_idx" ON "articles" USING btree ("published_at","id") WHERE status = 'published' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "articles_scheduled_idx" ON "articles" USING btree ("published_at") WHERE status = 'scheduled';--> statement-breakpoint
CREATE INDEX "team_pending_idx" ON "team" USING btree ("visible_from","hidden_from");--> statement-breakpoint
CREATE INDEX "articles_category_idx" ON "articles" USING btree (lower("category"),"published_at","id") WHERE status = 'published' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "articles_category_priority_idx" ON "articles" USING btree (lower("category"),"priority","published_at","id") WHERE status = 'published' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "articles_news_idx" ON "articles" USING btree ("news","published_at","id") WHERE status = 'published' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "articles_news_priority_idx" ON "articles" USING btree ("news","priority","published_at","id") WHERE status = 'published' and deleted_at is null;