#!/usr/bin/env bash
# Builds the importer fuzz targets (clang-14, libFuzzer, ASan + UBSan) in build-fuzz/ and runs
# each for a fixed time; fails on any finding (crash, sanitizer report, leak, timeout, out of
# memory). The corpus grows in build-fuzz/corpus/<target>/ from run to run; findings are kept
# in build-fuzz/findings/<target>/ (reproduce one: build-fuzz/tests/fuzz/<target> FILE).
#
#   scripts/fuzz.sh                      every target, 20 s each
#   scripts/fuzz.sh --seconds 600        longer, locally
#   scripts/fuzz.sh fuzz_csv_telemetry   one target (or several)
#   scripts/fuzz.sh --build-only         build and seed, run nothing
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=20
build_only=0
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="$2"; shift 2 ;;
    --seconds=*) seconds="${1#*=}"; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done

all_targets=(fuzz_azure_trace fuzz_mooncake_trace fuzz_alibaba fuzz_csv_demand fuzz_csv_series
             fuzz_csv_telemetry fuzz_ratecard_csv fuzz_catalog_json fuzz_workload_json
             fuzz_training_json fuzz_scenario_json fuzz_focus_csv fuzz_step_times fuzz_metrics_csv
             fuzz_server_url fuzz_bench_json)
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

build="${HEADROOM_FUZZ_BUILD:-build-fuzz}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DHEADROOM_FUZZ=ON "${launcher[@]}" >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]}"

seeds="$build/seeds"
rm -rf "$seeds"
python3 tests/fuzz/make_seeds.py "$seeds"
[ "$build_only" -eq 0 ] || exit 0

# Sanitizer reports end the run; leaks are findings too.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

failed=()
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  findings="$build/findings/$target"
  log="$build/logs/$target.log"
  mkdir -p "$corpus" "$findings" "$(dirname "$log")"
  seed_dir="$seeds/$target"
  [ -d "$seed_dir" ] || seed_dir=""
  # -timeout: one input taking 10 s is a finding; -rss_limit_mb: so is using 2 GB.
  if "$build/tests/fuzz/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 -artifact_prefix="$findings/" "$corpus" ${seed_dir:+"$seed_dir"} \
       >"$log" 2>&1; then
    runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz.sh: $target: $runs runs in ${seconds} s, no findings"
  else
    echo "fuzz.sh: $target: FINDING (log $log, input in $findings/)" >&2
    grep -E -m5 'ERROR|SUMMARY|runtime error|broken promise|Test unit written' "$log" >&2 || tail -20 "$log" >&2
    # The input itself, so that a finding on a clean clone (whose folder is gone) can be
    # reproduced from the CI log alone.
    for input in "$findings"/crash-* "$findings"/leak-* "$findings"/timeout-* "$findings"/oom-*; do
      [ -f "$input" ] || continue
      echo "fuzz.sh: $(basename "$input") as base64: $(head -c 4096 "$input" | base64 -w0)" >&2
    done
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in ${failed[*]}" >&2
  exit 1
fi
