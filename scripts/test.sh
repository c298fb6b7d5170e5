#!/usr/bin/env bash
# Sets up, builds profview twice (a normal build and one with AddressSanitizer
# and UndefinedBehaviorSanitizer, both with -Werror) and runs every test in both;
# then runs every parser's fuzz target briefly (scripts/fuzz-smoke.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
jobs=$(nproc)
# ctest runs twice as many tests as cores: the screen tests mostly wait for
# tmux, and the long CPU-bound tests count as two jobs each (CMakeLists.txt,
# "The schedule of ctest -j"); PV_TEST_JOBS overrides it.
test_jobs=${PV_TEST_JOBS:-$((jobs * 2))}
status=0
for kind in normal sanitize; do
  dir=build/test-$kind
  flags=(-DPV_WERROR=ON -DPV_CHECKS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
  [ "$kind" = sanitize ] && flags+=(-DPV_SANITIZE=ON -DCMAKE_C_COMPILER=clang)
  echo "== $kind build"
  cmake -S . -B "$dir" "${flags[@]}" >/dev/null
  cmake --build "$dir" -j"$jobs" >/dev/null
  echo "== $kind tests"
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  if ! ctest --test-dir "$dir" --output-on-failure -j"$test_jobs"; then
    status=1
  fi
done
# The winIDEA index's helper thread (docs/winidea-model.md "Speed") under
# ThreadSanitizer: only the index's unit tests (test_timeline_*), which build
# indexes with the helper and without and compare them (about a minute: CI
# stays short); and the viewer's jobs whose call runs on a worker thread
# (test_tui_worker: src/tui/worker.h, :sql and an export; a few seconds).
echo "== thread sanitizer (test_timeline_*, test_tui_worker)"
dir=build/test-tsan
cmake -S . -B "$dir" -DPV_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_C_FLAGS=-fsanitize=thread -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
tsan_tests=()
for src in tests/unit/test_timeline_*.c tests/unit/test_tui_worker.c; do
  tsan_tests+=("$(basename "$src" .c)")
done
cmake --build "$dir" -j"$jobs" --target "${tsan_tests[@]}" >/dev/null
for test in "${tsan_tests[@]}"; do
  if ! TSAN_OPTIONS=halt_on_error=1:abort_on_error=1 "$dir/$test" >"$dir/$test.log" 2>&1; then
    cat "$dir/$test.log"
    echo "thread sanitizer: $test failed"
    status=1
  fi
done
echo "== fuzz smoke"
if ! ./scripts/fuzz-smoke.sh; then
  status=1
fi
exit $status
