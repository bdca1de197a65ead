-- The WordPress import's tries are its pg-boss job's (retry limit, backoff, dead letter): the row no longer counts its own
-- attempts nor keeps the time of its next one.
ALTER TABLE "wordpress_imports" DROP COLUMN "attempts";--> statement-breakpoint
ALTER TABLE "wordpress_imports" DROP COLUMN "run_after";