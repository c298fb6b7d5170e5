#!/usr/bin/env bash
# Regenerates the generated winIDEA samples (docs/sample-data.md).
#   sample-data/regen.sh [GENERATOR [OUTDIR]]
# GENERATOR defaults to build/pv_gen_winidea, OUTDIR to sample-data/.
# seed-example.txt is typed in by hand and is not touched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gen=${1:-$here/../build/pv_gen_winidea}
out=${2:-$here}
if [ ! -x "$gen" ]; then
  echo "regen.sh: generator $gen not found: build first (cmake --build build)" >&2
  exit 1
fi
mkdir -p "$out"
# The main sample: Text1 with a TIMELINE (W on 2xxxxxxx for state changes).
"$gen" --seed 1 --tasks 3 --events 3000 --format text -o "$out/rtos.txt"
# %CONTEXT% in the TIMELINE, state changes as E on 3xxxxxxx.
"$gen" --seed 2 --tasks 3 --events 2000 --format text-ctx -o "$out/rtos-ctx.txt"
# Text1 mapping + statistics, BIN v1.0 timeline beside it.
"$gen" --seed 3 --tasks 4 --events 2000 --format bin10 -o "$out/rtos-v10.txt"
# Text1 mapping + statistics (CRLF), BIN v1.1 timeline beside it.
"$gen" --seed 4 --tasks 2 --events 2000 --format bin11 -o "$out/rtos-v11.txt"
