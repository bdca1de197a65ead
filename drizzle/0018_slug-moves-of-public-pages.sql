-- Written by hand: a rename makes a redirect from the old address only while the page is public (an article
-- published and not in the trash; a team member visible and not in the trash). The redirect of an unpublished
-- page would answer its old address with a 301 naming its new one, telling a visitor a title that is not out yet;
-- its old address answers 404 like the page itself.
CREATE OR REPLACE FUNCTION "record_slug_redirect"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  prefix text := CASE WHEN TG_TABLE_NAME = 'team' THEN '/lawyer/' ELSE '/post/' END;
  public boolean := CASE WHEN TG_TABLE_NAME = 'team' THEN (to_jsonb(NEW) ->> 'visible')::boolean
                         ELSE (to_jsonb(NEW) ->> 'status') = 'published' END
                    AND (to_jsonb(NEW) ->> 'deleted_at') IS NULL;
BEGIN
  IF NEW.slug IS DISTINCT FROM OLD.slug AND public THEN
    PERFORM "record_path_move"(prefix || OLD.slug, prefix || NEW.slug);
  END IF;
  RETURN NEW;
END
$$;
