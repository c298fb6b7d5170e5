#!/usr/bin/env bash
# Regenerates the AQTime sample databases and their .expect.tsv records with
# the project's own generator (sample-data/gen/pv_gen_aqtime.c), and their
# Access twins (.mdb, Jet 4) with its writer (sample-data/gen/pv_gen_mdb.c).
#   sample-data/regen-aqtime.sh [BUILD_DIR] [OUT_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-${PV_BUILD_DIR:-$here/../build}}
out=${2:-$here}
if [ ! -x "$build/pv_gen_aqtime" ] || [ ! -x "$build/pv_gen_mdb" ]; then
  cmake -S "$here/.." -B "$build" >/dev/null
  cmake --build "$build" --target pv_gen_aqtime pv_gen_mdb -j2 >/dev/null
fi
"$build/pv_gen_aqtime" "$out"
for s in trace resource refcount; do
  "$build/pv_gen_mdb" "$out/aqtime-$s.db" "$out/aqtime-$s.mdb"
done
