-- wrk script: one request stream that cycles, in order, through the prepared bodies in
-- $BODIES (records "<body bytes> <units>\n<body>", written by bench.py) and POSTs each to
-- $REQ_PATH. It counts the units (characters or bytes of text, as bench.py chose) of
-- each 200 answer and times each request itself, with the monotonic clock. It stops on
-- a request boundary once $DURATION seconds have passed (0: no limit) or after $PASSES
-- passes over the bodies (0: no limit), whichever comes first, so no request is cut off
-- and the rate counts exactly the answered requests. Any answer but 200 ends wrk with
-- exit 1.
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clock, bench_timespec *ts);
]]
local ts = ffi.new("bench_timespec")
local function now()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
end

local path = os.getenv("REQ_PATH") or "/v1/anonymize"
local headers = {["Content-Type"] = os.getenv("CTYPE") or "application/json"}
if (os.getenv("API_KEY") or "") ~= "" then headers["X-API-Key"] = os.getenv("API_KEY") end
local duration = tonumber(os.getenv("DURATION") or "0")
local passes = tonumber(os.getenv("PASSES") or "0")

local requests, units = {}, {}
do
  local f = assert(io.open(os.getenv("BODIES"), "rb"))
  local data = f:read("*a")
  f:close()
  local pos = 1
  while pos <= #data do
    local nl = data:find("\n", pos, true)
    local len, n = data:sub(pos, nl - 1):match("^(%d+) (%d+)$")
    len = tonumber(len)
    requests[#requests + 1] = wrk.format("POST", path, headers, data:sub(nl + 1, nl + len))
    units[#units + 1] = tonumber(n)
    pos = nl + 1 + len
  end
end

local i, answered, done_units, first, sent, latencies = 0, 0, 0, nil, 0, {}

-- wrk calls this once more than it sends (its first answer is dropped), so the stream
-- starts at body 2 and ends a pass on body 1: each body still once a pass.
function request()
  i = i % #requests + 1
  sent = now()
  first = first or sent
  return requests[i]
end

function response(status, hdrs, body)
  local t = now()
  if status ~= 200 then
    io.stderr:write(string.format("FAIL: %s answered %d to body %d: %s\n", path, status, i,
      (body or ""):sub(1, 400)))
    os.exit(1)
  end
  answered = answered + 1
  done_units = done_units + units[i]
  latencies[answered] = t - sent
  if (passes > 0 and answered >= passes * #requests) or (duration > 0 and t - first >= duration) then
    table.sort(latencies)
    local function pct(p) return latencies[math.max(1, math.ceil(p / 100 * answered))] * 1e3 end
    wrk.thread:set("result", string.format(
      "RESULT requests=%d units=%d seconds=%.6f p50_ms=%.3f p99_ms=%.3f",
      answered, done_units, t - first, pct(50), pct(99)))
    wrk.thread:stop()
    -- wrk's main thread sleeps out its -d before it collects the threads; its Ctrl-C,
    -- SIGINT, ends that sleep. Sent from the background: system() ignores SIGINT until
    -- the command it runs has exited.
    os.execute("(sleep 0.05; kill -INT $PPID) &")
  end
end

local threads = {}
function setup(thread) threads[#threads + 1] = thread end

function done(summary, latency, _)
  local e = summary.errors
  if e.connect + e.read + e.write + e.timeout + e.status > 0 then
    io.stderr:write(string.format("FAIL: errors connect %d read %d write %d timeout %d status %d\n",
      e.connect, e.read, e.write, e.timeout, e.status))
    os.exit(1)
  end
  for _, t in ipairs(threads) do print(t:get("result") or "FAIL: the stream did not finish within wrk's -d") end
end
