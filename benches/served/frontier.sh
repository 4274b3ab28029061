#!/usr/bin/env bash
# The model tier's quality/speed frontier on this machine: each point (model, window,
# overlap) served with the default config otherwise; per point the full engine's micro F1
# on the dev sets (`anonymizer eval`) and its served rate with default labels, one
# document a request (run.sh shape b, ours only), beside Presidio measured once in the
# same run. Prints one markdown table; progress goes to stderr.
#   bash benches/served/frontier.sh
# Env: DURATION (seconds per stream, default 10), NO_BUILD=1, ANON_DATA (default
#      /work/shared/data), POINTS (instead of the points below: entries
#      "name|layers|model dir|window|overlap" separated by ";", e.g. a student trained
#      elsewhere beside "shipped (1.1.0)|4|models/anonymizer-ner|128|24"), and run.sh's
#      VENV / VENV_SERVED / PYTHON312.
set -euo pipefail
cd "$(dirname "$0")/../.."
dev="${ANON_DATA:-/work/shared/data}/dev"
bin=target/release/anonymizer
[ "${NO_BUILD:-0}" = 1 ] || cargo build --release --locked -q
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The 6-layer model 1.0.0 the shipped 4-layer student was distilled from, from git.
teacher=73dce75
mkdir -p "$tmp/teacher"
for f in model.onnx tokenizer.json config.json; do
  git show "$teacher:models/anonymizer-ner/$f" > "$tmp/teacher/$f"
done

# name | layers | model dir | window | overlap
points=(
  "shipped (1.1.0)|4|models/anonymizer-ner|128|24"
  "overlap 8|4|models/anonymizer-ner|128|8"
  "no overlap|4|models/anonymizer-ner|128|0"
  "windows of 64|4|models/anonymizer-ner|64|8"
  "teacher (1.0.0)|6|$tmp/teacher|128|24"
)
[ -z "${POINTS:-}" ] || IFS=';' read -r -a points <<< "$POINTS"

config() { # model dir, window, overlap -> a config file
  local out; out=$(mktemp -p "$tmp" config.XXXX.yaml)
  sed -e "s#^  path: models/anonymizer-ner#  path: $1#" \
      -e "s#^  window_tokens: 128#  window_tokens: $2#" \
      -e "s#^  window_overlap_tokens: 24#  window_overlap_tokens: $3#" conf/anonymizer.yaml > "$out"
  grep -q "^  path: $1" "$out" && grep -q "^  window_tokens: $2" "$out" \
    && grep -q "^  window_overlap_tokens: $3" "$out" || { echo "config keys moved" >&2; exit 1; }
  echo "$out"
}

f1() { # config, data, labels, [eval flags] -> micro F1
  "$bin" eval --config "$1" --data "$2" --labels "$3" "${@:4}" --json \
    | python3 -c 'import json,sys; print("%.4f" % json.load(sys.stdin)["micro"]["f1"])'
}

rate() { # run.sh output -> "CoNLL chars/s|mixed chars/s|Presidio CoNLL|Presidio mixed" (1 doc)
  python3 -c '
import re, sys
rows = [l for l in open(sys.argv[1]) if l.startswith("| b.") and "| 1 doc |" in l]
def num(s): return s.replace(",", "")
out = []
for which in ("CoNLL", "mixed"):
    row = next(l for l in rows if which in l).split("|")
    ours = re.search(r"\*\*([\d,]+) chars/s", row[5])
    theirs = re.search(r"([\d,]+) chars/s", row[6])
    out += [num(ours[1]), num(theirs[1]) if theirs else ""]
print("|".join(out))' "$1"
}

echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores | commit $(git rev-parse --short HEAD)"
echo
echo "| point | layers | window / overlap | CoNLL F1 | WNUT F1 | TAB F1 (mask) | CoNLL chars/s | / Presidio | mixed chars/s | / Presidio |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
presidio=""
for point in "${points[@]}"; do
  IFS='|' read -r name layers dir window overlap <<< "$point"
  echo "$name" >&2
  cfg=$(config "$dir" "$window" "$overlap")
  conll=$(f1 "$cfg" "$dev/conll2003_dev.jsonl" eval/labels/conll2003.json)
  wnut=$(f1 "$cfg" "$dev/wnut17_dev.jsonl" eval/labels/wnut17.json)
  tab=$(f1 "$cfg" "$dev/tab_dev.jsonl" eval/labels/tab.json --mask-only)
  # Presidio once, beside the first point; the others against that figure.
  with=0; [ -n "$presidio" ] || with=1
  CONFIG="$cfg" NO_BUILD=1 SHAPES=b PRESIDIO=$with DURATION="${DURATION:-10}" \
    bash benches/served/run.sh > "$tmp/run.txt" 2>"$tmp/run.err" || { cat "$tmp/run.err" >&2; exit 1; }
  IFS='|' read -r ours_c theirs_c ours_m theirs_m <<< "$(rate "$tmp/run.txt")"
  [ -n "$presidio" ] || presidio="$theirs_c|$theirs_m"
  IFS='|' read -r p_c p_m <<< "$presidio"
  ratio() { python3 -c "import sys; print('%.2f' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }
  echo "| $name | $layers | $window / $overlap | $conll | $wnut | $tab | $ours_c | $(ratio "$ours_c" "$p_c")× | $ours_m | $(ratio "$ours_m" "$p_m")× |"
done
echo
echo "Presidio (analyzer + anonymizer, spaCy en_core_web_md), same run: CoNLL ${presidio%|*} chars/s, mixed ${presidio#*|} chars/s, one document a request."
