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
for path in eval/multilingual/*.txt; do
  lang=$(basename "$path" .txt)
  python3 eval/marked.py "$path" > "$work/$lang.jsonl"
  cat "$work/$lang.jsonl" >> "$work/all.jsonl"
  "$bin" eval --config "$config" --data "$work/$lang.jsonl" --json > "$work/$lang.json"
  "$bin" eval --config "$config" --data "$work/$lang.jsonl" | sed -n 's/^speed *\([0-9]*\) characters.*/\1/p' > "$work/$lang.speed"
done
"$bin" eval --config "$config" --data "$work/all.jsonl" --json > "$work/all.json"
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
rows = sorted(f[:-5] for f in os.listdir(work) if f.endswith(".json") and f != "all.json")
print("| language | documents | character recall | character precision | characters/s |")
print("|---|---:|---:|---:|---:|")
for lang in rows + ["all"]:
    d = json.load(open(os.path.join(work, lang + ".json")))
    speed = open(os.path.join(work, lang + ".speed")).read().strip() if lang != "all" else ""
    print("| %s | %d | %.3f | %.3f | %s |" % (lang, d["documents"], d["character_recall"], d["character_precision"], speed))
PY
