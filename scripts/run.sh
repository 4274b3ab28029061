#!/usr/bin/env bash
# Set up (if needed), build in release mode and serve conf/anonymizer.yaml.
# Extra arguments go to the binary, e.g. `scripts/run.sh --config other.yaml`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release --locked
exec target/release/anonymizer "$@"
