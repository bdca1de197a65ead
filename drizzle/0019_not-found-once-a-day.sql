-- Written by hand (first statement): a visitor's earlier duplicate "not found" views go, keeping the first.
DELETE FROM "stats_events" e USING "stats_events" f
  WHERE e."kind" = 'view' AND e."path" = '(not found)' AND f."kind" = 'view' AND f."path" = '(not found)'
    AND f."visitor" = e."visitor" AND f."id" < e."id";--> statement-breakpoint
CREATE UNIQUE INDEX "stats_events_not_found_idx" ON "stats_events" USING btree ("visitor") WHERE kind = 'view' and path = '(not found)';
