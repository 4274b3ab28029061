#!/usr/bin/env bash
# The served path as users get it: the release binary over HTTP, one keep-alive
# connection per request stream (wrk), on varied generated text (corpus.py) and CoNLL,
# with Presidio beside it in the same run. Prints the CPU and commit, then one table.
#   bash benches/served/run.sh
# Env: BIN (default target/release/anonymizer; built unless NO_BUILD=1), DURATION
#      (seconds per stream, default 10), PASSES (shapes b, d: N passes over the texts
#      instead), FRESH_MB (shapes a, c: MB of new text per stream, default 8), SHAPES
#      (some of abcde, default all), PRESIDIO=0 (skip Presidio), SEED (corpus, 1),
#      VENV (Presidio's, /work/venv-presidio), VENV_SERVED (Faker's, /work/venv-served),
#      PYTHON312, ANON_DATA (default /work/shared/data), CONFIG (the config ours serves,
#      default conf/anonymizer.yaml). See benches/served/README.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=benches/served
BIN="${BIN:-target/release/anonymizer}"
SHAPES="${SHAPES:-abcde}"
PRESIDIO="${PRESIDIO:-1}"
CONLL="${ANON_DATA:-/work/shared/data}/dev/conll2003_dev.jsonl"
VENV="${VENV:-/work/venv-presidio}"
VENV_SERVED="${VENV_SERVED:-/work/venv-served}"
KEY=bench-key-0123456789
export PYTHONDONTWRITEBYTECODE=1   # nothing written beside benches/presidio/, whose modules we import
[[ "$SHAPES" == *b* ]] || PRESIDIO=0   # only shape b compares with Presidio

if ! command -v wrk >/dev/null; then
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq wrk >/dev/null
fi
[ -x "$VENV_SERVED/bin/python" ] || python3 -m venv "$VENV_SERVED"
"$VENV_SERVED/bin/pip" install -q --disable-pip-version-check -r $here/requirements.txt
if [ "$PRESIDIO" != 0 ]; then   # as benches/presidio/run.sh makes it
  PY312="${PYTHON312:-$(ls -d /root/.pyenv/versions/3.12*/bin/python 2>/dev/null | head -1)}"
  [ -x "$VENV/bin/python" ] || "${PY312:-python3.12}" -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r benches/presidio/requirements.txt
fi
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --locked -q

for port in 18380 18381 18382 18390; do   # a server already there would be timed instead
  if curl -s -o /dev/null "localhost:$port"; then echo "port $port is in use" >&2; exit 1; fi
done
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
ours() { # API port, metrics port, then the binary's arguments
  ANONYMIZER_LISTEN=127.0.0.1:$1 ANONYMIZER_METRICS_LISTEN=127.0.0.1:$2 ANONYMIZER_API_KEYS=bench:$KEY \
    RUST_LOG=warn exec "$BIN" "${@:3}"   # exec: the trap kills this pid
}
# Ours as shipped: the default config (rules + our model).
ours 18380 19380 --config "${CONFIG:-conf/anonymizer.yaml}" 2>"$tmp/ours.log" &
ours_pid=$!
wait_for=(localhost:18380/readyz)
if [[ "$SHAPES" == *c* ]]; then
  # The log routes, rules only, in front of the sink.
  ANONYMIZER_UPSTREAM=http://127.0.0.1:18382 ours 18381 19381 --config $here/logs_proxy.yaml 2>"$tmp/proxy.log" &
  "$VENV_SERVED/bin/python" $here/sink.py 18382 2>"$tmp/sink.log" &
  wait_for+=(localhost:18381/readyz localhost:18382/stats)
fi
if [ "$PRESIDIO" != 0 ]; then
  "$VENV/bin/python" benches/presidio/presidio_server.py 18390 2>"$tmp/presidio.log" &
  wait_for+=(localhost:18390/)
fi
for url in "${wait_for[@]}"; do
  for _ in $(seq 1500); do curl -sf -o /dev/null "$url" && continue 2; sleep 0.2; done
  echo "$url did not come up; logs:" >&2; tail -n 20 "$tmp"/*.log >&2; exit 1
done

commit=$(git rev-parse --short HEAD)
[ -z "$(git status --porcelain -- src Cargo.toml Cargo.lock)" ] || commit="$commit + uncommitted changes in src/"
args=(--shapes "$SHAPES" --ours http://127.0.0.1:18380 --key $KEY --metrics http://127.0.0.1:19380
      --conll "$CONLL" --tmp "$tmp" --commit "$commit" --duration "${DURATION:-10}"
      --passes "${PASSES:-0}" --seed "${SEED:-1}" --fresh-mb "${FRESH_MB:-8}" --pid "$ours_pid")
[[ "$SHAPES" != *c* ]] || args+=(--proxy http://127.0.0.1:18381 --proxy-metrics http://127.0.0.1:19381
                                  --sink http://127.0.0.1:18382)
[ "$PRESIDIO" = 0 ] || args+=(--presidio http://127.0.0.1:18390)
"$VENV_SERVED/bin/python" $here/bench.py "${args[@]}" || { tail -n 20 "$tmp"/*.log >&2; exit 1; }
