-- wrk script for `npm run bench:stats`: visit-statistics beacons (POST /stats/beacon) at a steady
-- rate, BEACON_RATE a second in all (default 200), shared by the thread's connections: each
-- request takes the next slot of a fixed schedule (LuaJIT's ffi reads the wall clock), so the rate
-- holds whatever the latency, as long as there are enough connections. Each beacon comes from one
-- of 65,536 visitors (X-Forwarded-For, the server runs with TRUST_PROXY as behind nginx), so the
-- limit of views a visitor a minute does not apply. Reports one JSON line.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_usec; } bench_timeval;
int gettimeofday(bench_timeval *tv, void *tz);
]]
local tv = ffi.new("bench_timeval")
local function now_ms()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) * 1000 + tonumber(tv.tv_usec) / 1000
end

local rate = tonumber(os.getenv("BEACON_RATE") or "2000")
local interval = 1000 / rate
local origin = os.getenv("BEACON_ORIGIN") or "http://localhost:3000"
local start = nil
local slot = 0
local sent = 0

wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain;charset=UTF-8"
wrk.headers["Origin"] = origin
wrk.headers["Sec-Fetch-Site"] = "same-origin"
wrk.headers["User-Agent"] = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0"

local beacons = {
  '{"k":"v","p":"/","r":"https://www.google.com/"}',
  '{"k":"v","p":"/team","r":"' .. origin .. '/"}',
  '{"k":"v","p":"/insights?utm_source=newsletter&utm_medium=email&utm_campaign=fall","r":""}',
  '{"k":"v","p":"/cyber","r":"https://www.linkedin.com/"}',
  '{"k":"v","p":"/search?q=ransomware","r":"' .. origin .. '/cyber","n":4}',
  '{"k":"l","p":"/team","d":42000}',
  '{"k":"o","p":"/team","h":"tel:+14165550100"}',
  '{"k":"v","p":"/construction","r":"https://duckduckgo.com/"}',
}

request = function()
  sent = sent + 1
  local visitor = sent % 65536
  -- wrk.format uses the table given in place of wrk.headers: a copy with the visitor's address.
  local headers = {}
  for name, value in pairs(wrk.headers) do headers[name] = value end
  headers["X-Forwarded-For"] = string.format("10.9.%d.%d", math.floor(visitor / 256), visitor % 256)
  return wrk.format(nil, "/stats/beacon", headers, beacons[(sent % #beacons) + 1])
end

delay = function()
  local t = now_ms()
  if not start then start = t end
  slot = slot + 1
  local due = start + slot * interval
  if due <= t then return 0 end
  return due - t
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '\nWRK_JSON {"requests":%d,"duration_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"p50_us":%d,"p95_us":%d,"p99_us":%d,"max_us":%d}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
