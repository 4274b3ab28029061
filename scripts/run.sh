#!/usr/bin/env bash
# Set up (if needed), build in release mode and serve conf/anonymizer.yaml.
# Extra arguments go to the binary, e.g. `scripts/run.sh --config other.yaml`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked
# As in the Dockerfile: glibc's per-thread arenas otherwise keep the memory of large
# buffered answers (RSS crept up under huge upstream answers without it).
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
exec target/release/anonymizer "$@"
