-- wrk script: one small /v1/anonymize request (the "normal client").
wrk.method = "POST"
wrk.body = '{"text": ["Call Maria Gonzalez at +1 415-555-0132"]}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-API-Key"] = os.getenv("KEY")
