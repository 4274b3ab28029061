#!/usr/bin/env bash
# Shared session store benchmark (issue 14): a real redis-server on loopback, release
# builds, rules only.
#  1. added latency of a session request, Redis vs memory store (1 KB text, 10
#     entities, one connection, sequential): p50/p99 of each and the difference;
#  2. throughput: one replica with the memory store vs two replicas sharing one Redis
#     (wrk, sessions spread over 1000 ids);
#  3. consistency: >= 10,000 concurrent requests on one hot session spread over two
#     replicas; any value with two placeholders or placeholder with two values fails.
# Needs: redis-server, wrk (apt-get install -y redis-server wrk), python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${DURATION:-10s}"
CONNS="${CONNS:-16}"
here=benches/sessions
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

cargo build --release --locked -q
redis-server --port 16390 --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
base="auth: {api_keys: [{tenant: bench, key: bench-key-0123456789}]}
logging: {level: warn}
model: {enabled: false}
secrets: {master_secret: bench-secret-0123456789abcdef0123456789}"
printf '%s\n' "$base" > "$tmp/memory.yaml"
printf '%s\nsessions: {store: redis, redis: {url: "redis://127.0.0.1:16390"}}\n' "$base" > "$tmp/redis.yaml"
start() { # port config
  ANONYMIZER_LISTEN=127.0.0.1:$1 ANONYMIZER_METRICS_LISTEN=127.0.0.1:$((1000 + $1)) \
    target/release/anonymizer --config "$2" 2>"$tmp/$1.log" &
  for _ in $(seq 100); do curl -sf "localhost:$1/healthz" >/dev/null && break; sleep 0.1; done
}
start 18181 "$tmp/memory.yaml"
start 18182 "$tmp/redis.yaml"
start 18183 "$tmp/redis.yaml"

echo "== 1. added latency per session request (1 KB, 10 entities, sequential)"
python3 "$here/latency.py" 18181 18182
echo "== 2. throughput, rules only, $CONNS connections per wrk, $DURATION"
one=$(wrk -t1 -c"$CONNS" -d"$DURATION" -s "$here/anonymize.lua" http://127.0.0.1:18181 | awk '/Requests\/sec/ {print $2}')
oner=$(wrk -t1 -c"$CONNS" -d"$DURATION" -s "$here/anonymize.lua" http://127.0.0.1:18182 | awk '/Requests\/sec/ {print $2}')
echo "one replica, Redis store: $oner req/s"
wrk -t1 -c"$CONNS" -d"$DURATION" -s "$here/anonymize.lua" http://127.0.0.1:18182 > "$tmp/a.txt" &
first=$!
wrk -t1 -c"$CONNS" -d"$DURATION" -s "$here/anonymize.lua" http://127.0.0.1:18183 > "$tmp/b.txt"
wait "$first"
two=$(cat "$tmp/a.txt" "$tmp/b.txt" | awk '/Requests\/sec/ {s += $2} END {print s}')
python3 -c "print(f'one replica, memory store: {float($one):.0f} req/s; two replicas, one Redis: {float($two):.0f} req/s ({100*float($two)/float($one):.0f} %)')"
echo "== 3. consistency over two replicas, one hot session"
python3 "$here/consistency.py" 18182 18183 "${REQUESTS:-10000}"
