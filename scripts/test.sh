#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (engine, store, UI
# offscreen, CLI end to end). Fails if any suite registered no tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure --timeout 300
