#!/usr/bin/env bash
# Proxy load benchmark: requests/s and latency direct to a local nginx upstream vs
# through anonymizer on a passthrough route and on an openai_chat route (2 KB prompt),
# plus time to first streamed byte direct vs through the proxy.
# Needs: wrk and nginx (apt-get install -y wrk nginx-light), a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${DURATION:-10s}"
# MODEL=true also runs the NER model tier on the openai_chat route (default: rules only).
CONNS="${CONNS:-32}"
here=benches/proxy
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

cargo build --release --locked -q
nginx -c "$PWD/$here/nginx.conf" -p "$tmp" &
python3 "$here/sse_upstream.py" 18082 &
cat > "$tmp/bench.yaml" <<YAML
auth: {api_keys: [{tenant: bench, key: bench-key-0123456789}]}
logging: {level: warn}
model: {enabled: ${MODEL:-false}}
routes:
  - name: pass
    match: {path_prefix: /pass}
    upstream: {url: "http://127.0.0.1:18081"}
    auth: passthrough
  - name: chat
    match: {path_prefix: /v1/chat/completions}
    upstream: {url: "http://127.0.0.1:18081"}
    preset: openai_chat
    auth: passthrough
  - name: stream
    match: {path_prefix: /stream}
    upstream: {url: "http://127.0.0.1:18082"}
    preset: openai_chat
    auth: passthrough
YAML
ANONYMIZER_LISTEN=127.0.0.1:18080 ANONYMIZER_METRICS_LISTEN=127.0.0.1:19099 \
  target/release/anonymizer --config "$tmp/bench.yaml" 2>"$tmp/proxy.log" &
for _ in $(seq 100); do curl -sf localhost:18080/healthz >/dev/null && break; sleep 0.1; done

python3 "$here/prompt.py" "$tmp/prompt.json"
export BODY_FILE="$tmp/prompt.json"
run() { # name url [post] [connections]
  local out c="${4:-$CONNS}" t=2
  [ "$c" -lt 2 ] && t=1
  if [ "${3:-}" = post ]; then
    out=$(wrk -t$t -c"$c" -d"$DURATION" --latency -s "$here/post.lua" "$2")
  else
    out=$(wrk -t$t -c"$c" -d"$DURATION" --latency "$2")
  fi
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  printf '| %s | %s | %s | %s |\n' "$1" "$rps" "$p50" "$p99"
}
echo "| path ($CONNS connections) | requests/s | p50 | p99 |"
echo "|---|---:|---:|---:|"
run "direct to upstream (GET)" http://127.0.0.1:18081/pass
run "proxy, passthrough route (GET)" http://127.0.0.1:18080/pass
run "direct to upstream (POST 2 KB)" http://127.0.0.1:18081/v1/chat/completions post
run "proxy, openai_chat route (POST 2 KB prompt)" http://127.0.0.1:18080/v1/chat/completions post
echo
echo "| one connection (added latency) | requests/s | p50 | p99 |"
echo "|---|---:|---:|---:|"
run "direct to upstream (GET)" http://127.0.0.1:18081/pass get 1
run "proxy, passthrough route (GET)" http://127.0.0.1:18080/pass get 1
run "direct to upstream (POST 2 KB)" http://127.0.0.1:18081/v1/chat/completions post 1
run "proxy, openai_chat route (POST 2 KB prompt)" http://127.0.0.1:18080/v1/chat/completions post 1
echo
echo "time to first streamed byte (200 sequential requests):"
echo "direct: $(python3 $here/ttft.py 127.0.0.1 18082 /stream 200)"
echo "proxy:  $(python3 $here/ttft.py 127.0.0.1 18080 /stream 200)"
