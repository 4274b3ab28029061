#!/usr/bin/env bash
# What every corrective rule adds and removes on every dev set, the clinical notes, the
# payload set, the probe texts (eval/probes/) and the texts of twelve languages
# (eval/multilingual/), with the default engine and without its
# model tier, as JSON files under eval/results/by_rule/, each with the commit it was
# measured at. Needs a release build (cargo build --release) and ../shared/data/dev.
#
#   bash eval/by_rule.sh            # all sets
#   jq '.rules[] | select(.adds + .removes + .rescores == 0) | .rule' eval/results/by_rule/*.json
set -euo pipefail
cd "$(dirname "$0")/.."
dev="${ANONYMIZER_DEV_DATA:-../shared/data/dev}"
bin=target/release/anonymizer
out=eval/results/by_rule
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
commit="$(git rev-parse HEAD)"
[[ -z "$(git status --porcelain -- src)" ]] || commit="$commit+dirty"

python3 eval/clinical/build.py > "$tmp/clinical.jsonl"
python3 eval/payloads.py --data "$dev" --out "$tmp/payload.jsonl" > /dev/null
python3 eval/marked.py eval/probes/*.txt > "$tmp/probes.jsonl"
python3 eval/marked.py eval/multilingual/*.txt > "$tmp/multilingual.jsonl"

# The same engine without its model tier (`model.enabled: false`), where the rules act on
# the rule tiers' spans alone: a rule with no effect on either may go.
python3 - conf/anonymizer.yaml "$tmp/rules_only.yaml" <<'PY'
import sys
lines, inside = [], False
for line in open(sys.argv[1]).read().split("\n"):
    if line and not line[0].isspace() and not line.startswith("#"):
        inside = line.startswith("model:")
    if inside and line.startswith("  enabled:"):
        line = "  enabled: false"
    lines.append(line)
open(sys.argv[2], "w").write("\n".join(lines))
PY

run() { # name, eval arguments...
    local name=$1; shift
    "$bin" eval "$@" --by-rule --json > "$tmp/$name.json"
    python3 - "$commit" "$tmp/$name.json" "$out/$name.json" <<'PY'
import json, sys
commit, src, dst = sys.argv[1:]
report = json.load(open(src))
report = {"commit": commit, **report}
report["data"] = report["data"].rsplit("/", 1)[-1]
json.dump(report, open(dst, "w"), indent=1)
open(dst, "a").write("\n")
PY
    echo "$out/$name.json"
}

for engine in default rules_only; do
    config=conf/anonymizer.yaml suffix=""
    if [[ $engine == rules_only ]]; then config="$tmp/rules_only.yaml" suffix=".rules_only"; fi
    run "conll2003$suffix" --config "$config" --data "$dev/conll2003_dev.jsonl" --labels eval/labels/conll2003.json
    run "wnut17$suffix" --config "$config" --data "$dev/wnut17_dev.jsonl" --labels eval/labels/wnut17.json
    run "tab$suffix" --config "$config" --data "$dev/tab_dev.jsonl" --labels eval/labels/tab.json --mask-only
    run "clinical$suffix" --config "$config" --data "$tmp/clinical.jsonl" --labels eval/labels/clinical.json
    run "payload$suffix" --config "$config" --data "$tmp/payload.jsonl" --labels eval/labels/payload.json --mask-only
    run "probes$suffix" --config "$config" --data "$tmp/probes.jsonl"
    run "multilingual$suffix" --config "$config" --data "$tmp/multilingual.jsonl"
done
