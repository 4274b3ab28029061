#!/usr/bin/env bash
# Shared session store benchmark: a real redis-server on loopback, release
# builds, rules only, server.threads 2 (the default) on every replica.
#  1. added latency of a session request, Redis vs memory store (1 KB text, 10
#     entities, one connection each, sequential, alternating request by request);
#  2. throughput, ROUNDS rounds alternating: one replica with the memory store, two
#     replicas sharing one Redis, two replicas with memory stores and two sharing
#     Redis with leases off (lease_ms 0: a round trip per request), for reference;
#     wrk per replica, CONNS connections, sessions spread over 1000 ids; the ratio is
#     taken over the same rounds, so a busy machine weighs on both sides alike;
#  3. with perf: instructions per request (load-independent) of two memory-store
#     replicas vs two Redis replicas plus redis-server, under the same load;
#  4. consistency: >= 10,000 concurrent requests on one hot session spread over two
#     replicas; any value with two placeholders or placeholder with two values fails.
# Needs: redis-server, wrk (apt-get install -y redis-server wrk), python3; perf optional.
set -euo pipefail
cd "$(dirname "$0")/../.."
DURATION="${DURATION:-5}"
CONNS="${CONNS:-16}"
ROUNDS="${ROUNDS:-5}"
here=benches/sessions
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

cargo build --release --locked -q
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
redis-server --port 16390 --bind 127.0.0.1 --save "" --appendonly no >/dev/null &
echo $! > "$tmp/redis.pid"
base="auth: {api_keys: [{tenant: bench, key: bench-key-0123456789}]}
logging: {level: warn}
model: {enabled: false}
secrets: {master_secret: bench-secret-0123456789abcdef0123456789}"
printf '%s\n' "$base" > "$tmp/memory.yaml"
printf '%s\nsessions: {store: redis, redis: {url: "redis://127.0.0.1:16390"}}\n' "$base" > "$tmp/redis.yaml"
printf '%s\nsessions: {store: redis, redis: {url: "redis://127.0.0.1:16390", lease_ms: 0}}\n' "$base" > "$tmp/nolease.yaml"
start() { # port config
  ANONYMIZER_LISTEN=127.0.0.1:$1 ANONYMIZER_METRICS_LISTEN=127.0.0.1:$((1000 + $1)) \
    target/release/anonymizer --config "$2" 2>"$tmp/$1.log" &
  echo $! > "$tmp/$1.pid"
  for _ in $(seq 100); do curl -sf "localhost:$1/healthz" >/dev/null && break; sleep 0.1; done
}
start 18181 "$tmp/memory.yaml"
start 18184 "$tmp/memory.yaml"
start 18182 "$tmp/redis.yaml"
start 18183 "$tmp/redis.yaml"
start 18185 "$tmp/nolease.yaml"
start 18186 "$tmp/nolease.yaml"

load() { # ports...: requests/s of wrk on each port at once, summed
  local pids=()
  for p in "$@"; do
    wrk -t1 -c"$CONNS" -d"${DURATION}s" -s "$here/anonymize.lua" "http://127.0.0.1:$p" > "$tmp/w$p.txt" &
    pids+=($!)
  done
  wait "${pids[@]}"
  for p in "$@"; do awk '/Requests\/sec/ {print $2}' "$tmp/w$p.txt"; done | awk '{s += $1} END {printf "%.0f", s}'
}

echo "== 1. added latency per session request (1 KB, 10 entities, sequential)"
python3 "$here/latency.py" 18181 18182
echo "-- the same with leases off (lease_ms 0: one round trip per request)"
python3 "$here/latency.py" 18181 18185
echo "== 2. throughput, rules only, $CONNS connections per replica, ${DURATION}s per row, $ROUNDS rounds"
sum1=0; sum2=0; summ=0; sumn=0
for r in $(seq "$ROUNDS"); do
  one=$(load 18181); two=$(load 18182 18183); twom=$(load 18181 18184); twon=$(load 18185 18186)
  echo "round $r: one replica, memory $one req/s | two replicas, one Redis $two req/s ($(( 100 * two / one )) %) | two replicas, memory $twom req/s | two replicas, Redis, lease_ms 0 $twon req/s | load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$tmp/rounds.txt"
  sum1=$((sum1 + one)); sum2=$((sum2 + two)); summ=$((summ + twom)); sumn=$((sumn + twon))
done
echo "all rounds: two replicas with Redis = $(( 100 * sum2 / sum1 )) % of one replica with memory; $(( 100 * sum2 / summ )) % of two replicas with memory; with leases off $(( 100 * sumn / sum1 )) % of one replica with memory"
echo "per-round ratios (two with Redis / one with memory), median: $(grep -o '([0-9]* %)' "$tmp/rounds.txt" | tr -d '(%)' | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}') %"
if command -v perf >/dev/null; then
  echo "== 3. instructions per request under the same load (perf stat, user + kernel)"
  for set in "18181 18184" "18182 18183"; do
    pids=$(cat "$tmp/redis.pid"); for p in $set; do pids="$pids,$(cat "$tmp/$p.pid")"; done
    wrks=()
    for p in $set; do
      wrk -t1 -c"$CONNS" -d"$((DURATION + 1))s" -s "$here/anonymize.lua" "http://127.0.0.1:$p" > "$tmp/w$p.txt" &
      wrks+=($!)
    done
    sleep 0.5
    perf stat -e instructions:u,instructions:k -x, -p "$pids" -o "$tmp/perf.txt" -- sleep "$DURATION"
    wait "${wrks[@]}"
    rps=$(for p in $set; do awk '/Requests\/sec/ {print $2}' "$tmp/w$p.txt"; done | awk '{s += $1} END {print s}')
    python3 - "$tmp/perf.txt" "$rps" "$DURATION" "$set" <<'PY'
import sys
counts = {l.split(",")[2]: float(l.split(",")[0]) for l in open(sys.argv[1]) if l.count(",") > 2 and l.split(",")[0].replace(".", "").isdigit()}
requests = float(sys.argv[2]) * float(sys.argv[3])
user, kernel = counts["instructions:u"] / requests / 1e3, counts["instructions:k"] / requests / 1e3
print(f"replicas on ports {sys.argv[4]} (+ redis-server): {user:.0f}k user + {kernel:.0f}k kernel instructions per request")
PY
  done
fi
echo "== 4. consistency over two replicas, one hot session"
python3 "$here/consistency.py" 18182 18183 "${REQUESTS:-10000}"
