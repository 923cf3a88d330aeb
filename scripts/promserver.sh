#!/usr/bin/env bash
# Runs a command beside a private, throw-away Prometheus server holding generated metrics:
#
#   scripts/promserver.sh COMMAND [ARGS...]
#   scripts/promserver.sh --series [GENERATOR-ARGS...] -- COMMAND [ARGS...]
#
# tests/support/make_prom_series.py writes DCGM-exporter and vLLM samples (by default 6 hours
# from 2026-03-02T00:00:00Z every 60 s, 3 replicas of 2 GPUs; after --series, its options such
# as --hours 168 --interval 300 --replicas 64 --gpus-per-replica 8, and --no-csv to skip the
# CSV) into a new temporary folder, both as OpenMetrics text and as a serving metrics CSV.
# promtool turns the OpenMetrics text into TSDB blocks, a Prometheus server is started on them
# on a free TCP port on 127.0.0.1, and COMMAND runs with
#   HEADROOM_TEST_PROMETHEUS=http://127.0.0.1:PORT
#   HEADROOM_TEST_PROMETHEUS_CSV=FOLDER/series.csv   (the same samples; unset with --no-csv)
#   HEADROOM_TEST_PROMETHEUS_START=EPOCH             (the first sample, Unix epoch seconds)
#   HEADROOM_TEST_PROMETHEUS_HOURS=HOURS             (the hours of samples)
# in its environment. The server scrapes nothing and keeps everything (retention 100 years), and
# does not compact the blocks, so the samples stay as written. The server is stopped and its
# folder removed when this script exits, also when COMMAND or the start fails or the script is
# interrupted. Exits with COMMAND's status, or 1 when the server cannot start. As root the
# server runs as the "prometheus" account (or "nobody" when there is none).
set -euo pipefail

usage() {
  echo "usage: $0 [--series [GENERATOR-ARGS...] --] COMMAND [ARGS...]" >&2
  exit 2
}

series_args=()
csv=1
if [ "${1:-}" = "--series" ]; then
  shift
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case "$1" in
      --no-csv) csv=0 ;;
      --om|--om=*|--om-dir|--om-dir=*|--csv|--csv=*|--range|--range=*)
        echo "promserver.sh: $1 is chosen by this script" >&2
        exit 2 ;;
      *) series_args+=("$1") ;;
    esac
    shift
  done
  [ $# -gt 0 ] || usage
  shift
fi
[ $# -gt 0 ] || usage

for tool in prometheus promtool; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "promserver.sh: $tool is not installed (install the prometheus package, e.g. with" \
         "scripts/deps.sh)" >&2
    exit 1
  fi
done
generator="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/support/make_prom_series.py"

dir=$(mktemp -d "${TMPDIR:-/tmp}/headroom-prom.XXXXXX")
chmod 755 "$dir"
as_owner=()
owner=""
if [ "$(id -u)" -eq 0 ]; then
  owner=prometheus
  id -u "$owner" >/dev/null 2>&1 || owner=nobody
  chown "$owner" "$dir"
  # setpriv, not runuser: it becomes the server itself, where runuser stays as a parent that
  # holds a signal back for 2 s before passing it on.
  as_owner=(setpriv --reuid="$owner" --regid="$(id -g "$owner")" --init-groups)
fi

server=""   # the Prometheus process
cleanup() {
  local status=$?
  if [ -n "$server" ]; then
    kill -TERM "$server" 2>/dev/null || true
    for _ in $(seq 50); do
      kill -0 "$server" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$dir"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A free port: the kernel picks one for a socket bound to port 0.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# The samples, and the blocks made of them: one OpenMetrics file per 2-hour block, as promtool
# reads its whole input once per block it cuts; a promtool per core. Written as this user, then
# handed to the owner.
csv_args=()
[ "$csv" -eq 0 ] || csv_args=(--csv "$dir/series.csv")
if ! python3 "$generator" --om-dir "$dir/om" "${csv_args[@]}" --range "$dir/range" \
     "${series_args[@]}" 2>"$dir/series.log"; then
  echo "promserver.sh: make_prom_series.py failed:" >&2
  cat "$dir/series.log" >&2
  exit 1
fi
read -r first_epoch hours <"$dir/range"
mkdir "$dir/data"
if ! printf '%s\0' "$dir"/om/*.om | xargs -0 -P "$(nproc)" -I{} \
     promtool tsdb create-blocks-from openmetrics -q {} "$dir/data" >"$dir/promtool.log" 2>&1; then
  echo "promserver.sh: promtool could not make blocks of the samples:" >&2
  cat "$dir/promtool.log" >&2
  exit 1
fi
rm -rf "$dir/om"

# No scrape configuration: the server only serves the blocks.
cat >"$dir/prometheus.yml" <<'EOF'
global:
  scrape_interval: 1m
  evaluation_interval: 1m
EOF
[ -z "$owner" ] || chown -R "$owner" "$dir/data" "$dir/prometheus.yml"

# min = max block duration turns compaction off.
"${as_owner[@]}" prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" \
  --storage.tsdb.retention.time=100y --storage.tsdb.min-block-duration=2h \
  --storage.tsdb.max-block-duration=2h --web.listen-address="127.0.0.1:$port" \
  </dev/null >"$dir/server.log" 2>&1 &
server=$!

# Ready once the blocks are open: /-/ready answers 200. Up to 60 s; not at all if it exits.
ready=0
for _ in $(seq 120); do
  if python3 - "http://127.0.0.1:$port/-/ready" <<'EOF' 2>/dev/null; then
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
EOF
    ready=1
    break
  fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.5
done
if [ "$ready" -ne 1 ]; then
  echo "promserver.sh: the Prometheus server did not start:" >&2
  cat "$dir/server.log" >&2 || true
  exit 1
fi

export HEADROOM_TEST_PROMETHEUS="http://127.0.0.1:$port"
if [ "$csv" -eq 1 ]; then
  export HEADROOM_TEST_PROMETHEUS_CSV="$dir/series.csv"
else
  unset HEADROOM_TEST_PROMETHEUS_CSV
fi
export HEADROOM_TEST_PROMETHEUS_START="$first_epoch"
export HEADROOM_TEST_PROMETHEUS_HOURS="$hours"
echo "promserver.sh: Prometheus at $HEADROOM_TEST_PROMETHEUS (folder $dir)" >&2
set +e
"$@"
status=$?
set -e
exit "$status"
