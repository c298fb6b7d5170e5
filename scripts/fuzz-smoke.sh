#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, coverage) and runs each one
# for a fixed number of inputs from a fixed seed, starting from the bundled
# samples: a crash, leak or UB report in any parser fails the run.
# Usage: scripts/fuzz-smoke.sh [RUNS]   (longer sessions: run build/fuzz/fuzz_X by hand)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3000}
dir=build/fuzz
cmake -S . -B "$dir" -DPV_FUZZ=ON -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$dir" -j"$(nproc)" >/dev/null
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
seed_files() {
  case "$1" in
    text1) ls sample-data/rtos*.txt sample-data/seed-example.txt ;;
    bin) ls sample-data/*.BIN ;;
    plist) ls sample-data/plist-*.txt ;;
    aqtime) ls sample-data/*.db ;;
    query) ;;
  esac
}
status=0
for target in "$dir"/fuzz_*; do
  [ -x "$target" ] || continue
  name=${target##*/fuzz_}
  mkdir -p "$corpus/$name"
  for f in $(seed_files "$name"); do cp "$f" "$corpus/$name/"; done
  [ "$name" = query ] && printf 'hits > 1k && (name ~ /^a(b|c)$/ || not x like "*y?")' > "$corpus/$name/seed"
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
