#!/usr/bin/env bash
# Export speed (docs/export.md; not run by the tests): a 10 M-event winIDEA
# timeline (BIN v1.1 + Text1 mapping) exported to SQLite, BIN and Text1,
# beside the references measured in the same run: the sqlite3 shell's
# `.import` of the same timeline rows as CSV, and `cp` of the BIN.
#   bench/export.sh     (BENCH_EXPORT_EVENTS, BENCH_RUNS, BENCH_BUILD as run.sh)
# Each export is also timed net of loading and indexing (`profview info` on
# the same file), since the bars are about writing.
set -euo pipefail
cd "$(dirname "$0")/.."
events=${BENCH_EXPORT_EVENTS:-10000000}
runs=${BENCH_RUNS:-3}
build=${BENCH_BUILD:-build-release}
data=bench/data
out=$data/export-out
mkdir -p "$data" "$out"
echo "== building Release in $build" >&2
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 >/dev/null
pv=$build/profview
command -v sqlite3 >/dev/null || { echo "bench: the sqlite3 shell is needed" >&2; exit 1; }
src=$data/rtos-bin11-$events.txt
if [ ! -s "$src.BIN" ]; then
  echo "== generating $events events (BIN v1.1)" >&2
  "$build/pv_gen_winidea" --seed 1 --tasks 5 --events "$events" --format bin11 -o "$src"
fi
cat "$src" "$src.BIN" >/dev/null

# The machine may be shared: besides wall time, the CPU time (user + system)
# of the run is kept, which other processes do not inflate.
best() { # command...: prints "WALL CPU" of the run with the least CPU time
  local b= bw= t w u s
  for _ in $(seq "$runs"); do
    rm -rf "${out:?}"/*
    /usr/bin/time -f "%e %U %S" -o "$data/.t" "$@" >/dev/null 2>"$data/.err" ||
      { echo "bench: failed: $* ($(head -2 "$data/.err"))" >&2; exit 1; }
    read -r w u s < "$data/.t"
    t=$(awk -v u="$u" -v s="$s" 'BEGIN{printf "%.2f", u + s}')
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN{exit !(a<b)}'; then b=$t bw=$w; fi
  done
  echo "$bw $b"
}
calc() { awk "BEGIN { printf \"%.2f\", $1 }"; }

read -r load_w load < <(best "$pv" info "$src")
echo "== load + index: $load s CPU ($load_w s wall)" >&2

# SQLite: the timeline view, 10 M rows, 10 columns
read -r sq_w sq < <(best "$pv" export "$src" --format sqlite --view timeline -o "$out/t.db")
rows=$events
# the same rows as CSV, imported by the sqlite3 shell (prepared, not timed)
"$pv" cat "$src" --view timeline --format csv >"$data/timeline.csv"
read -r imp_w imp < <(best sqlite3 "$out/imp.db" ".mode csv" ".import $data/timeline.csv timeline")
rm -f "$data/timeline.csv"
# BIN: records (+ mapping) against copying the BIN
read -r bin_w bin < <(best "$pv" export "$src" --format bin -o "$out/b.txt")
read -r cp_w cp_s < <(best cp "$src.BIN" "$out/copy.BIN")
bin_mb=$(calc "$(stat -c %s "$src.BIN") / 1048576")
# Text1: the whole timeline as text
"$pv" export "$src" --format text1 -o "$out/t1.txt" >/dev/null
t1_mb=$(calc "$(stat -c %s "$out/t1.txt") / 1048576")
read -r t1_w t1 < <(best "$pv" export "$src" --format text1 -o "$out/t1.txt")
rm -rf "${out:?}"

net() { calc "$1 - $load"; }
printf '%-52s %9s %9s %12s %16s\n' measure "wall s" "CPU s" "CPU net" "rate (CPU net)"
printf '%-52s %9s %9s %12s %16s\n' "load + index ($events events)" "$load_w" "$load" "" ""
printf '%-52s %9s %9s %12s %16s\n' "SQLite export, timeline view ($rows rows)" "$sq_w" "$sq" "$(net "$sq")" \
  "$(calc "$rows / ($sq - $load) / 1e6") M rows/s"
printf '%-52s %9s %9s %12s %16s\n' "sqlite3 shell .import of the same rows (CSV)" "$imp_w" "$imp" "$imp" \
  "$(calc "$rows / $imp / 1e6") M rows/s"
printf '%-52s %9s %9s %12s %16s\n' "  export / .import speed" "" "" "" \
  "$(calc "$imp / ($sq - $load)") x"
printf '%-52s %9s %9s %12s %16s\n' "BIN export ($bin_mb MB + mapping)" "$bin_w" "$bin" "$(net "$bin")" \
  "$(calc "$bin_mb / ($bin - $load)") MB/s"
printf '%-52s %9s %9s %12s %16s\n' "cp of the BIN" "$cp_w" "$cp_s" "$cp_s" "$(calc "$bin_mb / $cp_s") MB/s"
printf '%-52s %9s %9s %12s %16s\n' "Text1 export ($t1_mb MB)" "$t1_w" "$t1" "$(net "$t1")" \
  "$(calc "$t1_mb / ($t1 - $load)") MB/s"
