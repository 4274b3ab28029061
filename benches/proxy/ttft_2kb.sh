#!/usr/bin/env bash
# Time to first token added by the proxy on a 2 KB prompt (target: ≤ 5 ms),
# rules only: a streaming upstream (sse_upstream.py: first event at once) reached
# directly and through anonymizer on an openai_chat route with auth: api_key (the
# client's bearer token is ours, the provider's goes upstream). The proxy anonymizes the
# prompt (e-mails, phones, cards, IPs), forwards it and restores the first event.
# Needs a release build (cargo build --release) and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${N:-300}"
here=benches/proxy
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

python3 "$here/sse_upstream.py" 18092 &
cat > "$tmp/bench.yaml" <<YAML
auth: {api_keys: [{tenant: bench, key: bench-key-0123456789}]}
logging: {level: warn}
model: {enabled: false}
routes:
  - name: stream
    match: {path_prefix: /v1/chat/completions}
    upstream: {url: "http://127.0.0.1:18092", add_headers: {authorization: "Bearer sk-provider"}}
    preset: openai_chat
    auth: api_key
YAML
ANONYMIZER_LISTEN=127.0.0.1:18090 ANONYMIZER_METRICS_LISTEN=127.0.0.1:19098 \
  target/release/anonymizer --config "$tmp/bench.yaml" 2>"$tmp/proxy.log" &
for _ in $(seq 100); do curl -sf localhost:18090/healthz >/dev/null && break; sleep 0.1; done

python3 "$here/prompt.py" "$tmp/prompt.json"
# Rounds alternate direct and proxy, so a machine whose load changes treats both alike.
ROUNDS="${ROUNDS:-3}"
echo "prompt: $(wc -c <"$tmp/prompt.json") bytes; $ROUNDS rounds of $N sequential requests each way"
for round in $(seq "$ROUNDS"); do
  echo "round $round direct: $(python3 $here/ttft.py 127.0.0.1 18092 /v1/chat/completions "$N" "$tmp/prompt.json")"
  echo "round $round proxy:  $(python3 $here/ttft.py 127.0.0.1 18090 /v1/chat/completions "$N" "$tmp/prompt.json" 'Authorization: Bearer bench-key-0123456789')"
done
