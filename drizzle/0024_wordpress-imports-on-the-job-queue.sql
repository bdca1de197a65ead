CREATE TABLE "wordpress_imports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "wordpress_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"status" text DEFAULT 'queued' NOT NULL,
	"dry_run" boolean NOT NULL,
	"file_name" text DEFAULT '' NOT NULL,
	"upload" text,
	"choices" jsonb NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"report" jsonb,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
DROP TABLE "background_tasks" CASCADE;--> statement-breakpoint
CREATE INDEX "wordpress_imports_status_idx" ON "wordpress_imports" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "wordpress_imports_upload_idx" ON "wordpress_imports" USING btree ("upload");