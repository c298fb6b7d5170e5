#!/usr/bin/env bash
# The status bar keeps what matters (docs/tui.md "Status bar"): at 80
# columns with markers, a :range filter and a sort it still says the file
# and the view (it used to drop them, then the filter and the sort, and
# leave 16 columns blank), shortening parts before dropping any and
# filling the width; narrower, the least important go first (the hint,
# the warnings, the sort...).  With the Details focused it shows their own
# list's view, row and sort, not the Report's.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
need_sample aqtime-trace.db
RTOS=$SAMPLES/rtos.txt
status_line() { sed -n 23p <<<"$1"; } # of a 24-line screen

# 1. The call trace at 80x24: markers A and B, :range, a sort.
keys=$'Shift-Tab\nj j j j j\nTab\nj j j\nm\nj j j j\nM\n:range<Enter>\ns'
s=$(pv_screen "$keys" "$RTOS" --size 80x24)
st=$(status_line "$s")
printf 'status: %s\n' "$st"
expect_contains "the file stays" "$st" " rtos.txt │ "
expect_contains "the view stays" "$st" "│ call-trace │"
expect_contains "the :range filter stays" "$st" "f: entry_time >= 2… (5)"
expect_contains "the markers stay (their span)" "$st" "B-A 3.017 us"
expect_contains "the sort stays" "$st" "call_no"
# filled: no run of blanks (the bar used to leave 16 columns blank)
width=$(printf '%s' "$st" | wc -m)
case "$st" in *"     "*) fail "blank columns in the bar: '$st'" ;; esac
[ "$width" -ge 76 ] || fail "the bar leaves $((80 - width)) columns blank: '$st'"
echo "ok: the bar is filled ($width of 80 columns)"
# wide enough, every part whole
s=$(pv_screen "$keys" "$RTOS" --size 160x24)
st=$(status_line "$s")
# the calls that begin between the markers, set on rows 4 and 8: five
# (their entry times; a call's time is how long it took)
expect_contains "160 columns: the filter whole, with its count" "$st" "filter: entry_time >= 29882 && entry_time <= 32899 (5)"
expect_contains "160 columns: the sort whole" "$st" "sort: call_no"
expect_contains "160 columns: the hint" "$st" "? help"

# 2. Narrower: the least important go first, the file and the view stay.
s=$(pv_screen "$keys" "$RTOS" --size 50x24)
st=$(status_line "$s")
printf 'status at 50: %s\n' "$st"
expect_contains "50 columns: the file and the view" "$st" " rtos.txt │ call-t"
expect_contains "50 columns: the filter" "$st" "f: entry_time >=… (5)"
expect_absent "50 columns: no hint" "$st" "help"
# ASCII separators
s=$(pv_screen "$keys" "$RTOS" --size 80x24 --ascii)
expect_contains "ASCII separators" "$(status_line "$s")" " rtos.txt | call-trace | "

# 3. The Details focused show their own state: the Report is sorted by
# time, the Details' list is not, then is by its own column.
TO_ROUTINES=$'Shift-Tab\nj j j\nTab'
s=$(pv_screen "$TO_ROUTINES"$'\n:sort time<Enter>\nTab' "$SAMPLES/aqtime-trace.db" --size 80x24)
st=$(status_line "$s")
printf 'status, Details focused: %s\n' "$st"
detail=$(grep -o '─\[[A-Za-z ]*\]─' <<<"$s" | tr -d '─[]' | head -1)
[ -n "$detail" ] || fail "no Details tab on screen"
id=$(tr 'A-Z ' 'a-z-' <<<"$detail")
expect_contains "the Details' own view ($detail)" "$st" "│ $id │"
expect_absent "not the Report's sort" "$st" "sort: time"
s=$(pv_screen "$TO_ROUTINES"$'\n:sort time<Enter>\nTab\ns' "$SAMPLES/aqtime-trace.db" --size 80x24)
st=$(status_line "$s")
expect_contains "the Details' own sort" "$st" "sort: id"
s=$(pv_screen "$TO_ROUTINES"$'\n:sort time<Enter>\nTab\nShift-Tab' "$SAMPLES/aqtime-trace.db" --size 80x24)
expect_contains "back on the Report: its sort" "$(status_line "$s")" "│ routines │ row 1/8 │ sort: time"
echo PASS
