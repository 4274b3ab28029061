#!/usr/bin/env bash
# Character recall, precision and speed of the full engine on the hand-written
# multilingual set (eval/multilingual/<lang>.txt, {LABEL|text} marks), per language and
# over all. The set is ours and is never trained on.
#   bash eval/multilingual.sh [CONFIG]        (default conf/anonymizer.yaml; release build)
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-conf/anonymizer.yaml}"
bin=target/release/anonymizer
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# One run per language (and one over all of them): the report's own lines, speed included.
row() {
  "$bin" eval --config "$config" --data "$2" | awk -v lang="$1" -v speed="$3" '
    / documents, / { docs = $2 }
    /^character recall/ { recall = $3 }
    /^character precision/ { precision = $3 }
    /^speed/ { if (speed) rate = $2 }
    END { printf "| %s | %s | %s | %s | %s |\n", lang, docs, recall, precision, rate }'
}
echo "| language | documents | character recall | character precision | characters/s |"
echo "|---|---:|---:|---:|---:|"
for path in eval/multilingual/*.txt; do
  lang=$(basename "$path" .txt)
  python3 eval/marked.py "$path" > "$work/$lang.jsonl"
  cat "$work/$lang.jsonl" >> "$work/all.jsonl"
  row "$lang" "$work/$lang.jsonl" 1
done
row all "$work/all.jsonl" ""
