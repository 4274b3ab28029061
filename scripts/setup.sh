#!/usr/bin/env bash
# One-time (idempotent) set-up of a fresh Debian 12 machine with Rust and Python 3:
# the system packages the build needs. Safe to run again; does nothing when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v cmake >/dev/null 2>&1 || need+=(cmake)   # pingora's zlib-ng build
command -v cc >/dev/null 2>&1 || need+=(build-essential)
command -v make >/dev/null 2>&1 || need+=(make)   # jemalloc's build (tikv-jemalloc-sys)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)   # the shared session store's tests
command -v openssl >/dev/null 2>&1 || need+=(openssl)   # certificates for the rediss:// test
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}" >&2
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}" >/dev/null
fi

# Real Python clients the tests drive (official SDKs, Schemathesis): a venv at .venv/,
# reinstalled only when tests/clients/requirements.txt changes.
req=tests/clients/requirements.txt
if [ -f "$req" ] && ! cmp -s "$req" .venv/.installed 2>/dev/null; then
  echo "setup: installing the Python test clients into .venv/" >&2
  python3 -m venv .venv
  .venv/bin/pip install -q --disable-pip-version-check -r "$req"
  cp "$req" .venv/.installed
fi
# The MCP SDK's 2.x line has the 1.x line's package name: a venv of its own.
req=tests/clients/requirements-mcp2.txt
if [ -f "$req" ] && ! cmp -s "$req" .venv-mcp2/.installed 2>/dev/null; then
  echo "setup: installing the MCP 2.x test client into .venv-mcp2/" >&2
  python3 -m venv .venv-mcp2
  .venv-mcp2/bin/pip install -q --disable-pip-version-check -r "$req"
  cp "$req" .venv-mcp2/.installed
fi

# mdBook for the documentation build (`mdbook build docs` in scripts/test.sh), pinned, from
# crates.io; skipped when that version is already on the PATH. Without its file watcher
# and web server, which only `mdbook serve` needs: about 1.5 minutes on 2 cores.
MDBOOK_VERSION=0.5.4
if [ "$(mdbook --version 2>/dev/null)" != "mdbook v$MDBOOK_VERSION" ]; then
  echo "setup: installing mdbook $MDBOOK_VERSION" >&2
  if ! cargo install --quiet --locked --version "$MDBOOK_VERSION" --no-default-features --features search mdbook; then
    # CI must build the book; elsewhere the rest of the set-up still helps.
    [ "${CI:-}" = true ] && exit 1
    echo "setup: mdbook could not be installed; scripts/test.sh will skip the book" >&2
  fi
fi

mkdir -p models

# Third-party model files: ONNX Runtime, and Rampart when ANONYMIZER_FETCH_RAMPART=1
# (our own model is tracked in git).
if [ -x scripts/fetch-models.sh ]; then
  scripts/fetch-models.sh
fi
