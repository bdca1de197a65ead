CREATE TABLE "enquiries" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"practice_area" text NOT NULL,
	"message" text NOT NULL,
	"consented_at" timestamp with time zone DEFAULT now() NOT NULL,
	"state" text DEFAULT 'new' NOT NULL,
	"staff_note" text DEFAULT '' NOT NULL,
	"handled_by_id" text,
	"handled_by" text,
	"handled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "enquiry_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enquiry_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"address" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "enquiries_created_idx" ON "enquiries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "enquiries_state_idx" ON "enquiries" USING btree ("state","created_at","id");--> statement-breakpoint
CREATE INDEX "enquiry_attempts_address_idx" ON "enquiry_attempts" USING btree ("address","at");