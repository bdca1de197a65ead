-- A registration for an event in one round trip (issue 45; bench:events (c)).
-- Before, app/.server/db/events.ts locked the event's row in a transaction, then wrote the registration and
-- committed: the lock was held across two round trips from Node (the insert, the commit), and 200 registrations a
-- second for one event waited on each other. Here the lock, the count of places taken and the write are one call:
-- the lock is held only while PostgreSQL runs it (it ends with the statement that calls it).
-- Each statement in a PL/pgSQL function takes a fresh snapshot, so the count, made after the lock was granted, sees
-- every registration committed before; one plain SQL statement would not (its snapshot would predate the wait).
-- The event's conditions are those of eventIsPublic() and registrationOpen() in the app (kept beside them there).
-- Answers one row: the outcome ('closed', 'already', 'registered' or 'waiting') and the registration's id.
CREATE OR REPLACE FUNCTION event_registration_take(
  p_event_id integer,
  p_email text,
  p_name text,
  p_organisation text,
  p_job_title text,
  p_accessibility_needs text,
  p_cancel_token_hash text,
  p_now timestamptz
) RETURNS TABLE (outcome text, registration_id bigint)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_capacity integer;
  v_id bigint;
  v_status text;
BEGIN
  SELECT e.capacity INTO v_capacity
    FROM events e
   WHERE e.id = p_event_id
     AND e.status = 'published' AND e.deleted_at IS NULL
     AND e.event_status <> 'cancelled'
     AND p_now < coalesce(e.registration_closes_at, e.starts_at)
     FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'closed'::text, NULL::bigint;
    RETURN;
  END IF;
  -- A new address, or a cancelled registration of the same address taken up again (the unique index holds one per
  -- event and address among those not erased); an address registered or waiting is left as it is.
  INSERT INTO event_registrations AS r
    (event_id, email, status, name, organisation, job_title, accessibility_needs, cancel_token_hash,
     created_at, updated_at, cancelled_at, promoted_at, reminded_24h_at, reminded_1h_at)
  VALUES (
    p_event_id, p_email,
    CASE WHEN v_capacity IS NULL
           OR (SELECT count(*) FROM event_registrations c
                WHERE c.event_id = p_event_id AND c.status IN ('registered', 'attended')) < v_capacity
         THEN 'registered' ELSE 'waiting' END,
    p_name, p_organisation, p_job_title, p_accessibility_needs, p_cancel_token_hash,
    p_now, p_now, NULL, NULL, NULL, NULL)
  ON CONFLICT (event_id, email) WHERE erased_at IS NULL DO UPDATE SET
    status = excluded.status,
    name = excluded.name,
    organisation = excluded.organisation,
    job_title = excluded.job_title,
    accessibility_needs = excluded.accessibility_needs,
    cancel_token_hash = excluded.cancel_token_hash,
    updated_at = excluded.updated_at,
    cancelled_at = NULL,
    promoted_at = NULL,
    reminded_24h_at = NULL,
    reminded_1h_at = NULL
    WHERE r.status = 'cancelled'
  RETURNING r.id, r.status INTO v_id, v_status;
  IF v_id IS NULL THEN
    SELECT c.id INTO v_id FROM event_registrations c
     WHERE c.event_id = p_event_id AND c.email = p_email AND c.erased_at IS NULL
     LIMIT 1;
    RETURN QUERY SELECT 'already'::text, v_id;
    RETURN;
  END IF;
  RETURN QUERY SELECT v_status, v_id;
END
$$;
