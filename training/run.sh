#!/usr/bin/env bash
# One command to rebuild the shipped NER model:  bash training/run.sh
# venv (outside the repo) -> train -> ONNX export -> int8 quantization -> dev evaluation
# (fp32 vs int8, speed) -> models/anonymizer-ner/{model.onnx,tokenizer.json,config.json}
# (git-ignored, served by conf/models/anonymizer-ner.yaml), training/metrics.json and the
# metrics section of training/MODEL_CARD.md.
# Env: VENV (default /work/venv-train), ANON_DATA (default /work/shared/data),
#      EXCLUDE (corpora left out of the shipped model, e.g. conll2003),
#      RUNS (scratch, default /tmp/anonymizer-ner-runs), EPOCHS (3), ABLATION=1 also trains the
#      ablation variants (without the casing bit, without dates/synthetic data, without
#      CoNLL-2003) and evaluates them.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-/work/venv-train}
export ANON_DATA=${ANON_DATA:-/work/shared/data}
RUNS=${RUNS:-/tmp/anonymizer-ner-runs}
EPOCHS=${EPOCHS:-3}
OUT=models/anonymizer-ner
NICE="nice -n 15"
export OMP_NUM_THREADS=2 MKL_NUM_THREADS=2

[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q -r training/requirements.txt
PY="$VENV/bin/python"
python3 -m unittest discover training/tests

MAIN_ARGS="--epochs $EPOCHS --date-mode silver --tab-titles ignore --synthetic 1500 --seed 13"
# EXCLUDE=conll2003 builds the shipped model without a corpus (e.g. the research-only one)
[ -z "${EXCLUDE:-}" ] || MAIN_ARGS="$MAIN_ARGS --exclude $EXCLUDE"
$NICE $PY training/train.py --out "$RUNS/main" $MAIN_ARGS --eval-each-epoch
$NICE $PY training/export.py --hf "$RUNS/main/hf" --out "$OUT" --work "$RUNS/main/export"
$NICE $PY training/evaluate.py --onnx "$RUNS/main/export/model_fp32.onnx" --out "$RUNS/main/eval_fp32.json"
$NICE $PY training/evaluate.py --onnx "$OUT/model.onnx" --speed --out "$RUNS/main/eval_int8.json"

if [ "${ABLATION:-0}" = 1 ]; then
  $NICE $PY training/train.py --out "$RUNS/no_casing" $MAIN_ARGS --casing 0
  $NICE $PY training/evaluate.py --hf "$RUNS/no_casing/hf" --out "$RUNS/no_casing/eval_fp32.json"
  $NICE $PY training/train.py --out "$RUNS/plain_casing" --epochs "$EPOCHS" --date-mode ignore --synthetic 0 --seed 13
  $NICE $PY training/evaluate.py --hf "$RUNS/plain_casing/hf" --out "$RUNS/plain_casing/eval_fp32.json"
  $NICE $PY training/train.py --out "$RUNS/no_conll" $MAIN_ARGS --exclude conll2003
  $NICE $PY training/evaluate.py --hf "$RUNS/no_conll/hf" --out "$RUNS/no_conll/eval_fp32.json"
fi

# The full engine on the dev sets through our own eval command, and the Rust tier's
# tests of this model (ignored in CI, which does not build it).
cargo build --release --locked
CI=true cargo test --release --locked --lib our_model -- --ignored
for set in conll2003 wnut17 tab; do
  extra=""; [ "$set" = tab ] && extra="--mask-only"
  target/release/anonymizer eval --config conf/models/anonymizer-ner.yaml \
    --data "$ANON_DATA/dev/${set}_dev.jsonl" \
    --labels "eval/labels/$set.json" $extra > "$RUNS/main/engine_$set.txt"
done

python3 training/make_card.py --runs "$RUNS" --model "$OUT"
echo "done: $OUT"
