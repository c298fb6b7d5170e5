#!/usr/bin/env bash
# Navigation checked against the command line (an independent path through
# the same model): :goto TIME, filter and sort counts, search, history.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
need_sample plist-func-timing.txt
RTOS=$SAMPLES/rtos.txt
PLIST=$SAMPLES/plist-func-timing.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'

# :goto TIME selects the first timeline row at or after TIME.
"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
rows=$(tail -n +2 "$TMP/timeline.tsv" | wc -l)
want=$(awk -F'\t' 'NR > 1 && $3 >= 10000 { print NR - 1; exit }' "$TMP/timeline.tsv")
s=$(pv_screen "$TO_TIMELINE"$'\n:goto 10us<Enter>' "$RTOS" --size 100x30)
expect_contains ":goto 10us" "$s" "row $want/$rows"
# :goto N in a view with an Index column selects that index (the row that
# shows it), not the N-th row; elsewhere (the call trace) the N-th row.
want=$(awk -F'\t' 'NR > 1 && $2 == 42 { print NR - 1; exit }' "$TMP/timeline.tsv")
s=$(pv_screen "$TO_TIMELINE"$'\n:goto 42<Enter>' "$RTOS" --size 100x30)
expect_contains ":goto 42 selects index 42" "$s" "row $want/$rows"
sel=$(awk -F'│' '$2 ~ /^ +42 /' <<<"$s" | sed -n 1p)
[ -n "$sel" ] || fail ":goto 42: index 42 is not on screen"
s=$(pv_screen "$TO_TIMELINE"$'\n\\event == "E"<Enter>\n:goto 1<Enter>' "$RTOS" --size 100x30)
ev1=$(awk -F'\t' 'NR > 1 && $2 == 1 { print $8 }' "$TMP/timeline.tsv")
[ "$ev1" != E ] || fail "test premise: index 1 should not be an entry"
expect_contains ":goto of a filtered-out index says so" "$s" "index 1 is hidden by the filter"
s=$(pv_screen "$TO_TIMELINE"$'\n:goto 99999<Enter>' "$RTOS" --size 100x30)
expect_contains ":goto of a missing index says so" "$s" "no row has index 99999"
s=$(pv_screen "$TO_TIMELINE"$'\n:goto #42<Enter>' "$RTOS" --size 100x30)
expect_contains ":goto #42 is row 42" "$s" "row 42/$rows"
crows=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nG' "$RTOS" --size 100x30 | grep -o 'row [0-9]*/[0-9]*' | cut -d/ -f2)
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\n:goto 5<Enter>' "$RTOS" --size 100x30)
expect_contains ":goto 5 in the call trace (no Index) is row 5" "$s" "row 5/$crows"
s=$(pv_screen "$TO_TIMELINE"$'\nG' "$RTOS" --size 100x30)
expect_contains "G goes to the last row" "$s" "row $rows/$rows"

# t opens the timeline: at a call's own entry event (the E of its handle and
# context at its entry time; another context's event may come first at that
# time), or at an event's index (from the Details of a call).
read -r entry handle thread < <("$PROFVIEW" cat "$RTOS" --view call-trace --columns id,entry_time,handle,thread | awk -F'\t' '$1 == 3 { print $2, $3, $4 }')
want=$(awk -F'\t' -v t="$entry" -v h="$handle" -v c="$thread" \
  'NR > 1 && $3 == t && $6 == h && $4 == c && $8 == "E" { print NR - 1; exit }' "$TMP/timeline.tsv")
first=$(awk -F'\t' -v t="$entry" 'NR > 1 && $3 >= t { print NR - 1; exit }' "$TMP/timeline.tsv")
[ "$want" != "$first" ] || echo "note: call 3's entry is the first event at its time" >&2
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j j t' "$RTOS" --size 100x30)
expect_contains "t from call 3 (entry $entry ns)" "$s" "│ timeline │ row $want/$rows"
index=$("$PROFVIEW" cat "$RTOS" --view call-events --parent 3 --columns index | sed -n 3p)
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j j\nTab j t' "$RTOS" --size 100x30)
expect_contains "t from the second event of call 3 (index $index)" "$s" "│ timeline │ row $((index + 1))/$rows"
s=$(pv_screen $'Shift-Tab j Tab t' "$PLIST" --size 100x30)
expect_contains "t without a time says so" "$s" "this row has no event or time to show in the timeline"

