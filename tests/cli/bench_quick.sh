#!/usr/bin/env bash
# bench/run.sh --quick works: on small generated data, with the build under
# test, it prints the machine, the load, and every row of its table (profview
# and the reference tools side by side) without a failed command.  Timings
# are never asserted (speed is measured by bench/, not by the tests).
set -euo pipefail
: "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
BENCH_BUILD=$PV_BUILD_DIR BENCH_DATA=$tmp/data BENCH_EVENTS=20000 BENCH_TEXT_EVENTS=20000 BENCH_SHAPE_EVENTS=20000 \
  BENCH_AQ_CALLS=3000 BENCH_AQ_SETS=50 BENCH_AQ_OBJECTS=500 BENCH_AQ_MDB_CALLS=3000 \
  bash "$PV_SOURCE_DIR/bench/run.sh" --quick >"$tmp/out" 2>"$tmp/err" ||
  { echo "FAIL: bench/run.sh --quick exited with $?"; cat "$tmp/err"; fail=1; }
for label in '^machine: .*cores' '^load average: ' 'BIN first screen (cat' 'BIN full index / bare pass, wall (20000 events, medians) *[0-9.]*x' 'BIN full index / bare pass, CPU' 'BIN full index / bare pass, seed 3, 2 tasks, wall / CPU *[-0-9.x]* / [-0-9.x]*' 'BIN full index / bare pass, seed 7, 8 tasks' 'BIN full index / bare pass, seed 11, 3 tasks' 'bench_floor --keep / bench_floor, wall / CPU *[0-9.]*x / [-0-9.x]*' 'full index / bench_floor --keep, wall / CPU *[0-9.]*x / [-0-9.x]*' 'BIN second open from the index cache / bare pass' 'Text1 load / wc -l, wall' 'Text1 second open from the cache / wc -l' '^timed commands: ' \
  'BIN full index peak RSS' 'BIN index on two threads = on one: rtos-bin11-20000  *same' 'BIN index on two threads = on one: rtos-bin11-s7-t8-20000  *same' 'Text1 throughput' \
  '  cat > /dev/null' '  awk: entries per handle' '  sqlite3 .import of the 20000 events as CSV' \
  '  profview export to SQLite ([-0-9.x]* of sqlite3 .import) *[0-9.]* / [0-9.]* s' 'AQTime Function Trace load (info, 3000 calls)' \
  'AQTime peak RSS per call' 'AQTime 50 result sets' 'AQTime first screen (profview DB, first frame, 3000 calls)' \
  'AQTime resource load (info, 500 objects)' 'AQTime refcount load (info, 500 objects)' \
  'AQTime resource peak RSS per object' 'AQTime refcount peak RSS per object' 'TUI p: pin an area' \
  'AQTime 3000 calls: .mdb / SQLite load (info, medians [0-9.]* s / [0-9.]* s) *[-0-9.]* x' \
  'TUI longest lane-building slice' 'TUI worst lane key' 'TUI draw with the lanes fully zoomed out'; do
  grep -q -- "$label" "$tmp/out" || { echo "FAIL: no row '$label'"; fail=1; }
done
if grep -q 'failed\|FAIL' "$tmp/out" "$tmp/err"; then
  echo "FAIL: a benchmark command failed:"
  grep 'failed\|FAIL' "$tmp/out" "$tmp/err"
  fail=1
fi
[ "$fail" -eq 0 ] || { cat "$tmp/out"; }
exit $fail
