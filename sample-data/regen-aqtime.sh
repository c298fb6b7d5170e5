#!/usr/bin/env bash
# Regenerates the AQTime sample databases and their .expect.tsv records with
# the project's own generator (sample-data/gen/pv_gen_aqtime.c).
#   sample-data/regen-aqtime.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${PV_BUILD_DIR:-$here/../build}}
out=${2:-$here}
if [ ! -x "$build/pv_gen_aqtime" ]; then
  cmake -S "$here/.." -B "$build" >/dev/null
  cmake --build "$build" --target pv_gen_aqtime -j2 >/dev/null
fi
"$build/pv_gen_aqtime" "$out"