# J / K: the next / previous event of the same area (handle); %: from an
# entry to its exit (same handle, context, depth) and back.  Expected rows
# come from the timeline as `cat` prints it (columns: id index time context
# core handle name event value depth).
next_same=$(awk -F'\t' 'NR == 4 { h = $6 } NR > 4 && $6 == h { print $2; exit }' "$TMP/timeline.tsv")
s=$(pv_screen "$TO_TIMELINE"$'\nj j J' "$RTOS" --size 100x30)
expect_contains "J from event 2" "$s" "row $((next_same + 1))/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\nj j J K' "$RTOS" --size 100x30)
expect_contains "K back to event 2" "$s" "row 3/$rows"
entry=$(awk -F'\t' 'NR > 1 && $8 == "E" && $7 == "CRC_Calc" { print $2; exit }' "$TMP/timeline.tsv")
exit_=$(awk -F'\t' -v e="$entry" 'NR == e + 2 { h = $6; c = $4; d = $10 }
  NR > e + 2 && $6 == h && $4 == c && $10 == d && $8 == "X" { print $2; exit }' "$TMP/timeline.tsv")
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto $entry<Enter>"$'\n%' "$RTOS" --size 100x30)
expect_contains "% from entry $entry to exit $exit_" "$s" "row $((exit_ + 1))/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto $entry<Enter>"$'\n% %' "$RTOS" --size 100x30)
expect_contains "% back to the entry" "$s" "row $((entry + 1))/$rows"

# m / M set markers A and B at the selected event's time; the status bar
# shows both and B - A; :goto A returns to A.
tA=$(awk -F'\t' 'NR == 4 { print $3 }' "$TMP/timeline.tsv")
tB=$(awk -F'\t' 'END { print $3 }' "$TMP/timeline.tsv")
s=$(pv_screen "$TO_TIMELINE"$'\nj j m\nG M' "$RTOS" --size 120x30)
# Times below 1 ms in human units, exact for integer nanoseconds.
human() { awk -v t="$1" 'BEGIN { if (t < 1000) printf "%d ns", t; else printf "%.3f us", t / 1000 }'; }
expect_contains "marker A at event 2 ($tA ns)" "$s" "A $(human "$tA") B $(human "$tB")"
expect_contains "B - A" "$s" "B-A $(human $((tB - tA)))"
s=$(pv_screen "$TO_TIMELINE"$'\nj j m\nG\n:goto A<Enter>' "$RTOS" --size 120x30)
expect_contains ":goto A" "$s" "row 3/$rows"

# :range filters to the events between the markers (inclusive).
n=$(awk -F'\t' -v a="$tA" -v b="$tB" 'NR > 1 && $3 >= a && $3 <= b' "$TMP/timeline.tsv" | wc -l)
s=$(pv_screen "$TO_TIMELINE"$'\nj j m\nG M\n:range<Enter>\nG' "$RTOS" --size 120x30)
expect_contains ":range keeps the events from A to B" "$s" "row $n/$n"
s=$(pv_screen "$TO_TIMELINE"$'\n:range<Enter>' "$RTOS" --size 120x30)
expect_contains ":range without markers says so" "$s" ":range needs both markers"
# In the call trace the same markers keep the calls that begin between
# them (entry_time; a call's time is how long it took; the tree shows
# their callers too, docs/filter.md "Trees"); in a view whose rows have
# no time :range says so.
"$PROFVIEW" cat "$RTOS" --view call-trace > "$TMP/calls.tsv"
n=$(awk -F'\t' -v a="$tA" -v b="$tB" 'NR > 1 && $10 >= a && $10 <= b' "$TMP/calls.tsv" | wc -l)
[ "$n" -gt 0 ] || fail "no call begins between the markers: the case shows nothing"
s=$(pv_screen "$TO_TIMELINE"$'\nj j m\nG M\nShift-Tab\nj\nTab\n:range<Enter>\nG' "$RTOS" --size 160x30)
expect_contains ":range in the call trace: the calls that begin from A to B, by entry_time" \
  "$s" "filter: entry_time >= $tA && entry_time <= $tB ($n)"
