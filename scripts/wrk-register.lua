-- wrk script for `npm run bench:events`: posts the event registration form as a browser would (the
-- form's timing token from the page, an empty honeypot, the site's origin), each request a new address
-- from an address of its own (X-Forwarded-For; the server runs with TRUST_PROXY, so the per-address
-- hourly limit counts each apart). WRK_PATH, WRK_ORIGIN, WRK_TOKEN, WRK_TOKEN_FIELD, WRK_HONEYPOT_FIELD,
-- WRK_PREFIX (the addresses' local part), WRK_HOST (the Host header: a request built here gets none of its own). Reports like wrk-p95.lua.
local path = os.getenv("WRK_PATH")
local origin = os.getenv("WRK_ORIGIN")
local token = os.getenv("WRK_TOKEN")
local tokenField = os.getenv("WRK_TOKEN_FIELD")
local honeypot = os.getenv("WRK_HONEYPOT_FIELD")
local prefix = os.getenv("WRK_PREFIX") or "bench"
local host = os.getenv("WRK_HOST")
local n = 0

request = function()
  n = n + 1
  local body = "name=Bench+Person+" .. n .. "&email=" .. prefix .. "-" .. n .. "%40bench.example&organisation=Bench+Insurance"
    .. "&job_title=&accessibility_needs=&" .. tokenField .. "=" .. token .. "&" .. honeypot .. "="
  local ip = string.format("10.%d.%d.%d", math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  return wrk.format("POST", path, {
    ["Host"] = host,
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["Origin"] = origin,
    ["X-Forwarded-For"] = ip,
  }, body)
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
