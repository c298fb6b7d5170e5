#!/usr/bin/env bash
# :stats shows the statistics between markers A and B in the Details pane:
# the same numbers as `profview cat FILE --view statistics --from A --to B`
# (an independent path: the command line loads the window itself).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
COLS=id,handle,name,context,count,net,gross,call_max

"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
# The time of timeline row N (1-based), as cat prints it (ns).
row_time() { awk -F'\t' -v n="$1" 'NR == n + 1 { print $3 }' "$TMP/timeline.tsv"; }

# The statistics rows of the Details pane, one space between cells and no
# unit (unit=ns): below the Details title and its header line, above the
# status bar (which does not start with the Explorer's blank column).
shown_rows() {
  printf '%s\n' "$1" | awk '/─ Details ─/ { d = 1; next } d && /│ Id / { h = 1; next }
    h && /^ *│/ { sub(/^[^│]*│ */, ""); gsub(/ ns/, ""); gsub(/ +/, " "); sub(/ $/, ""); if ($0 != "") print }'
}
# The same rows from the command line.
cat_rows() { # FROM TO COUNT
  "$PROFVIEW" cat "$RTOS" --view statistics --from "$1" --to "$2" --columns "$COLS" |
    tail -n +2 | head -n "$3" | tr '\t' ' ' | sed 's/  */ /g; s/ $//'
}

check_range() { # NAME SCREEN FROM TO
  local got want n
  got=$(shown_rows "$2")
  n=$(printf '%s\n' "$got" | wc -l)
  [ "$n" -ge 5 ] || { printf '%s\n' "$2" >&2; fail "$1: only $n statistics rows on screen"; }
  want=$(cat_rows "$3" "$4" "$n")
  if [ "$got" != "$want" ]; then
    diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2 || true
    fail "$1: the statistics of $3..$4 differ from cat"
  fi
  echo "ok: $1 ($n rows)"
}

# A at row 11, B at row 201 (B after A).
tA=$(row_time 11)
tB=$(row_time 201)
keys="$TO_TIMELINE"$'\n:goto #11<Enter>\nm\n:goto #201<Enter>\nM\n:stats<Enter>\n:set unit=ns<Enter>\nTab\n'":columns $COLS<Enter>"
s=$(pv_screen "$keys" "$RTOS" --size 140x40)
expect_contains ":stats names its range" "$s" "[statistics $tA ns..$tB ns]"
check_range ":stats over A=$tA..B=$tB" "$s" "$tA" "$tB"
expect_contains "the window is not a second file" "$s" "Timeline (3000)"
[ "$(printf '%s\n' "$s" | grep -c '^rtos.txt')" = 1 ] || fail "the Explorer shows the window as a file"

# B before A: the range is [min, max]; markers moved while :stats is on
# recompute it (here A moves to row 2501, after B at row 1201).
tA2=$(row_time 2501)
tB2=$(row_time 1201)
keys="$TO_TIMELINE"$'\n:goto #11<Enter>\nm\n:goto #1201<Enter>\nM\n:stats<Enter>\n:goto #2501<Enter>\nm\n:set unit=ns<Enter>\nTab\n'":columns $COLS<Enter>"
s=$(pv_screen "$keys" "$RTOS" --size 140x40)
expect_contains "a moved marker recomputes" "$s" "[statistics $tB2 ns..$tA2 ns]"
check_range ":stats over B=$tB2..A=$tA2" "$s" "$tB2" "$tA2"

# Without both markers :stats says what it needs; :stats off brings back
# the row's Details.
s=$(pv_screen "$TO_TIMELINE"$'\nm\n:stats<Enter>' "$RTOS" --size 140x40)
expect_contains ":stats needs both markers" "$s" ":stats needs both markers"
s=$(pv_screen "$TO_TIMELINE"$'\nm j M\n:stats<Enter>\n:stats off<Enter>' "$RTOS" --size 140x40)
expect_absent ":stats off hides the range statistics" "$s" "[statistics "

# In a terminal the statistics arrive by themselves (no key after :stats):
# the window is loaded in the background and the screen polls for it.
pv_tmux_start 140 40 xterm-256color C.UTF-8 "$PROFVIEW $RTOS"
pv_tmux_wait "Timeline (3000)"
pv_tmux_keys BTab j j j j Tab : g o t o Space 1 1 Enter m : g o t o Space 2 0 1 Enter M
pv_tmux_wait "B-A"
pv_tmux_keys : s t a t s Enter
pv_tmux_wait "[statistics "
pv_tmux_wait "ID_TASK_FAST      1  1.169 us"
echo "ok: the range statistics arrive without a key"
pv_tmux_stop
