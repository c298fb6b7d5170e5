#!/usr/bin/env bash
# The viewer while a timeline is still being indexed (docs/tui.md "Loading
# and indexing"), and the jumps that use the model instead of scanning:
# :goto TIME, %, t.  --test index-slice=N (tests only) indexes N
# events per key instead of indexing everything before the first key.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
# While indexing the viewer opens on Statistics (as exported), the timeline
# is the next view.
IDX_TO_TIMELINE=$'Shift-Tab\nj\nTab'
"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
rows=$(tail -n +2 "$TMP/timeline.tsv" | wc -l)

# ---- while indexing (5 events per key: the 3000 events take 600 keys)

s=$(PV_TEST="--test index-slice=5" pv_screen '' "$RTOS" --size 110x24)
expect_contains "views that need the whole index say so" "$s" "Summary (indexing)"
expect_contains "call trace too" "$s" "Call trace (indexing)"
expect_contains "the timeline counts its rows at once" "$s" "Timeline ($rows)"
expect_contains "progress in the status bar" "$s" "indexing 0% (Ctrl-C stops)"
expect_contains "the first view that can show rows is shown" "$s" "Report: Statistics (as exported)"

s=$(PV_TEST="--test index-slice=5" pv_screen $'Shift-Tab\nj j j\nTab' "$RTOS" --size 110x24)
expect_contains "a view that needs the whole index shows the progress" "$s" \
  "This view needs the whole index: indexing"

s=$(PV_TEST="--test index-slice=5" pv_screen "$IDX_TO_TIMELINE" "$RTOS" --size 110x24)
expect_contains "the timeline shows its first rows" "$s" "len = CAN_Rx(buf, sizeof(buf));"
expect_contains "its Details wait for the index" "$s" "The details need the whole index: indexing"

# Rows not indexed yet: index, time and event from the record, no name.
last_name=$(tail -n 1 "$TMP/timeline.tsv" | cut -f7)
last_time=$(tail -n 1 "$TMP/timeline.tsv" | cut -f3)
s=$(PV_TEST="--test index-slice=5" pv_screen "$IDX_TO_TIMELINE"$'\nG' "$RTOS" --size 110x24)
expect_contains "G reaches the last row at once" "$s" "row $rows/$rows"
expect_absent "an unindexed row has no name yet ($last_name)" "$s" "$last_name"
s=$(pv_screen "$TO_TIMELINE"$'\nG' "$RTOS" --size 110x24)
expect_contains "once indexed it has ($last_name)" "$s" "$last_name"

s=$(PV_TEST="--test index-slice=5" pv_screen "$IDX_TO_TIMELINE"$'\nJ' "$RTOS" --size 110x24)
expect_contains "J waits for the index instead of blocking" "$s" "work once it is done"

s=$(PV_TEST="--test index-slice=5" pv_screen "$IDX_TO_TIMELINE"$'\nCtrl-C' "$RTOS" --size 110x24)
expect_contains "Ctrl-C stops indexing" "$s" "indexing stopped at 0%"

# Every event read (3000 events, 1000 per key: three keys), the rest of
# the index still to come: the status bar says so instead of "100%".
s=$(PV_TEST="--test index-slice=1000" pv_screen $'Ctrl-L Ctrl-L Ctrl-L Ctrl-L' "$RTOS" --size 110x24)
expect_contains "every event read: finishing" "$s" "finishing the index (Ctrl-C stops)"
expect_absent "not 100% while it finishes" "$s" "indexing 100%"

# Enough keys to finish (3000 events, 1000 per key): the counts appear.
summary=$("$PROFVIEW" cat "$RTOS" --view summary | tail -n +2 | wc -l)
s=$(PV_TEST="--test index-slice=1000" pv_screen $'Shift-Tab\nj j\nTab\nj\n'"$(printf 'Ctrl-L %.0s' {1..30})" "$RTOS" --size 110x24)
expect_contains "complete: the summary has its rows" "$s" "Summary ($summary)"
expect_absent "complete: no progress left" "$s" "indexing"

# :index resumes the indexing Ctrl-C stopped (200 events per key: the three
# keys to the timeline index a fifth, Ctrl-C stops there).
keys=$(printf 'Ctrl-L %.0s' {1..100})
s=$(PV_TEST="--test index-slice=200" pv_screen "$IDX_TO_TIMELINE"$'\nCtrl-C' "$RTOS" --size 110x24)
expect_contains "Ctrl-C says how to resume" "$s" "indexing stopped (:index resumes; Ctrl-C again quits)"
s=$(PV_TEST="--test index-slice=200" pv_screen "$IDX_TO_TIMELINE"$'\nCtrl-C\n'"$keys"$'\nJ' "$RTOS" --size 110x24)
expect_contains "stopped, it stays stopped" "$s" "Summary (indexing)"
expect_contains "what waits for the index says how to resume" "$s" \
  "(:index resumes): J/K and % work once it is done"
