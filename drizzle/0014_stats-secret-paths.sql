-- Visit statistics kept no secret link (issue 43): pages whose address holds a token were counted by
-- their address until now. Raw events and rollups holding one now keep the route's pattern instead
-- (/subscribe/confirm/:token), summed with any row already under it; previews are removed.
update stats_events
set path = regexp_replace(path, '^/(subscribe/(confirm|preferences|one-click)|admin/(reset-password|invitation))/.*$', '/\1/:token')
where path ~ '^/(subscribe/(confirm|preferences|one-click)|admin/(reset-password|invitation))/' and path !~ '/:token$';
--> statement-breakpoint
delete from stats_events where path like '/preview/%';
--> statement-breakpoint
insert into stats_daily_items (day, dimension, key, count, visitors, time_ms, time_count)
select day, dimension,
  regexp_replace(key, '^/(subscribe/(confirm|preferences|one-click)|admin/(reset-password|invitation))/.*$', '/\1/:token'),
  sum(count), sum(visitors), sum(time_ms), sum(time_count)
from stats_daily_items
where (dimension in ('page', 'entry') or dimension like 'conversion:%')
  and key ~ '^/(subscribe/(confirm|preferences|one-click)|admin/(reset-password|invitation))/' and key !~ '/:token$'
group by 1, 2, 3
on conflict (dimension, day, key) do update set
  count = stats_daily_items.count + excluded.count,
  visitors = stats_daily_items.visitors + excluded.visitors,
  time_ms = stats_daily_items.time_ms + excluded.time_ms,
  time_count = stats_daily_items.time_count + excluded.time_count;
--> statement-breakpoint
delete from stats_daily_items
where (dimension in ('page', 'entry') or dimension like 'conversion:%')
  and ((key ~ '^/(subscribe/(confirm|preferences|one-click)|admin/(reset-password|invitation))/' and key !~ '/:token$') or key like '/preview/%');
