#!/usr/bin/env bash
# What you export is what you saw (docs/export.md "Subsets"): every view of
# every sample and of generated files of each format, filtered to about
# half of its rows, exported to SQLite and read back: `cat` of the export
# equals `cat --filter` of the source byte for byte, the details of the
# kept rows equal the source's, and the export warns only as the source
# did (AQTime subsets whose every view and reference resolve).  The walk
# itself is export_invariant.py.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
src=$PV_SOURCE_DIR/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# generated files of each format, small enough for the sanitizer build
# (the PLIST samples are the PLIST generator's output)
"$PV_BUILD_DIR/pv_gen_aqtime" --scale trace 3000 "$tmp/trace.db"
"$PV_BUILD_DIR/pv_gen_aqtime" --scale resource 200 "$tmp/resource.db"
"$PV_BUILD_DIR/pv_gen_aqtime" --scale refcount 200 "$tmp/refcount.db"
"$PV_BUILD_DIR/pv_gen_winidea" --seed 7 --events 3000 --format text -o "$tmp/gen.txt"
"$PV_BUILD_DIR/pv_gen_winidea" --seed 10 --events 3000 --tasks 3 --format bin11 -o "$tmp/gen11.txt"
# profview's own schema: a whole export read back is a source too
"$PROFVIEW" export "$src/rtos.txt" --format sqlite -o "$tmp/rtos.db"
"$PROFVIEW" export "$src/plist-func-timing.txt" --format sqlite -o "$tmp/timing.db"

mkdir "$tmp/work"
python3 "$PV_SOURCE_DIR/tests/cli/export_invariant.py" "$PROFVIEW" "$tmp/work" \
  "$src"/aqtime-*.db "$src"/rtos.txt "$src"/rtos-ctx.txt "$src"/rtos-v10.txt \
  "$src"/rtos-v11.txt "$src"/seed-example.txt "$src"/plist-*.txt \
  "$tmp"/trace.db "$tmp"/resource.db "$tmp"/refcount.db "$tmp"/gen.txt "$tmp"/gen11.txt "$tmp"/rtos.db "$tmp"/timing.db
