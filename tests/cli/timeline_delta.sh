#!/usr/bin/env bash
# The timeline's `delta` in `profview cat` (docs/cli.md, docs/model.md
# "Columns"): the time since the previous row *written*.  Without a
# selection that is the previous event of the recording; with --context,
# --filter or --sort it is the previous row of the selection.  Every
# expected delta is computed here from the times of the rows cat prints.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
# the hand-written two-context recording of the screen tests, and a sample
rec=$src/tests/screen/data/two-contexts.txt
rtos=$src/sample-data/rtos.txt

# check NAME FILE: the delta column (3rd) of every row is its time (2nd)
# minus the time of the row printed before it; empty on the first row
check() {
  if ! awk -F'\t' 'NR == 1 { next }
        NR == 2 { if ($3 != "") { print "row " NR ": delta " $3 ", want none"; bad = 1 } prev = $2; next }
        { if ($3 != $2 - prev) { print "row " NR ": delta " $3 ", want " $2 - prev; bad = 1 } prev = $2 }
        END { if (NR < 3) { print "only " NR - 1 " rows"; bad = 1 } exit bad }' "$2"; then
    echo "FAIL: $1"; head -5 "$2"; fail=1
  else
    echo "ok: $1"
  fi
}

cols=--columns=index,time,delta
"$pv" cat "$rec" --view timeline $cols > "$tmp/all"
check "all events: from the previous event" "$tmp/all"
"$pv" cat "$rec" --view timeline $cols --filter 'context = T1' > "$tmp/t1"
check "--filter: from the previous row shown" "$tmp/t1"
# ... which differs from the recording's previous event (T2 and data rows are hidden)
grep -q $'^10\t900\t400$' "$tmp/t1" || { echo "FAIL: event 10 after the filter"; cat "$tmp/t1"; fail=1; }
"$pv" cat "$rec" --view timeline $cols --context T2 > "$tmp/t2"
check "--context: from the previous row of the context" "$tmp/t2"
"$pv" cat "$rec" --view timeline $cols --filter 'event = W' --limit 3 > "$tmp/w"
check "--filter with --limit" "$tmp/w"
"$pv" cat "$rtos" --view timeline $cols --filter 'name ~ /CAN/' > "$tmp/can"
check "a sample, filtered by name" "$tmp/can"
# a sort: the row above, earlier or later (negative)
"$pv" cat "$rec" --view timeline $cols --sort name,time > "$tmp/sorted"
check "--sort: from the row above, whatever its time" "$tmp/sorted"
grep -q $'\t-' "$tmp/sorted" || { echo "FAIL: a sort against time gives negative deltas"; fail=1; }
# the filter itself tests the view's own delta (since the previous event of
# the recording): event 10 (900 ns) follows event 9 (800 ns) by 100 ns
"$pv" cat "$rec" --view timeline $cols --filter 'delta = 100 && context = T1' > "$tmp/f"
grep -q $'^10\t900\t' "$tmp/f" || { echo "FAIL: the filter reads the recording's delta"; cat "$tmp/f"; fail=1; }
exit $fail
