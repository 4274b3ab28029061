#!/usr/bin/env bash
# Our model tier on the AVX2-only kernel path (no AVX-512, no VNNI) on a machine that has
# AVX-512 VNNI: valgrind presents a synthetic Haswell CPUID to the program it runs, so
# ONNX Runtime's MLAS picks the kernels it would pick on an AVX2-only CPU (u8 x s8 through
# vpmaddubsw) and valgrind executes them instruction by instruction. Prints markdown:
# where it ran, quality native vs AVX2 path on the same dev documents, instructions per
# 1,000 characters on both paths, and an estimated AVX2-only throughput. See benches/avx2/README.md.
#   bash benches/avx2/run.sh
# Needs: valgrind >= 3.19 (none + callgrind), perf (linux-perf; user-space instruction
# counting allowed), gcc, a release build (target/release/anonymizer) and
# models/onnxruntime. Installs nothing. Took 46 min on a 2-core machine (busy at first).
# Env: ANON_DATA (default /work/shared/data), CONLL_DOCS / WNUT_DOCS / TAB_DOCS (first N
#      documents of each dev set for quality; default 30 / 500 / 8, ~35,000 characters
#      each, 9-20 min each under valgrind), ROUNDS (native speed, best of; default 3),
#      MODEL_DIR (a model folder other than the default's, e.g. a candidate student),
#      QUALITY=0 (skip the quality section: work and throughput only, 2.5-4 min).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=target/release/anonymizer
DEV="${ANON_DATA:-/work/shared/data}/dev"
CONLL_DOCS="${CONLL_DOCS:-30}" WNUT_DOCS="${WNUT_DOCS:-500}" TAB_DOCS="${TAB_DOCS:-8}"
ROUNDS="${ROUNDS:-3}"
NICE="nice -n 10"
for tool in valgrind perf gcc; do
  command -v "$tool" >/dev/null || { echo "needs $tool (see benches/avx2/README.md)" >&2; exit 1; }
done
[ -x "$BIN" ] || { echo "needs $BIN: cargo build --release --locked" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS

# --- Where it ran: CPUID as the program sees it, natively and under valgrind ----------
cat > "$tmp/cpu.c" <<'C'
#include <cpuid.h>
#include <immintrin.h>
#include <stdio.h>
#include <string.h>
/* vpmaddubsw adds two u8*s8 products into a saturating 16-bit sum: 255*127*2 = 64770 */
__attribute__((target("avx2"))) static int maddubs(void) {
  __m256i a = _mm256_set1_epi8((char)255), b = _mm256_set1_epi8(127);
  return (short)_mm256_extract_epi16(_mm256_maddubs_epi16(a, b), 0);
}
int main(void) {
  unsigned r[4], brand[12] = {0};
  char vendor[13] = {0};
  __cpuid(0, r[0], r[1], r[2], r[3]);
  memcpy(vendor, &r[1], 4); memcpy(vendor + 4, &r[3], 4); memcpy(vendor + 8, &r[2], 4);
  for (unsigned i = 0; i < 3; i++)
    __cpuid(0x80000002 + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2], brand[4 * i + 3]);
  char name[49] = {0};
  memcpy(name, brand, 48);
  __builtin_cpu_init();
#define YN(f) (__builtin_cpu_supports(f) ? "yes" : "no")
  int avx2 = __builtin_cpu_supports("avx2");
  printf("%s | %s | %s | %s | %s | %s | %s | ", name, vendor, YN("avx2"), YN("avx512f"),
         YN("avx512vnni"), YN("avxvnni"), YN("amx-int8"));
  if (avx2) printf("%d |\n", maddubs()); else printf("n/a |\n");
  return 0;
}
C
gcc -O1 -o "$tmp/cpu" "$tmp/cpu.c"
echo "## Where it ran"
echo
echo "| run | CPU (CPUID brand string) | vendor | avx2 | avx512f | avx512_vnni | avx_vnni | amx_int8 | vpmaddubsw(255, 127) pair sum (exact: 64770) |"
echo "|---|---|---|---|---|---|---|---|---:|"
echo "| native | $("$tmp/cpu")"
echo "| valgrind $(valgrind --version | sed 's/valgrind-//') | $(valgrind -q "$tmp/cpu")"
echo
echo "(/proc/cpuinfo: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //'), $(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg))"
echo

