DROP INDEX "event_registrations_once";--> statement-breakpoint
ALTER TABLE "event_registrations" ADD COLUMN "attended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD COLUMN "certificate_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "event_registrations_once" ON "event_registrations" USING btree ("event_id","email") WHERE erased_at is null;--> statement-breakpoint
-- A fourth staff role (issue 45): "events", the events coordinator.
ALTER TABLE "user" DROP CONSTRAINT "user_role_check";--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_role_check" CHECK ("role" IN ('owner', 'admin', 'editor', 'events'));
