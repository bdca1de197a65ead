-- Written by hand (issue 46, decision 0025): one redirect mechanism. A page that moves (an article's or a
-- team member's slug changes; an events module calls the same function) adds an exact redirect from its old
-- path to its new one, keeps older redirects to it one hop, and stops any rule from hiding the new path.
-- Paths are compared lower-cased without a trailing slash, as app/.server/redirects/paths.ts does.
CREATE OR REPLACE FUNCTION "record_path_move"(old_path text, new_path text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  o text := lower(CASE WHEN length(old_path) > 1 THEN rtrim(old_path, '/') ELSE old_path END);
  n text := lower(CASE WHEN length(new_path) > 1 THEN rtrim(new_path, '/') ELSE new_path END);
BEGIN
  IF o = n THEN
    RETURN;
  END IF;
  DELETE FROM "redirects" WHERE "match" = 'exact' AND "source" = n AND "query" = '';
  UPDATE "redirects" SET "target" = new_path, "updated_at" = now()
    WHERE lower("target") = o AND "match" = 'exact' AND "status" <> 410;
  INSERT INTO "redirects" ("match", "source", "query", "target", "status", "origin")
    VALUES ('exact', o, '', new_path, 301, 'slug')
    ON CONFLICT ("match", "source", "query") DO UPDATE
      SET "target" = EXCLUDED."target", "status" = 301, "enabled" = true, "updated_at" = now();
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "record_slug_redirect"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prefix text := CASE WHEN TG_TABLE_NAME = 'team' THEN '/lawyer/' ELSE '/post/' END;
BEGIN
  IF NEW.slug IS DISTINCT FROM OLD.slug THEN
    PERFORM "record_path_move"(prefix || OLD.slug, prefix || NEW.slug);
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- Every instance keeps the redirects in memory and reloads them when this number moves (not for hit counts).
CREATE OR REPLACE FUNCTION "bump_redirects_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "redirects_state" ("id", "version") VALUES (1, 1)
    ON CONFLICT ("id") DO UPDATE SET "version" = "redirects_state"."version" + 1;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "redirects_changed" AFTER INSERT OR DELETE OR UPDATE OF "match", "source", "query", "target", "status", "enabled"
  ON "redirects" FOR EACH STATEMENT EXECUTE FUNCTION "bump_redirects_version"();
--> statement-breakpoint
CREATE TRIGGER "redirects_truncated" AFTER TRUNCATE ON "redirects" FOR EACH STATEMENT EXECUTE FUNCTION "bump_redirects_version"();
--> statement-breakpoint
INSERT INTO "redirects_state" ("id", "version") VALUES (1, 0) ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The old slugs recorded so far become redirects of the new list (flat already: the old trigger kept them one hop).
INSERT INTO "redirects" ("match", "source", "query", "target", "status", "origin", "created_at", "updated_at")
  SELECT 'exact', lower(CASE WHEN "kind" = 'lawyer' THEN '/lawyer/' ELSE '/post/' END || rtrim("old_slug", '/')), '',
         CASE WHEN "kind" = 'lawyer' THEN '/lawyer/' ELSE '/post/' END || "new_slug", 301, 'slug', "created_at", "created_at"
  FROM "slug_redirects"
  ON CONFLICT ("match", "source", "query") DO NOTHING;
