CREATE TABLE "event_registrations" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "event_registrations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" integer NOT NULL,
	"status" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"organisation" text DEFAULT '' NOT NULL,
	"job_title" text DEFAULT '' NOT NULL,
	"accessibility_needs" text DEFAULT '' NOT NULL,
	"cancel_token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	"promoted_at" timestamp with time zone,
	"reminded_24h_at" timestamp with time zone,
	"reminded_1h_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "event_speakers" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"member_id" integer,
	"guest_name" text DEFAULT '' NOT NULL,
	"guest_organisation" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"copy" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"published_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"event_status" text DEFAULT 'scheduled' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"previous_starts_at" timestamp with time zone,
	"sequence" integer DEFAULT 0 NOT NULL,
	"format" text NOT NULL,
	"practice_area" text NOT NULL,
	"venue_name" text DEFAULT '' NOT NULL,
	"venue_street" text DEFAULT '' NOT NULL,
	"venue_city" text DEFAULT '' NOT NULL,
	"venue_region" text DEFAULT '' NOT NULL,
	"venue_postal_code" text DEFAULT '' NOT NULL,
	"webinar_url" text DEFAULT '' NOT NULL,
	"capacity" integer,
	"registration_closes_at" timestamp with time zone,
	"cpd_substantive_minutes" integer DEFAULT 0 NOT NULL,
	"cpd_professionalism_minutes" integer DEFAULT 0 NOT NULL,
	"accreditation_number" text DEFAULT '' NOT NULL,
	"accreditation_date" date,
	"recording_url" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "event_registrations" ADD CONSTRAINT "event_registrations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_speakers" ADD CONSTRAINT "event_speakers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_speakers" ADD CONSTRAINT "event_speakers_member_id_team_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."team"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_registrations_once" ON "event_registrations" USING btree ("event_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "event_registrations_token_unique" ON "event_registrations" USING btree ("cancel_token_hash");--> statement-breakpoint
CREATE INDEX "event_registrations_status_idx" ON "event_registrations" USING btree ("event_id","status","id");--> statement-breakpoint
CREATE INDEX "event_speakers_event_idx" ON "event_speakers" USING btree ("event_id","position");--> statement-breakpoint
CREATE INDEX "event_speakers_member_idx" ON "event_speakers" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_slug_unique" ON "events" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "events_slug_lower_idx" ON "events" USING btree (lower("slug"));--> statement-breakpoint
CREATE INDEX "events_public_idx" ON "events" USING btree ("starts_at","id") WHERE status = 'published' and deleted_at is null;--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at","id");