s=$(pv_screen "$TO_TIMELINE"$'\nj j m\nG M\nShift-Tab\nj j\nTab\n:range<Enter>' "$RTOS" --size 120x30)
expect_contains ":range in a view without times says so" "$s" ":range needs a view whose rows have times"

# A filter shows as many rows as `cat --filter` prints.
n=$("$PROFVIEW" cat "$PLIST" --view routines --filter 'hits>50' | tail -n +2 | wc -l)
s=$(pv_screen $'Shift-Tab j Tab\nf\nhits>50<Enter>\nG' "$PLIST" --size 100x30)
expect_contains "filter count agrees with cat" "$s" "row $n/$n"
expect_contains "filter match count in the status bar" "$s" "filter: hits>50 ($n)"
# ... and an empty filter clears it.
s=$(pv_screen $'Shift-Tab j Tab\n:filter hits>50<Enter>\n:filter<Enter>\nG' "$PLIST" --size 100x30)
expect_contains "empty filter clears" "$s" "row 14/14"

# Sorting: the first row is the one `cat --sort` prints first.
first=$("$PROFVIEW" cat "$PLIST" --view routines --sort time:desc --columns routine | sed -n 2p)
s=$(pv_screen $'Shift-Tab j Tab\n:sort time:desc<Enter>\ng' "$PLIST" --size 100x30)
line=$(printf '%s\n' "$s" | sed -n 3p)
expect_contains "sorted first row agrees with cat" "$line" "$first"
expect_contains "sort in the status bar" "$s" "sort: time:desc"

# Search: n goes on to the next match, N back; matches wrap.
matches=$("$PROFVIEW" cat "$PLIST" --view routines --columns routine | tail -n +2 | grep -n 'CDC' | cut -d: -f1 | tr '\n' ' ')
set -- $matches
[ $# -ge 2 ] || fail "the sample should have two routines with CDC"
s=$(pv_screen $'Shift-Tab j Tab\n/CDC<Enter>' "$PLIST" --size 100x30)
expect_contains "search finds the first match" "$s" "row $1/14"
s=$(pv_screen $'Shift-Tab j Tab\n/CDC<Enter>\nn' "$PLIST" --size 100x30)
expect_contains "n finds the next" "$s" "row $2/14"
s=$(pv_screen $'Shift-Tab j Tab\n/CDC<Enter>\nn n' "$PLIST" --size 100x30)
expect_contains "n wraps around" "$s" "row $1/14"

# History: back to the previous view with its selection, and forward again.
s=$(pv_screen $'Shift-Tab j Tab j j j\nShift-Tab j Tab\n[' "$PLIST" --size 100x30)
expect_contains "back restores the view" "$s" "│ routines │ row 4/14"
s=$(pv_screen $'Shift-Tab j Tab j j j\nShift-Tab j Tab\n[ ]' "$PLIST" --size 100x30)
expect_contains "forward returns" "$s" "│ call-trace │"
echo PASS

# A failed search goes back where it started (as vim and less do), not to
# the match of the shorter text typed on the way ("qsort" matches row 11).
s=$(pv_screen $'Shift-Tab j Tab\nj j\n/\nqsort' "$PLIST" --size 100x30)
expect_contains "the search moves to a match while typing" "$s" "row 11/14"
s=$(pv_screen $'Shift-Tab j Tab\nj j\n/\nqsort_x' "$PLIST" --size 100x30)
expect_contains "no match: back where the search started" "$s" "row 3/14"
s=$(pv_screen $'Shift-Tab j Tab\nj j\n/\nqsort_x<Enter>' "$PLIST" --size 100x30)
expect_contains "Enter: not found, still where it started" "$s" "row 3/14"
expect_contains "Enter: says so" "$s" "not found: qsort_x"
