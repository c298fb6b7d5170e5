#!/usr/bin/env bash
# Opening a call tree of more than 200 000 calls (its grouping by thread
# and first layout) runs in steps with a percentage; Esc or Ctrl-C goes
# back to where you were, with its cursor, and says so (docs/tui.md "Long
# operations").  --test work-slice=N (tests only) gives the opening
# N units per key, so that a screen shows it half done; Ctrl-L passes a key
# without stopping it.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
"$gen" --seed 3 --tasks 3 --events 1200000 --format bin11 -o "$TMP/big.txt" >/dev/null
BIG=$TMP/big.txt
calls=$("$PROFVIEW" info "$BIG" | awk '$1 == "call-trace" { print $2 }')
[ "${calls:-0}" -gt 200000 ] || fail "the generated tree has ${calls:-no} calls, not over 200000"
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
TO_TREE=$'Shift-Tab\nj'
WAIT=$(printf 'Ctrl-L %.0s' {1..60})
PV_TEST="--test work-slice=200000"

s=$(pv_screen "$TO_TIMELINE"$'\nj j\n'"$TO_TREE" "$BIG" --size 110x24)
expect_contains "opening shows its percentage" "$s" "Opening Call trace... "
expect_contains "... and how to go back" "$s" "% (Esc goes back)"
expect_contains "the Report says it is opening" "$s" "Opening the view: "
s=$(pv_screen "$TO_TIMELINE"$'\nj j\n'"$TO_TREE"$'\nCtrl-L Ctrl-L' "$BIG" --size 110x24)
expect_contains "other keys leave it opening" "$s" "Opening Call trace... "

s=$(pv_screen "$TO_TIMELINE"$'\nj j\n'"$TO_TREE"$'\nCtrl-L\nEsc' "$BIG" --size 110x24)
expect_contains "Esc stops the opening" "$s" "opening stopped: back where you were"
expect_contains "... back on the timeline" "$s" "Report: Timeline"
expect_contains "... its cursor where it was" "$s" "row 3/1200000"
s=$(pv_screen "$TO_TIMELINE"$'\nj j\n'"$TO_TREE"$'\nCtrl-C\nTab\nj' "$BIG" --size 110x24)
expect_contains "Ctrl-C goes back too and does not quit (j moves after it)" "$s" "row 4/1200000"

s=$(pv_screen "$TO_TIMELINE"$'\n'"$TO_TREE"$'\n'"$WAIT" "$BIG" --size 110x24)
expect_contains "left alone, the tree opens" "$s" "Report: Call trace"
expect_absent "... no longer opening" "$s" "Opening"
expect_contains "... one node per context" "$s" "▸ ID_TASK_FAST"
expect_contains "... collapsed to the contexts" "$s" "row 1/5 "
# * below a context of tens of thousands of calls: in steps too (smaller
# steps: the opening takes 200 keys of them)
PV_TEST="--test work-slice=20000"
WAIT=$(printf 'Ctrl-L %.0s' {1..250})
s=$(pv_screen "$TO_TIMELINE"$'\n'"$TO_TREE"$'\n'"$WAIT"$'\nTab\n*' "$BIG" --size 110x24)
expect_contains "* shows its percentage" "$s" "Expanding everything below... "
s=$(pv_screen "$TO_TIMELINE"$'\n'"$TO_TREE"$'\n'"$WAIT"$'\nTab\n*\nEsc' "$BIG" --size 110x24)
expect_contains "Esc stops it" "$s" "expansion stopped: the tree stays as it was"
expect_contains "... the tree as it was" "$s" "row 1/5 "
s=$(pv_screen "$TO_TIMELINE"$'\n'"$TO_TREE"$'\n'"$WAIT"$'\nTab\n*\n'"$WAIT" "$BIG" --size 110x24)
expect_absent "left alone, it finishes" "$s" "Expanding"
first=$("$PROFVIEW" cat "$BIG" --view call-trace --context ID_TASK_FAST | tail -n +2 | wc -l)
expect_contains "... every call of the context shown" "$s" "row 1/$((first + 5)) "
s=$(pv_screen "$TO_TIMELINE"$'\n'"$TO_TREE"$'\n'"$WAIT"$'\nTab\nBackspace\n'"$TO_TREE" "$BIG" --size 110x24)
expect_absent "once open, it opens again at once" "$s" "Opening"
exit 0
