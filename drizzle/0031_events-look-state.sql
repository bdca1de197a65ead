-- Where the events-passed look stopped last, shared by every process (jobs.ts announcePassedEvents): a process's
-- first look no longer looks back five minutes on its own and clears the page cache for writes a look already covered.
CREATE TABLE "events_look_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"checked_until" timestamp with time zone NOT NULL
);
