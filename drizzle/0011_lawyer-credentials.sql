ALTER TABLE "team" ADD COLUMN "admissions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "languages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "other_languages" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "education" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "matters" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "memberships" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "specialist_area" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "team" ADD COLUMN "specialist_year" integer;