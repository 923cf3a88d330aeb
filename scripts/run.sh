#!/usr/bin/env bash
# Installs what is missing, builds, and starts Headroom on its default workspace.
# Extra arguments go to headroom (e.g. --workspace FILE, or a headless verb).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/build.sh
exec ./build/app/headroom "$@"
