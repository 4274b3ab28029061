-- wrk script: one openai_chat request through the proxy.
wrk.method = "POST"
wrk.body = '{"model":"m","messages":[{"role":"user","content":"I am Maria Gonzalez, mail maria.gonzalez@example.com"}]}'
wrk.headers["Content-Type"] = "application/json"
