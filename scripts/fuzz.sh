#!/usr/bin/env bash
# The long fuzzing campaign (tests/fuzz/README.md): builds the libFuzzer
# targets (clang, ASan+UBSan, coverage) and runs every target at once, each
# for SECONDS (default 600), under `nice -n 19`, seeded with the sample files
# and with the target's dictionary (tests/fuzz/NAME.dict).  The corpora grow
# in build/fuzz-corpus/NAME (kept between runs); logs go to
# build/fuzz-logs/NAME.log and crashing inputs to build/fuzz-crashes/NAME/.
# At the end it prints, per target, executions/s and edges covered at the
# start and at the end, and fails if any target found a crash, leak or UB.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   (TARGET: text1 text1_full bin bin_full plist plist_text aqtime mdb profview_db cache cache_text1 query yaml)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
dir=build/fuzz
cmake -S . -B "$dir" -DPV_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice cmake --build "$dir" -j2 >/dev/null
. scripts/fuzz-seeds.bash

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for t in "$dir"/fuzz_*; do [ -x "$t" ] && targets+=("${t##*/fuzz_}"); done
fi
pids=()
for name in "${targets[@]}"; do
  corpus=build/fuzz-corpus/$name crashes=build/fuzz-crashes/$name
  mkdir -p "$corpus" "$crashes" build/fuzz-logs
  pv_fuzz_seed "$name" "$corpus"
  dict=()
  [ -f "tests/fuzz/${name%_full}.dict" ] && dict=(-dict="tests/fuzz/${name%_full}.dict")
  mapfile -t opts < <(pv_fuzz_options "$name")
  ASAN_OPTIONS=detect_leaks=1 nice -n 19 "$dir/fuzz_$name" -max_total_time="$seconds" \
      "${opts[@]}" -timeout=30 -rss_limit_mb=1024 -print_final_stats=1 \
      -artifact_prefix="$crashes/" "${dict[@]}" "$corpus" > "build/fuzz-logs/$name.log" 2>&1 &
  pids+=($!)
  echo "fuzz $name: started (pid $!, ${seconds}s, log build/fuzz-logs/$name.log)"
done
# The figures of one target's log: coverage (edges) and executions/s when
# the seed corpus was loaded and at the end.
report() { # NAME
  local log=build/fuzz-logs/$1.log
  local inited first last execs rate
  inited=$(grep -m1 -E '^#[0-9]+[[:space:]]+INITED' "$log" || true)
  first=$(grep -m1 -E '^#[0-9]+.*exec/s: [1-9]' "$log" || true)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1 || true)
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || true)
  echo "fuzz $1: start: $(grep -o 'cov: [0-9]*' <<<"$inited") edges, $(grep -o 'exec/s: [0-9]*' <<<"$first")" \
       "| end: $(grep -o 'cov: [0-9]*' <<<"$last") edges, $(grep -o 'exec/s: [0-9]*' <<<"$last")," \
       "${execs:-?} runs, ${rate:-?} exec/s on average"
}
status=0
for i in "${!targets[@]}"; do
  name=${targets[$i]}
  rc=0
  wait "${pids[$i]}" || rc=$?
  report "$name"
  if [ "$rc" -ne 0 ]; then
    echo "fuzz $name: FAILED (exit $rc); inputs in build/fuzz-crashes/$name/:"
    ls build/fuzz-crashes/"$name"
    grep -m3 -E 'ERROR|runtime error|SUMMARY' "build/fuzz-logs/$name.log" || true
    status=1
  fi
done
exit $status
