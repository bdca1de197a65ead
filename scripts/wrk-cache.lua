-- wrk reporter for `npm run bench:events`: one JSON line with the run's figures and how many answers
-- said X-Cache HIT, MISS or STALE, or had none (the page cache's hit rate). Use with -t1 or more.
local threads = {}

setup = function(thread)
  table.insert(threads, thread)
end

init = function(args)
  hit, miss, stale, none = 0, 0, 0, 0
end

response = function(status, headers, body)
  local x = headers["X-Cache"]
  if x == "HIT" then hit = hit + 1
  elseif x == "MISS" then miss = miss + 1
  elseif x == "STALE" then stale = stale + 1
  else none = none + 1 end
end

done = function(summary, latency, requests)
  local h, m, s, n = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    h = h + t:get("hit"); m = m + t:get("miss"); s = s + t:get("stale"); n = n + t:get("none")
  end
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"hit":%d,"miss":%d,"stale":%d,"none":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), h, m, s, n))
end
