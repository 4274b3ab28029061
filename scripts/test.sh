#!/usr/bin/env bash
# Set up (if needed) and run the whole test suite: formatting, lints, every Rust test
# (unit, property and HTTP integration tests against the real binary), and the
# standard-library tests of the training pipeline and of the payload generator. Fails on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite also tests the optional Rampart model (any BERT-style model drops in).
ANONYMIZER_FETCH_RAMPART=1 scripts/setup.sh
cargo fmt --check
cargo clippy --locked --all-targets -- -D warnings
cargo test --locked --all-targets
if [ -d training/tests ]; then
  python3 -m unittest discover training/tests -q
fi
python3 -m unittest discover eval/tests -q
echo "all tests passed"
