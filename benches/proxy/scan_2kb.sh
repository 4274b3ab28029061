#!/usr/bin/env bash
# What answer scanning costs a streamed answer: a 2 KB Chat Completions answer (one
# event per word, scan_upstream.py) through three openai_chat routes of one server, with
# scan_answers off, monitor and anonymize, on the default detection (rules and our
# model). Targets: ≤ 5 ms more to the first text and ≤ 10 % more total time. Rounds
# alternate the routes, so a machine whose load changes treats them alike.
# Env: PACE_MS (ms between the upstream's words; 0 = all at once; default 10, a model
# writing ~100 words a second), N (requests per route and round, 30), ROUNDS (3).
# Needs a release build (cargo build --release) and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
N="${N:-30}"
ROUNDS="${ROUNDS:-3}"
PACE_MS="${PACE_MS:-10}"
here=benches/proxy
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT

python3 "$here/scan_upstream.py" 18192 "$PACE_MS" &
{
  grep -v "^routes:" conf/anonymizer.yaml
  echo "routes:"
  for mode in off monitor anonymize; do
    cat <<YAML
  - name: $mode
    match: {path_prefix: /$mode}
    upstream: {url: "http://127.0.0.1:18192", rewrite_prefix: ""}
    preset: openai_chat
    auth: passthrough
    scan_answers: $mode
YAML
  done
} > "$tmp/bench.yaml"
ANONYMIZER_LISTEN=127.0.0.1:18190 ANONYMIZER_METRICS_LISTEN=127.0.0.1:19198 RUST_LOG=warn \
  target/release/anonymizer --config "$tmp/bench.yaml" 2>"$tmp/proxy.log" &
for _ in $(seq 300); do curl -sf localhost:18190/readyz >/dev/null && break; sleep 0.1; done
curl -sf localhost:18190/readyz >/dev/null || { cat "$tmp/proxy.log"; exit 1; }

echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); commit $(git rev-parse --short HEAD)"
echo "2 KB answer, $(python3 -c "import sys; sys.path.insert(0, '$here'); import scan_upstream as u; print(len(u.WORDS))") events, ${PACE_MS} ms apart; $ROUNDS rounds of $N requests a route"
for round in $(seq "$ROUNDS"); do
  echo "round $round off:       $(python3 $here/scan_timing.py 127.0.0.1 18190 /off/v1/chat/completions "$N" kept)"
  echo "round $round monitor:   $(python3 $here/scan_timing.py 127.0.0.1 18190 /monitor/v1/chat/completions "$N" kept)"
  echo "round $round anonymize: $(python3 $here/scan_timing.py 127.0.0.1 18190 /anonymize/v1/chat/completions "$N" gone)"
done
