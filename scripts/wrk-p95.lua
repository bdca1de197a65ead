-- wrk reporter for `npm run bench:stats`: one JSON line with p50/p95/p99 (microseconds). Extra request
-- headers (a staff session cookie) come from WRK_COOKIE.
local cookie = os.getenv("WRK_COOKIE")
if cookie and cookie ~= "" then wrk.headers["Cookie"] = cookie end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
