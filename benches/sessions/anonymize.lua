-- wrk: POST /v1/anonymize, 1 KB with 10 entities, sessions spread over 1000 ids.
local body = [[{"text": ["Dear Maria, please write to maria.lopez@example.com or call +1 415-555-0132 before Monday. The invoice for card 4111 1111 1111 1111 was sent from 203.0.113.42 to john.smith@example.org; John can also be reached at +44 20 7946 0958. Our office at 10 Downing Street, London keeps the paper copy. Please confirm the IBAN DE89 3704 0044 0532 0130 00 and the backup address ops@example.net by Friday. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum. Thanks again."]}]]
local n = 0
request = function()
  n = n + 1
  return wrk.format("POST", "/v1/anonymize", {
    ["Content-Type"] = "application/json",
    ["X-API-Key"] = "bench-key-0123456789",
    ["X-Session-Id"] = "s" .. (n % 1000),
  }, body)
end
