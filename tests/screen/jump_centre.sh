#!/usr/bin/env bash
# Jumps land where you look (docs/tui.md "Jumps"): after :goto, t, L/H, )/(,
# J/K and a search (/, n, N) the selected row is in the middle third of the
# Report when it was off screen (vim's zz), a target already on screen does
# not scroll, and a step (j) scrolls by one row only.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'

# The Report's rows of a dumped screen: the Index shown on each line between
# the Report's header and the next pane (the Lanes).
report_indexes() {
  awk -F'│' '/│ Index / { on = 1; next } on && /─ Lanes|─ Details/ { exit }
             on { split($2, f, " "); print f[1] }' <<<"$1"
}

# selected_line SCREEN: "LINE ROWS" — where the selected event (row N of the
# unsorted timeline shows index N-1) is among the ROWS lines of the Report.
selected_line() {
  local n idx
  n=$(grep -o 'row [0-9]*/' <<<"$1" | tr -dc 0-9)
  [ -n "$n" ] || fail "no row N/M in the status bar"
  idx=$((n - 1))
  report_indexes "$1" | awk -v i="$idx" '$1 == i { at = NR - 1 } END { print (at == "" ? -1 : at), NR }'
}

# expect_centred NAME KEYS: after KEYS the selection is in the middle third.
expect_centred() {
  local s at rows
  s=$(pv_screen "$TO_TIMELINE"$'\n'"$2" "$RTOS" --size 80x24)
  read -r at rows < <(selected_line "$s")
  [ "$at" -ge 0 ] || { printf '%s\n' "$s" >&2; fail "$1: the selected row is not on screen"; }
  if [ $((3 * at)) -lt "$rows" ] || [ $((3 * at)) -ge $((2 * rows)) ]; then
    printf '%s\n' "$s" >&2
    fail "$1: the selected row is on line $at of $rows, not in the middle third"
  fi
  echo "ok: $1 (line $at of $rows)"
}

expect_centred ":goto INDEX" ':goto 500<Enter>'
expect_centred ":goto TIME" ':goto 200us<Enter>'
expect_centred ":goto back up" $':goto 2000<Enter>\n:goto 1000<Enter>'
expect_centred "/ search" "/Task_Control<Enter>"
expect_centred "n" $'/Task_Control<Enter>\n:goto 1000<Enter>\nn'
expect_centred "N" $'/Task_Control<Enter>\n:goto 1200<Enter>\nN'
expect_centred "J" $':goto 441<Enter>\nJ'
expect_centred "K" $':goto 2676<Enter>\nK'
expect_centred ")" $':goto 441<Enter>\n)'
expect_centred "(" $':goto 2676<Enter>\n('
expect_centred "L" $':goto 441<Enter>\nL'
expect_centred "H" $':goto 2676<Enter>\nH'
# t from a call of the call trace opens the timeline at its entry event.
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\n:goto 300<Enter>\nt' "$RTOS" --size 80x24)
read -r at rows < <(selected_line "$s")
[ "$at" -ge 0 ] && [ $((3 * at)) -ge "$rows" ] && [ $((3 * at)) -lt $((2 * rows)) ] ||
  { printf '%s\n' "$s" >&2; fail "t: the selected event is on line $at of $rows"; }
echo "ok: t (line $at of $rows)"

# A target already on screen does not scroll; a step scrolls by one.
before=$(pv_screen "$TO_TIMELINE"$'\n:goto 500<Enter>' "$RTOS" --size 80x24)
first=$(report_indexes "$before" | sed -n 1p)
last=$(report_indexes "$before" | tail -n 1)
[ "$first" -lt 500 ] && [ "$last" -gt 500 ] || fail "test premise: 500 in the middle ($first..$last)"
s=$(pv_screen "$TO_TIMELINE"$'\n:goto 500<Enter>\n'":goto $last<Enter>" "$RTOS" --size 80x24)
[ "$(report_indexes "$s" | sed -n 1p)" = "$first" ] || { printf '%s\n' "$s" >&2; fail ":goto a row on screen scrolled"; }
echo "ok: :goto on screen does not scroll"
s=$(pv_screen "$TO_TIMELINE"$'\n:goto 500<Enter>\n'":goto $last<Enter>"$'\nj' "$RTOS" --size 80x24)
[ "$(report_indexes "$s" | sed -n 1p)" = "$((first + 1))" ] || { printf '%s\n' "$s" >&2; fail "j at the bottom should scroll by one"; }
echo "ok: j scrolls by one row"
