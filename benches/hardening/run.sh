#!/usr/bin/env bash
# Hardening benchmark. Three measurements against the release binary and a
# local keep-alive upstream (upstream.py):
#   1. a normal client's latency (wrk, one connection, /v1/anonymize) idle, then while
#      500 slow-header connections hang (slow.py sends one header byte a second);
#   2. keep-alive reuse through the proxy: requests per upstream connection under wrk;
#   3. server RSS after two identical phases of mixed valid and malformed traffic
#      (mixed.lua), without and then with 64 MiB upstream answers on a restoring route.
# Needs: wrk (apt-get install -y wrk), python3. Env: LAT (latency run, default 20s),
# PHASE (each RSS phase, default 60s), SLOW (slow connections, default 500), MODEL
# (true also runs the NER tier; default false: rules only), PARTS (default "1 2 3"),
# HUGE (RSS runs: "0 1" = without, then with 64 MiB answers).
set -euo pipefail
cd "$(dirname "$0")/../.."
LAT="${LAT:-20}"
PHASE="${PHASE:-60}"
SLOW="${SLOW:-500}"
PARTS=" ${PARTS:-1 2 3} "
HUGE_RUNS="${HUGE:-0 1}"
here=benches/hardening
tmp=$(mktemp -d)
server_pid=""
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
export KEY=bench-key-0123456789
base=http://127.0.0.1:28180

cargo build --release --locked -q
python3 "$here/upstream.py" 28181 &
cat > "$tmp/bench.yaml" <<YAML
auth: {api_keys: [{tenant: bench, key: $KEY}]}
logging: {level: warn}
model: {enabled: ${MODEL:-false}}
limits: {max_body_bytes: 65536}
routes:
  - name: chat
    match: {path_prefix: /v1/chat/completions}
    upstream: {url: "http://127.0.0.1:28181"}
    preset: openai_chat
    auth: passthrough
  - name: huge
    match: {path_prefix: /huge}
    upstream: {url: "http://127.0.0.1:28181"}
    preset: openai_chat
    auth: passthrough
YAML

start_server() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  ANONYMIZER_LISTEN=127.0.0.1:28180 ANONYMIZER_METRICS_LISTEN=127.0.0.1:29190 \
    target/release/anonymizer --config "$tmp/bench.yaml" 2>>"$tmp/server.log" &
  server_pid=$!
  for _ in $(seq 100); do curl -sf $base/healthz >/dev/null && return; sleep 0.1; done
  echo "server did not start" >&2; cat "$tmp/server.log" >&2; exit 1
}
rss_mib() { awk '/^VmRSS/ {printf "%.1f", $2/1024}' "/proc/$server_pid/status"; }
hwm_mib() { awk '/^VmHWM/ {printf "%.1f", $2/1024}' "/proc/$server_pid/status"; }
latency() { # prints "p50 p99 requests/s non-2xx"
  local out
  out=$(wrk -t1 -c1 -d"${LAT}s" --latency -s "$here/anonymize.lua" "$base/v1/anonymize")
  echo "$(awk '$1=="50%" {print $2}' <<<"$out") $(awk '$1=="99%" {print $2}' <<<"$out") $(awk '/Requests\/sec/ {print $2}' <<<"$out") $(awk '/Non-2xx/ {print $NF}' <<<"$out")"
}

echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores; load average: $(cut -d' ' -f1-3 /proc/loadavg); allocator: $(env | grep -E '^(GLIBC_TUNABLES|MALLOC_)' | tr '\n' ' ' | grep . || echo "the server's own (src/app/allocator.rs)")"
start_server

if [[ "$PARTS" == *" 1 "* ]]; then
echo
echo "## 1. normal client latency (wrk -c1, ${LAT}s, /v1/anonymize)"
read -r p50 p99 rps bad <<<"$(latency)"
echo "| idle | p50 $p50 | p99 $p99 | $rps req/s | non-2xx: ${bad:-0} |"
python3 "$here/slow.py" 127.0.0.1 28180 "$SLOW" $((LAT + 8)) >"$tmp/slow.out" &
slow_pid=$!
sleep 5
open=$(ss -Htn state established "( dport = :28180 )" | wc -l)
read -r p50 p99 rps bad <<<"$(latency)"
echo "| $open slow-header connections open | p50 $p50 | p99 $p99 | $rps req/s | non-2xx: ${bad:-0} |"
wait "$slow_pid"
echo "slow connections the server closed: $(cat "$tmp/slow.out"); metric: $(curl -s 127.0.0.1:29190/metrics | grep '^anonymizer_connections_closed_total' | tr '\n' ' ')"

fi

if [[ "$PARTS" == *" 2 "* ]]; then
echo
echo "## 2. keep-alive reuse through the proxy (wrk -c8, 10s, openai_chat route)"
before=$(curl -s http://127.0.0.1:28181/stats)
out=$(wrk -t2 -c8 -d10s -s "$here/chat.lua" "$base/v1/chat/completions")
after=$(curl -s http://127.0.0.1:28181/stats)
python3 - "$before" "$after" "$(awk '/requests in/ {print $1}' <<<"$out")" <<'PY'
import json, sys
b, a, client = json.loads(sys.argv[1]), json.loads(sys.argv[2]), int(sys.argv[3])
conns, reqs = a["connections"] - b["connections"] - 1, a["requests"] - b["requests"]
print(f"client: {client} requests on 8 connections; upstream: {reqs} requests on {conns} connections "
      f"({reqs / max(conns, 1):.0f} requests per upstream connection)")
PY

fi

[[ "$PARTS" == *" 3 "* ]] || exit 0
echo
echo "## 3. RSS over two identical ${PHASE}s phases of mixed traffic (wrk -c16, mixed.lua)"
echo "| traffic | RSS after warm-up | after phase 1 | after phase 2 | phase 2 / phase 1 | peak (VmHWM) |"
echo "|---|---:|---:|---:|---:|---:|"
for huge in $HUGE_RUNS; do
  start_server
  HUGE=$huge wrk -t2 -c16 -d10s -s "$here/mixed.lua" "$base" >/dev/null
  warm=$(rss_mib)
  HUGE=$huge wrk -t2 -c16 -d"${PHASE}s" -s "$here/mixed.lua" "$base" >"$tmp/p1.txt"
  one=$(rss_mib)
  HUGE=$huge wrk -t2 -c16 -d"${PHASE}s" -s "$here/mixed.lua" "$base" >"$tmp/p2.txt"
  two=$(rss_mib)
  label="valid + malformed"
  [ "$huge" = 1 ] && label="valid + malformed + 64 MiB answers"
  echo "| $label ($(awk '/requests in/ {print $1}' "$tmp/p2.txt") requests/phase) | $warm MiB | $one MiB | $two MiB | $(python3 -c "print(f'{$two/$one:.3f}')") | $(hwm_mib) MiB |"
done