s=$(PV_TEST="--test index-slice=200" pv_screen "$IDX_TO_TIMELINE"$'\nCtrl-C\n:index<Enter>\n'"$keys" "$RTOS" --size 110x24)
expect_contains ":index: the summary has its rows" "$s" "Summary ($summary)"
expect_absent ":index: no progress left" "$s" "indexing"
s=$(pv_screen $':index<Enter>' "$RTOS" --size 110x24)
expect_contains ":index with nothing stopped says so" "$s" "nothing to index: every file is indexed"

# ---- :goto TIME lands where `cat --filter 'time >= T' --limit 1` says: by
# binary search once indexed, by a scan while indexing (order not known yet).
for t in 10000 123456 335552; do
  want=$("$PROFVIEW" cat "$RTOS" --view timeline --filter "time >= $t" --limit 1 --columns index | tail -n 1)
  s=$(pv_screen "$TO_TIMELINE"$'\n'":goto ${t}ns<Enter>" "$RTOS" --size 100x30)
  expect_contains ":goto ${t}ns (binary search)" "$s" "row $((want + 1))/$rows"
  s=$(PV_TEST="--test index-slice=5" pv_screen "$IDX_TO_TIMELINE"$'\n'":goto ${t}ns<Enter>" "$RTOS" --size 100x30)
  expect_contains ":goto ${t}ns while indexing (scan)" "$s" "row $((want + 1))/$rows"
done
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto 1s<Enter>" "$RTOS" --size 100x30)
expect_contains ":goto after the end" "$s" "no row at or after that time"
# A filtered timeline keeps time order: still the first matching row.
want=$("$PROFVIEW" cat "$RTOS" --view timeline --filter 'name = "AUX_IN0" and time >= 9000' --limit 1 --columns index | tail -n 1)
pos=$("$PROFVIEW" cat "$RTOS" --view timeline --filter 'name = "AUX_IN0"' --columns index | tail -n +2 | grep -n -x "$want" | cut -d: -f1)
s=$(pv_screen "$TO_TIMELINE"$'\n:filter name = "AUX_IN0"<Enter>\n:goto 9us<Enter>' "$RTOS" --size 100x30)
expect_contains ":goto on a filtered timeline (event $want)" "$s" "row $pos/"

# ---- % and t: the call's own events (from the call trace: entry and exit
# times, handle and context; the timeline row is that E / X event).
read -r entry_t exit_t handle thread < <("$PROFVIEW" cat "$RTOS" --view call-trace \
  --columns id,entry_time,exit_time,handle,thread | awk -F'\t' '$1 == 3 { print $2, $3, $4, $5 }')
row_of() { # TIME EVENT -> 1-based timeline row of that event of the call
  awk -F'\t' -v t="$1" -v ev="$2" -v h="$handle" -v c="$thread" \
    'NR > 1 && $3 == t && $6 == h && $4 == c && $8 == ev { print NR - 1; exit }' "$TMP/timeline.tsv"
}
entry_row=$(row_of "$entry_t" E)
exit_row=$(row_of "$exit_t" X)
[ -n "$entry_row" ] && [ -n "$exit_row" ] || fail "call 3 has no E/X rows in the timeline"
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j j t' "$RTOS" --size 100x30)
expect_contains "t from call 3 lands on its entry event" "$s" "│ timeline │ row $entry_row/$rows"
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j j t %' "$RTOS" --size 100x30)
expect_contains "% from its entry to its exit (row $exit_row)" "$s" "│ timeline │ row $exit_row/$rows"
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j j t % %' "$RTOS" --size 100x30)
expect_contains "% back to its entry" "$s" "│ timeline │ row $entry_row/$rows"

# ---- J / K over a long way (the scan continues across frames; scripted
# keys wait for it): the next / previous AUX_IN0 event.
"$PROFVIEW" cat "$RTOS" --view timeline --filter 'name = "AUX_IN0"' --columns index | tail -n +2 > "$TMP/aux"
a1=$(sed -n 1p "$TMP/aux") a2=$(sed -n 2p "$TMP/aux")
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto #$((a1 + 1))<Enter>"$'\nJ' "$RTOS" --size 100x30)
expect_contains "J from event $a1 to $a2" "$s" "row $((a2 + 1))/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto #$((a2 + 1))<Enter>"$'\nK' "$RTOS" --size 100x30)
expect_contains "K from event $a2 to $a1" "$s" "row $((a1 + 1))/$rows"
last=$(tail -n 1 "$TMP/aux")
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto #$((last + 1))<Enter>"$'\nJ' "$RTOS" --size 100x30)
expect_contains "J after the last one says so" "$s" "no other event of this area"
