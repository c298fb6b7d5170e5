#!/usr/bin/env bash
# Sets up, builds profview twice (a normal build and one with AddressSanitizer
# and UndefinedBehaviorSanitizer, both with -Werror) and runs every test in both;
# then runs every parser's fuzz target briefly (scripts/fuzz-smoke.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
jobs=$(nproc)
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
  if ! ctest --test-dir "$dir" --output-on-failure -j"$jobs"; then
    status=1
  fi
done
echo "== fuzz smoke"
if ! ./scripts/fuzz-smoke.sh; then
  status=1
fi
exit $status
