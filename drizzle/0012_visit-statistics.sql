CREATE TABLE "stats_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"visits" integer NOT NULL,
	"time_ms" bigint NOT NULL,
	"time_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_items" (
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"count" integer NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	"time_ms" bigint DEFAULT 0 NOT NULL,
	"time_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_daily_items_dimension_day_key_pk" PRIMARY KEY("dimension","day","key")
);
--> statement-breakpoint
CREATE TABLE "stats_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "stats_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"visitor" bigint NOT NULL,
	"path" text NOT NULL,
	"entry" boolean DEFAULT false NOT NULL,
	"referrer" text,
	"campaign" text,
	"device" text,
	"browser" text,
	"detail" text,
	"amount" integer
);
--> statement-breakpoint
CREATE TABLE "stats_hourly" (
	"hour" timestamp with time zone PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"visits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_rollup_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"dirty_from" timestamp with time zone,
	"rolled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "stats_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "stats_daily_items_day_idx" ON "stats_daily_items" USING btree ("day");--> statement-breakpoint
CREATE INDEX "stats_events_at_idx" ON "stats_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "stats_events_entry_idx" ON "stats_events" USING btree ("visitor","at") WHERE kind = 'view' and entry;