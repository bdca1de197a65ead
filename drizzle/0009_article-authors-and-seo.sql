CREATE TABLE "article_authors" (
	"article_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "article_authors_article_id_member_id_pk" PRIMARY KEY("article_id","member_id")
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "summary" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "seo_title" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "seo_description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "social_img" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "article_authors" ADD CONSTRAINT "article_authors_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_authors" ADD CONSTRAINT "article_authors_member_id_team_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_authors_member_idx" ON "article_authors" USING btree ("member_id","article_id");--> statement-breakpoint
-- Site search (decision 0013, migration 0007): the article vector's B slot, empty
-- until now, holds the summary (title A > summary B > body C). A generated column's
-- expression cannot be altered: the column and its index are made again.
DROP INDEX IF EXISTS "articles_search_idx";--> statement-breakpoint
ALTER TABLE "articles" DROP COLUMN IF EXISTS "search_vector";--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  search_document("title", "summary", search_plain_text("copy"))
) STORED, ALTER COLUMN "search_vector" SET STORAGE EXTERNAL;--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search_vector");
