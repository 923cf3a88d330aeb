#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite (engine, store, UI
# offscreen, CLI end to end; the store suite a second time, and the team-server CLI tests,
# against a private PostgreSQL server that scripts/pgserver.sh starts and removes; the
# Prometheus pull tests against a private Prometheus server that scripts/promserver.sh starts
# on generated metrics and removes), then every importer fuzz target for a short fixed time
# (scripts/fuzz.sh, in build-fuzz/), then the engine and store suites under ASan and UBSan
# (scripts/sanitize.sh, same folder). Fails if any suite registered no tests, any test fails,
# a sanitizer reports or a fuzz target finds anything, and when the PostgreSQL or Prometheus
# server cannot start (the server tests never skip). HEADROOM_FUZZ_SECONDS sets the time per
# fuzz target (default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
bash scripts/pgserver.sh bash scripts/promserver.sh ctest --test-dir build --output-on-failure --timeout 300
bash scripts/fuzz.sh --seconds "${HEADROOM_FUZZ_SECONDS:-15}"
bash scripts/sanitize.sh
