-- event_registration_take (migrations 0025, 0027) also returns the registration's row, as JSON, so a registration
-- is one round trip from Node instead of two (the function, then a read of the row). The row comes from the insert's
-- RETURNING or, for an address already there, from the select that finds it, under the event's lock. A changed
-- return type cannot be made by CREATE OR REPLACE: dropped and made again.
DROP FUNCTION IF EXISTS event_registration_take(integer, text, text, text, text, text, text, timestamptz);--> statement-breakpoint
CREATE FUNCTION event_registration_take(
  p_event_id integer,
  p_email text,
  p_name text,
  p_organisation text,
  p_job_title text,
  p_accessibility_needs text,
  p_cancel_nonce text,
  p_now timestamptz
) RETURNS TABLE (outcome text, registration_id bigint, registration jsonb)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_capacity integer;
  v_id bigint;
  v_status text;
  v_row jsonb;
BEGIN
  SELECT e.capacity INTO v_capacity
    FROM events e
   WHERE e.id = p_event_id
     AND e.status = 'published' AND e.deleted_at IS NULL
     AND e.event_status <> 'cancelled'
     AND p_now < coalesce(e.registration_closes_at, e.starts_at)
     FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'closed'::text, NULL::bigint, NULL::jsonb;
    RETURN;
  END IF;
  -- A new address, or a cancelled registration of the same address taken up again (the unique index holds one per
  -- event and address among those not erased); an address registered or waiting is left as it is.
  INSERT INTO event_registrations AS r
    (event_id, email, status, name, organisation, job_title, accessibility_needs, cancel_nonce, cancel_token_hash,
     created_at, updated_at, cancelled_at, promoted_at, reminded_24h_at, reminded_1h_at)
  VALUES (
    p_event_id, p_email,
    CASE WHEN v_capacity IS NULL
           OR (SELECT count(*) FROM event_registrations c
                WHERE c.event_id = p_event_id AND c.status IN ('registered', 'attended')) < v_capacity
         THEN 'registered' ELSE 'waiting' END,
    p_name, p_organisation, p_job_title, p_accessibility_needs, p_cancel_nonce, NULL,
    p_now, p_now, NULL, NULL, NULL, NULL)
  ON CONFLICT (event_id, email) WHERE erased_at IS NULL DO UPDATE SET
    status = excluded.status,
    name = excluded.name,
    organisation = excluded.organisation,
    job_title = excluded.job_title,
    accessibility_needs = excluded.accessibility_needs,
    cancel_nonce = excluded.cancel_nonce,
    cancel_token_hash = NULL,
    updated_at = excluded.updated_at,
    cancelled_at = NULL,
    promoted_at = NULL,
    reminded_24h_at = NULL,
    reminded_1h_at = NULL
    WHERE r.status = 'cancelled'
  RETURNING r.id, r.status, to_jsonb(r) INTO v_id, v_status, v_row;
  IF v_id IS NULL THEN
    SELECT c.id, to_jsonb(c) INTO v_id, v_row FROM event_registrations c
     WHERE c.event_id = p_event_id AND c.email = p_email AND c.erased_at IS NULL
     LIMIT 1;
    RETURN QUERY SELECT 'already'::text, v_id, v_row;
    RETURN;
  END IF;
  RETURN QUERY SELECT v_status, v_id, v_row;
END
$$;