# --- Configs: the default config with the model on one thread (valgrind runs a program's
# threads one at a time, and spinning pool threads would add instructions natively too),
# no inference deadline (valgrind is ~500x slower); rules only; the shipped default. ----
path_line=""
[ -z "${MODEL_DIR:-}" ] || path_line="  path: $MODEL_DIR\n"
printf "model:\n  threads: 1\n  inference_timeout_ms: 86400000\n$path_line" > "$tmp/model1.yaml"
printf 'model:\n  enabled: false\n' > "$tmp/rules.yaml"
printf 'logging:\n  level: warn\n' > "$tmp/shipped.yaml"
[ -z "$path_line" ] || printf "model:\n$path_line" >> "$tmp/shipped.yaml"

# eval output -> "docs chars tp fp fn prec recall f1 char_recall chars_per_s"
parse() {
  awk '/ documents, .* characters/ {d=$2; c=$4}
       /^micro \(gold labels\)/ {tp=$4; fp=$5; fn=$6; p=$7; r=$8; f=$9}
       /^character recall/ {cr=$3}
       /^speed/ {s=$2}
       END {print d, c, tp, fp, fn, p, r, f, cr, s}' "$1"
}

# --- Quality: the shipped int8 model, same documents, native vs AVX2 path -------------
model="${MODEL_DIR:-models/anonymizer-ner}"
[ "${QUALITY:-1}" = 0 ] || {
echo "## Quality of the int8 model ($model), native vs AVX2-only kernel path"
echo
echo "| dev set (first N docs) | docs | chars | native P / R / F1 (tp fp fn) | AVX2 path P / R / F1 (tp fp fn) | ΔF1 | Δ char recall | valgrind wall |"
echo "|---|---:|---:|---|---|---:|---:|---:|"
}
for set in conll2003 wnut17 tab; do
  case $set in conll2003) n=$CONLL_DOCS ;; wnut17) n=$WNUT_DOCS ;; tab) n=$TAB_DOCS ;; esac
  head -n "$n" "$DEV/${set}_dev.jsonl" > "$tmp/$set.jsonl"
  [ "${QUALITY:-1}" = 0 ] && continue
  extra=()
  [ "$set" = tab ] && extra=(--mask-only)
  args=(eval --config "$tmp/model1.yaml" --data "$tmp/$set.jsonl" --labels "eval/labels/$set.json" "${extra[@]}")
  $NICE "$BIN" "${args[@]}" > "$tmp/$set.native"
  t0=$SECONDS
  $NICE valgrind --tool=none -q "$BIN" "${args[@]}" > "$tmp/$set.avx2"
  wall=$((SECONDS - t0))
  read -r d c tp fp fn p r f cr _ < <(parse "$tmp/$set.native")
  read -r d2 c2 tp2 fp2 fn2 p2 r2 f2 cr2 _ < <(parse "$tmp/$set.avx2")
  [ "$d $c" = "$d2 $c2" ] || { echo "document counts differ: $d/$c vs $d2/$c2" >&2; exit 1; }
  awk -v s="$set" -v n="$n" -v d="$d" -v c="$c" -v w="$wall" \
    -v a="$p / $r / $f ($tp $fp $fn)" -v b="$p2 / $r2 / $f2 ($tp2 $fp2 $fn2)" \
    -v f="$f" -v f2="$f2" -v cr="$cr" -v cr2="$cr2" \
    'BEGIN {printf "| %s (%s) | %d | %d | %s | %s | %+.3f | %+.3f | %d s |\n", s, n, d, c, a, b, f2 - f, cr2 - cr, w}'
done
echo

