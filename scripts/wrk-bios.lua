-- wrk script for `npm run bench:team`'s PDF bios made afresh: every request asks for the bio of a member
-- not asked for before (/lawyer/Member-{i}-Example/bio.pdf, i from 0 up), so each one is made, stored and
-- sent, as the first request after a profile change is. The report is wrk-report.lua's; `requests` tells
-- whether a run went past the last member (then later requests would be stored copies).
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or ""
dofile(here .. "wrk-report.lua")

local n = -1
request = function()
  n = n + 1
  return wrk.format(nil, "/lawyer/Member-" .. n .. "-Example/bio.pdf")
end
