#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, coverage) and runs each one
# for a fixed number of inputs from a fixed seed, starting from the bundled
# samples: a crash, leak or UB report in any parser fails the run.
# Usage: scripts/fuzz-smoke.sh [RUNS]   (the long campaign: scripts/fuzz.sh [SECONDS])
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3000}
dir=build/fuzz
cmake -S . -B "$dir" -DPV_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$(nproc)" >/dev/null
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
. scripts/fuzz-seeds.bash
status=0
for target in "$dir"/fuzz_*; do
  [ -x "$target" ] || continue
  name=${target##*/fuzz_}
  mkdir -p "$corpus/$name"
  pv_fuzz_seed "$name" "$corpus/$name"
  dict=()
  [ -f "tests/fuzz/$name.dict" ] && dict=(-dict="tests/fuzz/$name.dict")
  if ASAN_OPTIONS=detect_leaks=1 "$target" -runs="$runs" -seed=1 -max_len=65536 "${dict[@]}" \
       "$corpus/$name" > "$corpus/$name.log" 2>&1; then
    echo "fuzz $name: $runs runs, $(grep -o 'cov: [0-9]*' "$corpus/$name.log" | tail -1), no crash"
  else
    echo "fuzz $name: FAILED"; tail -40 "$corpus/$name.log"; status=1
  fi
done
exit $status
