#!/usr/bin/env bash
# Side by side, in one run and through the same HTTP path: our service (default config:
# rules + our model) against Presidio 2.2 + spaCy en_core_web_md on the same documents,
# one per request. The headline is the ratio, printed with the CPU it ran on.
#   bash benches/presidio/run.sh [DATA.jsonl]    (default: CoNLL-2003 dev)
# Env: PYTHON312 (a Python >= 3.12 for Presidio's venv; default pyenv's 3.12),
#      VENV (default /work/venv-presidio), LIMIT (first N documents), ROUNDS (best of, 2).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA="${1:-${ANON_DATA:-/work/shared/data}/dev/conll2003_dev.jsonl}"
VENV="${VENV:-/work/venv-presidio}"
PY312="${PYTHON312:-$(ls -d /root/.pyenv/versions/3.12*/bin/python 2>/dev/null | head -1)}"
[ -x "$VENV/bin/python" ] || "${PY312:-python3.12}" -m venv "$VENV"
"$VENV/bin/pip" install -q -r benches/presidio/requirements.txt
cargo build --release --locked -q
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
ANONYMIZER_LISTEN=127.0.0.1:18080 ANONYMIZER_METRICS_LISTEN=127.0.0.1:19098 \
  ANONYMIZER_API_KEYS=bench:bench-key-0123456789 RUST_LOG=warn \
  target/release/anonymizer 2>"$tmp/ours.log" &
"$VENV/bin/python" benches/presidio/presidio_server.py 18090 2>"$tmp/presidio.log" &
for _ in $(seq 600); do
  curl -sf localhost:18080/readyz >/dev/null && curl -sf localhost:18090/ >/dev/null && break
  sleep 0.2
done
python3 benches/presidio/compare.py --data "$DATA" --ours http://127.0.0.1:18080 \
  --key bench-key-0123456789 --presidio http://127.0.0.1:18090 \
  --limit "${LIMIT:-0}" --rounds "${ROUNDS:-2}"
