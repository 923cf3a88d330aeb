#!/usr/bin/env bash
# Builds the engine and store test suites with clang-14, AddressSanitizer and
# UndefinedBehaviorSanitizer (in build-fuzz/, beside the fuzz targets: the instrumented core
# libraries are shared) and runs them. Any sanitizer report fails the test that caused it:
# UBSan findings abort, and LeakSanitizer checks every test process at exit.
#
#   scripts/sanitize.sh            build and run both suites
#   scripts/sanitize.sh -R frag    only the tests whose names match (ctest -R)
set -euo pipefail
cd "$(dirname "$0")/.."

build="${HEADROOM_FUZZ_BUILD:-build-fuzz}"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
CC=clang-14 CXX=clang++-14 cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DHEADROOM_FUZZ=ON "${launcher[@]}" >/dev/null

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export QT_QPA_PLATFORM=offscreen
cmake --build "$build" --parallel "$(nproc)" --target engine_tests store_tests
# A suite that cannot start lists no tests while the build still succeeds: count them first.
cmake -DCTEST="$(command -v ctest)" -DBUILD_DIR="$build" "-DSUITES=engine:250;store:120" \
  -P tests/checkregistration.cmake
ctest --test-dir "$build" --output-on-failure --timeout 600 --no-tests=error "$@"
