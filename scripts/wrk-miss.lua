-- wrk script for `npm run bench`'s page-cache misses: every request asks for the page at an address not
-- asked for before (a value of its own of a parameter the page cache keeps in its key and the page does
-- not read: `tab`, or `author` where the address has a `tab` already), so each one is
-- rendered, compressed and stored, as a visitor's first request of a page after a change is.
-- The report is wrk-report.lua's.
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or ""
dofile(here .. "wrk-report.lua")

-- A prefix of its own for each run of wrk, so that a run never asks for an address an earlier one stored.
local random = io.open("/dev/urandom", "rb")
local prefix = string.format("m%02x%02x%02x%02x", random:read(4):byte(1, 4))
random:close()
local n = 0
local name = string.find(wrk.path, "tab=", 1, true) and "author" or "tab"
local base = wrk.path .. (string.find(wrk.path, "?", 1, true) and "&" or "?") .. name .. "=" .. prefix .. "-"

request = function()
  n = n + 1
  return wrk.format(nil, base .. n)
end
