CREATE TABLE "slug_redirects" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"old_slug" text NOT NULL,
	"new_slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "slug_redirects_kind_old_slug_unique" ON "slug_redirects" USING btree ("kind","old_slug");--> statement-breakpoint
CREATE INDEX "articles_slug_lower_idx" ON "articles" USING btree (lower("slug"));--> statement-breakpoint
-- Written by hand: a rename of a lawyer or an article keeps its old URL working (301).
CREATE OR REPLACE FUNCTION "record_slug_redirect"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text := CASE WHEN TG_TABLE_NAME = 'team' THEN 'lawyer' ELSE 'post' END;
BEGIN
  IF NEW.slug IS DISTINCT FROM OLD.slug THEN
    DELETE FROM "slug_redirects" WHERE "kind" = k AND "old_slug" = NEW.slug;
    UPDATE "slug_redirects" SET "new_slug" = NEW.slug WHERE "kind" = k AND "new_slug" = OLD.slug;
    INSERT INTO "slug_redirects" ("kind", "old_slug", "new_slug") VALUES (k, OLD.slug, NEW.slug)
      ON CONFLICT ("kind", "old_slug") DO UPDATE SET "new_slug" = EXCLUDED."new_slug", "created_at" = now();
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "team_slug_redirect" AFTER UPDATE OF "slug" ON "team" FOR EACH ROW EXECUTE FUNCTION "record_slug_redirect"();
--> statement-breakpoint
CREATE TRIGGER "articles_slug_redirect" AFTER UPDATE OF "slug" ON "articles" FOR EACH ROW EXECUTE FUNCTION "record_slug_redirect"();
