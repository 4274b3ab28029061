-- wrk script: a rotation of valid and malformed requests (and, with HUGE=1, requests
-- whose upstream answers 64 MiB on a restoring route). Every answer is expected; the
-- point is memory over time, not status codes.
local key = os.getenv("KEY")
local json = '{"model":"m","messages":[{"role":"user","content":"I am Maria Gonzalez, mail maria.gonzalez@example.com"}]}'
local big = '{"text": ["' .. string.rep("a", 100 * 1024) .. '"]}'
local anon_h = {["Content-Type"] = "application/json", ["X-API-Key"] = key}
local chat_h = {["Content-Type"] = "application/json"}
local requests = {
  wrk.format("POST", "/v1/chat/completions", chat_h, json),                    -- 200
  wrk.format("POST", "/v1/chat/completions", chat_h, "not json at all"),       -- 422
  wrk.format("POST", "/v1/anonymize", anon_h, '{"text": ["Call Maria at +1 415-555-0132"]}'), -- 200
  wrk.format("POST", "/v1/anonymize", anon_h, '{"text": 5}'),                  -- 422
  wrk.format("POST", "/v1/anonymize", anon_h, big),                            -- 413
  wrk.format("POST", "/v1/anonymize", {["Content-Type"] = "application/json"}, '{"text": []}'), -- 401
}
if os.getenv("HUGE") == "1" then
  table.insert(requests, wrk.format("POST", "/huge", chat_h, json))           -- 502
end
local i = 0
request = function()
  i = i % #requests + 1
  return requests[i]
end
