#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, ASan+UBSan, coverage) and runs each one
# for a fixed number of inputs from a fixed seed, starting from the bundled
# samples: a crash, leak or UB report in any parser or in the model built from
# it fails the run.  The full winIDEA targets (text1_full, bin_full) build the
# timeline model three times per input (tests/fuzz/fuzz_winidea.h): they run
# a tenth of the inputs; fuzz_mdb (an Access file through libmdb, then
# SQLite) a third, of up to 256 KB (the samples' .mdb twins whole).
# The targets run side by side, one per core.
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
# One target: its seeds, its share of the inputs, and its verdict in
# $corpus/NAME.verdict (the targets run side by side, one per core).
fuzz_one() {
  local target=$1 name=${1##*/fuzz_}
  mkdir -p "$corpus/$name"
  pv_fuzz_seed "$name" "$corpus/$name"
  # a Text1 mapping and its BIN as one input (fuzz_text1.c: the "*BIN*" line)
  if [ "${name%_full}" = text1 ]; then
    for v in v10 v11; do
      { cat "sample-data/rtos-$v.txt"; printf '\n*BIN*\n'; cat "sample-data/rtos-$v.txt.BIN"; } \
        > "$corpus/$name/rtos-$v.pair"
    done
  fi
  local n=$runs opts
  case "$name" in text1_full | bin_full) n=$(( (runs + 9) / 10 )) ;; esac
  # an Access file is 4 KB pages, the samples' twins 150-180 KB: whole
  # seeds (pv_fuzz_options), a third of the inputs (each goes through libmdb and SQLite)
  case "$name" in mdb) n=$(( (runs + 2) / 3 )) ;; esac
  mapfile -t opts < <(pv_fuzz_options "$name")
  local dict=()
  [ -f "tests/fuzz/${name%_full}.dict" ] && dict=(-dict="tests/fuzz/${name%_full}.dict")
  if ASAN_OPTIONS=detect_leaks=1 "$target" -runs="$n" -seed=1 "${opts[@]}" "${dict[@]}" \
       -artifact_prefix="$corpus/$name-" \
       "$corpus/$name" > "$corpus/$name.log" 2>&1; then
    echo "fuzz $name: $n runs, $(grep -o 'cov: [0-9]*' "$corpus/$name.log" | tail -1), no crash" \
      > "$corpus/$name.verdict"
  else
    { echo "fuzz $name: FAILED"; tail -40 "$corpus/$name.log"; } > "$corpus/$name.verdict"
  fi
}
jobs_max=$(nproc)
for target in "$dir"/fuzz_*; do
  [ -x "$target" ] || continue
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  fuzz_one "$target" &
done
wait
status=0
for target in "$dir"/fuzz_*; do
  [ -x "$target" ] || continue
  name=${target##*/fuzz_}
  if [ -f "$corpus/$name.verdict" ]; then
    cat "$corpus/$name.verdict"
    grep -q "^fuzz $name: FAILED" "$corpus/$name.verdict" && status=1
  else
    echo "fuzz $name: FAILED (no verdict)"; status=1
  fi
done
exit $status
