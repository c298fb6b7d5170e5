#!/usr/bin/env bash
# Search and filter open what they find (docs/tui.md "Trees"): in the
# winIDEA call trace with every context collapsed (-), / finds a call inside
# a collapsed node and opens the path to it; a filter opens the ancestors of
# its matches.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
COLLAPSED=$'Shift-Tab\nj j j j j\nTab\n- j - j - j - j -'

s=$(pv_screen "$COLLAPSED" "$RTOS" --size 110x30)
expect_contains "every context collapsed" "$s" "row 5/5 "
expect_absent "no call shown" "$s" "CRC_Calc"

s=$(pv_screen "$COLLAPSED"$'\n/CRC_Calc<Enter>' "$RTOS" --size 110x30)
expect_absent "/ looks into collapsed nodes" "$s" "not found"
expect_contains "... and opens the path to the match" "$s" "CRC_Calc      ID_ISR_TIMER"
sel=$(printf '%s\n' "$s" | grep -o 'row [0-9]*/[0-9]*')
[ "$sel" != "row 5/5" ] || fail "the cursor did not move: $sel"
echo "ok: the cursor is on the match ($sel)"
# Typing (before Enter) looks into them too, and Esc goes back.
s=$(pv_screen "$COLLAPSED"$'\n/CRC_Ca' "$RTOS" --size 110x30)
expect_contains "the incremental search opens the path" "$s" "CRC_Calc      ID_ISR_TIMER"
s=$(pv_screen "$COLLAPSED"$'\n/CRC_Ca\nEsc' "$RTOS" --size 110x30)
expect_contains "Esc goes back to the row it started from" "$s" "row 5/"

matches=$("$PROFVIEW" cat "$RTOS" --view call-trace | awk -F'\t' 'NR > 1 && tolower($4) ~ /crc_calc/' | wc -l)
s=$(pv_screen "$COLLAPSED"$'\n:filter CRC_Calc<Enter>\ng' "$RTOS" --size 110x30)
expect_contains "a filter on a collapsed tree" "$s" "filter: CRC_Calc ($matches)"
expect_contains "... opens the ancestors of its matches" "$s" "CRC_Calc      ID_TASK_"
expect_contains "... the ancestors show open" "$s" "▾ Task_"
