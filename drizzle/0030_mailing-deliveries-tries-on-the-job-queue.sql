-- A mailing delivery's tries are its pg-boss job's (`mailing-delivery`: retry limit, backoff, heartbeat, dead letter):
-- the row no longer counts its own attempts nor keeps the time of its next one. `claimed_at` stays: the row guards
-- against a second send (decision 0026, "Changed 2026-12-06" for mailing deliveries).
DROP INDEX "mailing_deliveries_due_idx";--> statement-breakpoint
ALTER TABLE "mailing_deliveries" DROP COLUMN "attempts";--> statement-breakpoint
ALTER TABLE "mailing_deliveries" DROP COLUMN "next_attempt_at";