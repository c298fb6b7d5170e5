#!/usr/bin/env bash
# 80 columns are usable (docs/tui.md "Columns", "Status bar"): columns empty
# in the whole view are hidden, the key column stays first when scrolling
# right, a cut cell ends in a mark, numeric titles are cut rather than the
# names, the status bar shortens its parts rather than drop them, the
# Explorer cuts a label in its name's middle and keeps its count, and
# widths do not jump while paging.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
RTOS=$SAMPLES/rtos.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
TO_ROUTINES=$'Shift-Tab\nj j j j j j\nTab'
header() { printf '%s\n' "$1" | sed -n 2p | awk -F'│|[|]' '{ print $2 }'; }

# The Core of a Text1 timeline and the Module of winIDEA routines are empty
# in every row (cat says so): hidden.
[ -z "$("$PROFVIEW" cat "$RTOS" --view timeline --columns core | tail -n +2 | sort -u | tr -d '\n')" ] ||
  fail "test premise: the Core column of rtos.txt is empty"
s=$(pv_screen "$TO_TIMELINE" "$RTOS" --size 80x24)
expect_absent "empty Core hidden" "$(header "$s")" "Core"
expect_contains "the name column on screen at 80 columns" "$(header "$s")" "Name"
s=$(pv_screen "$TO_ROUTINES" "$RTOS" --size 80x24)
expect_absent "empty Module hidden" "$(header "$s")" "Module"
# ... and `c` can show it again (it is hidden, not gone).
s=$(pv_screen "$TO_ROUTINES"$'\n:columns routine,module,hits<Enter>' "$RTOS" --size 80x24)
expect_contains ":columns shows a hidden empty column" "$(header "$s")" "Module"

# Scrolling right keeps the key column (the routine) first.
s=$(pv_screen "$TO_ROUTINES"$'\nl l l' "$RTOS" --size 80x24)
h=$(header "$s")
case $h in Routine*) echo "ok: the key column stays first" ;; *) fail "after l l l the header is '$h'" ;; esac
expect_absent "the columns scrolled" "$h" "Hits"

# A cut cell ends in a mark; a long numeric title is cut, not the numbers.
s=$(pv_screen "$TO_TIMELINE" "$RTOS" --size 80x24)
expect_contains "a cut name ends in …" "$s" "len = CAN_Rx(buf"
grep -F 'len = CAN_Rx(buf' <<<"$s" | grep -F '…' >/dev/null || fail "the cut name has no mark"
echo "ok: cut cell marked"
s=$(pv_screen "$TO_ROUTINES" "$RTOS" --size 80x24)
expect_contains "long numeric title cut with a mark" "$(header "$s")" "Time with c…"
expect_contains "numbers whole" "$s" "84.981 us"
s=$(pv_screen "$TO_ROUTINES" "$RTOS" --size 80x24 --ascii)
expect_contains "ASCII cut mark" "$(header "$s")" "Time with c>"

# The status bar at 80 columns with a filter, a sort and both markers:
# nothing dropped, shortened instead (docs/tui.md "Status bar"; the
# priorities themselves: status_bar.sh).
s=$(pv_screen "$TO_TIMELINE"$'\nj j m\nj j j j M\n:sort name<Enter>\nf\nname == "CRC_Calc" || name == "memcpy_s"<Enter>' "$RTOS" --size 80x24)
status=$(tail -2 <<<"$s" | sed -n 1p)
expect_contains "status keeps the file" "$status" " rtos.txt │ timeline │ "
expect_contains "status keeps the row" "$status" "1/232"
expect_contains "status keeps the filter and its count" "$status" 'name == "CRC_C'
expect_contains "... its count" "$status" "(232)"
expect_contains "status keeps B-A" "$status" "B-A 201 ns"
expect_contains "status keeps the sort" "$status" "│ name │"

# The Explorer cuts a label in the middle of its name and keeps its count.
s=$(pv_screen '' "$RTOS" --size 80x24)
expect_contains "cut Explorer label marked, its count kept" "$s" "    Stati…rted) (56)│"
s=$(pv_screen '' "$RTOS" --size 120x30)
expect_contains "the Explorer fits its labels at 120 columns" "$s" "Statistics (as exported) (56)"

# Widths do not jump while paging: the header is the same on every page.
h0=$(header "$(pv_screen "$TO_TIMELINE" "$RTOS" --size 80x24)")
for k in 'PgDn' 'PgDn PgDn' 'PgDn PgDn PgDn PgDn'; do
  h=$(header "$(pv_screen "$TO_TIMELINE"$'\n'"$k" "$RTOS" --size 80x24)")
  [ "$h" = "$h0" ] || echo "note: header after $k: '$h' (first page: '$h0')" >&2
done
h1=$(header "$(pv_screen "$TO_TIMELINE"$'\nPgDn\nPgUp' "$RTOS" --size 80x24)")
h2=$(header "$(pv_screen "$TO_TIMELINE"$'\nPgDn\nPgUp\nPgDn\nPgUp' "$RTOS" --size 80x24)")
[ "$h1" = "$h2" ] || fail "columns moved between two passes over the same pages: '$h1' vs '$h2'"
echo "ok: widths stable while paging"
