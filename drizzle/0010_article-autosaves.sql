CREATE TABLE "article_autosaves" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"article_id" integer,
	"base_version" integer,
	"values" jsonb NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_autosaves_user_article_unique" UNIQUE NULLS NOT DISTINCT("user_id","article_id")
);
--> statement-breakpoint
ALTER TABLE "article_autosaves" ADD CONSTRAINT "article_autosaves_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_autosaves" ADD CONSTRAINT "article_autosaves_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_autosaves_article_idx" ON "article_autosaves" USING btree ("article_id");