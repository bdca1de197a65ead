DROP INDEX "articles_created_idx";--> statement-breakpoint
DROP INDEX "articles_category_idx";--> statement-breakpoint
DROP INDEX "articles_news_idx";--> statement-breakpoint
DROP INDEX "articles_category_priority_idx";--> statement-breakpoint
CREATE INDEX "articles_news_priority_idx" ON "articles" USING btree ("news","priority","created_at","id");--> statement-breakpoint
CREATE INDEX "articles_created_idx" ON "articles" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "articles_category_idx" ON "articles" USING btree (lower("category"),"created_at","id");--> statement-breakpoint
CREATE INDEX "articles_news_idx" ON "articles" USING btree ("news","created_at","id");--> statement-breakpoint
CREATE INDEX "articles_category_priority_idx" ON "articles" USING btree (lower("category"),"priority","created_at","id");