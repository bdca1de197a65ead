CREATE TABLE "subscriber_imports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "subscriber_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"status" text DEFAULT 'queued' NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"csv" text DEFAULT '' NOT NULL,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_by" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"rows_total" integer DEFAULT 0 NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"refusals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriber_consents" ADD COLUMN "consent_kind" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriber_consents" ADD COLUMN "consent_date" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscriber_consents" ADD COLUMN "implied_basis" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriber_consents" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "consent_kind" text DEFAULT 'express' NOT NULL;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "consent_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "consent_request_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscribers" ADD COLUMN "consent_requested_at" timestamp with time zone;