# --- Work: instructions natively (perf) and on the AVX2 path (callgrind's Ir), for a
# small mixed text and for a three-character one (start-up: loading ONNX Runtime and the
# model), with the model and rules only; per 1,000 characters of the difference. --------
{ head -n 2 "$DEV/conll2003_dev.jsonl"; head -n 30 "$DEV/wnut17_dev.jsonl"; head -n 1 "$DEV/tab_dev.jsonl"; } > "$tmp/work.jsonl"
echo '{"id": "tiny", "text": "Hi.", "entities": []}' > "$tmp/tiny.jsonl"
native_instr() {  # CONFIG DATA -> fewest user-space instructions of 3 runs (all threads)
  for _ in 1 2 3; do
    $NICE perf stat -x, -e instructions:u -o "$tmp/perf.txt" "$BIN" eval --config "$1" --data "$2" > /dev/null
    awk -F, '/instructions/ {print $1}' "$tmp/perf.txt"
  done | sort -n | head -1
}
avx2_instr() {  # CONFIG DATA -> callgrind's total Ir
  $NICE valgrind --tool=callgrind -q --callgrind-out-file="$tmp/cg.out" "$BIN" eval --config "$1" --data "$2" > /dev/null
  awk '/^(summary|totals):/ {n=$2} END {print n}' "$tmp/cg.out"
  rm -f "$tmp/cg.out"
}
work_chars=$("$BIN" eval --config "$tmp/rules.yaml" --data "$tmp/work.jsonl" | awk '/ documents, / {print $4}')
tiny_chars=3
declare -A I
for where in native avx2; do
  for cfg in model1 rules; do
    for data in tiny work; do
      I[$where.$cfg.$data]=$(${where}_instr "$tmp/$cfg.yaml" "$tmp/$data.jsonl")
    done
  done
done
per_k() {  # WHERE CONFIG -> instructions per 1,000 characters beyond start-up
  awk -v w="${I[$1.$2.work]}" -v t="${I[$1.$2.tiny]}" -v c="$work_chars" -v c0="$tiny_chars" \
    'BEGIN {printf "%.0f", (w - t) * 1000 / (c - c0)}'
}
eng_n=$(per_k native model1) eng_a=$(per_k avx2 model1)
rul_n=$(per_k native rules) rul_a=$(per_k avx2 rules)
mod_n=$((eng_n - rul_n)) mod_a=$((eng_a - rul_a))
echo "## Work: instructions per 1,000 characters ($work_chars characters: CoNLL dev docs 1-2, WNUT dev 1-30, TAB dev 1; model on 1 thread)"
echo
echo "| what | native (perf stat -e instructions:u) | AVX2 path (callgrind Ir) | AVX2 / native |"
echo "|---|---:|---:|---:|"
row() { awk -v w="$1" -v a="$2" -v b="$3" 'BEGIN {printf "| %s | %.1f M | %.1f M | %.2f× |\n", w, a / 1e6, b / 1e6, b / a}'; }
row "full engine (rules + model)" "$eng_n" "$eng_a"
row "model (full engine − rules only)" "$mod_n" "$mod_a"
row "rules only" "$rul_n" "$rul_a"
awk -v a="${I[native.model1.tiny]}" -v b="${I[avx2.model1.tiny]}" \
  'BEGIN {printf "| start-up with the model, whole process on a 3-character text (not per 1,000 chars) | %.2f G | %.2f G | %.2f× |\n", a / 1e9, b / 1e9, b / a}'
echo

# --- Throughput: measured natively (the eval's detection time, best of ROUNDS), and the
# AVX2-only estimate from the engine's instruction ratio. ----------------------------
cat "$tmp/conll2003.jsonl" "$tmp/wnut17.jsonl" "$tmp/tab.jsonl" > "$tmp/all.jsonl"
best_speed() {  # CONFIG -> best chars/s of ROUNDS
  for _ in $(seq "$ROUNDS"); do
    $NICE "$BIN" eval --config "$1" --data "$tmp/all.jsonl" | awk '/^speed/ {print $2}'
  done | sort -n | tail -1
}
all_chars=$("$BIN" eval --config "$tmp/rules.yaml" --data "$tmp/all.jsonl" | awk '/ documents, / {print $4}')
s2=$(best_speed "$tmp/shipped.yaml") s1=$(best_speed "$tmp/model1.yaml")
echo "## Throughput, full engine in process (anonymizer eval; the $all_chars characters of the quality subsets, best of $ROUNDS)"
echo
echo "| model threads | measured native (AVX-512 VNNI) | **estimate** AVX2-only: native × native/AVX2 instructions (assumes equal instructions per cycle) |"
echo "|---|---:|---:|"
for t in 2 1; do
  s=$([ "$t" = 2 ] && echo "$s2" || echo "$s1")
  awk -v t="$t" -v s="$s" -v n="$eng_n" -v a="$eng_a" \
    'BEGIN {printf "| %s%s | %d chars/s | ~%d chars/s |\n", t, (t == 2 ? " (shipped)" : ""), s, s * n / a}'
done
echo
echo "(total runtime $((SECONDS - start)) s; load average at end: $(cut -d' ' -f1-3 /proc/loadavg))"
