-- Site search (decision 0013): full-text vectors kept by the database as
-- generated columns, GIN indexes for them, and trigram indexes on names and
-- titles for typo tolerance. The columns are not in schema.ts on purpose:
-- Drizzle never selects, inserts or audits them; only app/.server/db/search.ts reads them.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- Plain text of stored HTML (an article's body): tags out, the common entities decoded, the rest dropped.
CREATE OR REPLACE FUNCTION search_plain_text(html text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(
    replace(replace(replace(replace(replace(replace(
      regexp_replace(coalesce(html, ''), '<[^>]*>', ' ', 'g'),
      '&nbsp;', ' '), '&#39;', ''''), '&apos;', ''''), '&quot;', '"'), '&lt;', '<'), '&gt;', '>'),
    '&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);', ' ', 'g')
$$;
--> statement-breakpoint
-- One weighted document: A (name, title), B (summary, role, practice areas), C (body).
-- Each part is indexed twice: English stems (so "claims" finds "claim") and the
-- words as written (so a prefix typed so far, "insura", finds "insurance").
CREATE OR REPLACE FUNCTION search_document(a text, b text, c text) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT setweight(to_tsvector('english'::regconfig, coalesce(a, '')), 'A')
      || setweight(to_tsvector('simple'::regconfig, coalesce(a, '')), 'A')
      || setweight(to_tsvector('english'::regconfig, coalesce(b, '')), 'B')
      || setweight(to_tsvector('simple'::regconfig, coalesce(b, '')), 'B')
      || setweight(to_tsvector('english'::regconfig, coalesce(c, '')), 'C')
      || setweight(to_tsvector('simple'::regconfig, coalesce(c, '')), 'C')
$$;
--> statement-breakpoint
-- A list column as words, practice-area keys with their page titles.
CREATE OR REPLACE FUNCTION search_list_text(items text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(CASE lower(i)
    WHEN 'insurance' THEN 'insurance defence'
    WHEN 'construction' THEN 'construction disputes'
    WHEN 'cyber' THEN 'cyber security incident response'
    ELSE i END, ' '), '') FROM unnest(items) AS i
$$;
--> statement-breakpoint
-- Stored uncompressed (STORAGE EXTERNAL, set in the same statement so the rewrite
-- writes them so): a search reads hundreds of vectors, and decompressing each
-- cost several times more than the match itself (decision 0013).
ALTER TABLE "team" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  search_document("full_name", "title" || ' ' || search_list_text("AOP") || ' ' || search_list_text("area_details"), "desc")
) STORED, ALTER COLUMN "search_vector" SET STORAGE EXTERNAL;
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
  search_document("title", '', search_plain_text("copy"))
) STORED, ALTER COLUMN "search_vector" SET STORAGE EXTERNAL;
--> statement-breakpoint
CREATE INDEX "team_search_idx" ON "team" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "articles_search_idx" ON "articles" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "team_full_name_trgm_idx" ON "team" USING gin ("full_name" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "articles_title_trgm_idx" ON "articles" USING gin ("title" gin_trgm_ops);
--> statement-breakpoint
-- The fixed pages search shows (the three practice pages). Their text lives in
-- the code (PRACTICE_COPY); app/.server/db/search.ts writes it here when it
-- differs (once per process) and the database keeps the vector. The pages'
-- editable header text (table headers) is added when searching.
CREATE TABLE "search_pages" (
	"id" integer PRIMARY KEY,
	"key" text NOT NULL UNIQUE,
	"path" text NOT NULL,
	"title" text NOT NULL,
	"summary" text NOT NULL,
	"body" text NOT NULL,
	"search_vector" tsvector GENERATED ALWAYS AS (search_document("title", "summary", "body")) STORED
);
