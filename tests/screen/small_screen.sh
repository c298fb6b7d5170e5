#!/usr/bin/env bash
# The timeline and the call tree at 80x24 (issue 26, docs/tui.md "Layout",
# "Columns", "Deep trees", "Lane strip"): golden screens of a generated
# timeline in UTF-8 and ASCII, compared exactly (tests/screen/data/
# small_screen/*.screen; PV_REGEN=1 rewrites them: read the diff before
# committing), and what they must show whatever the golden says: at least
# 12 events with Index, Time, Context, Name and Event, no empty Core, the
# first and key columns after scrolling right, deep names with room and
# their depth as a number, a B-A with every digit, an axis whose labels
# never repeat and never lie under a mark; then the same 80x24 timeline in
# a real terminal (tmux).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:-}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no pv_gen_winidea in PV_BUILD_DIR"; exit 0; }
"$gen" --seed 7 --tasks 4 --events 20000 --format text -o "$TMP/gen.txt" > /dev/null
GOLD=$PV_SOURCE_DIR/tests/screen/data/small_screen
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
TO_CALLS=$'Shift-Tab\nj j j j j\nTab'

# golden NAME SCREEN: the screen equals NAME.screen (PV_REGEN=1 writes it)
golden() {
  if [ "${PV_REGEN:-}" = 1 ]; then
    mkdir -p "$GOLD"
    printf '%s\n' "$2" > "$GOLD/$1.screen"
    echo "wrote $GOLD/$1.screen"
    return
  fi
  expect_screen "$1" "$2" "$(cat "$GOLD/$1.screen")"
}

# The Report's event rows: lines between its header and the strip (or the
# Details) whose first cell right of the Explorer is a number.
event_rows() {
  printf '%s\n' "$1" | awk '/[│|] Index / { r = 1; next } /[│|][─-] (Lanes|Details)/ { r = 0 }
    r && /[│|] *[0-9]+ / { n++ } END { print n + 0 }'
}
header() { printf '%s\n' "$1" | grep -m1 -E '[│|] Index ' | sed -E 's/^[^│|]*[│|]//'; }

for mode in utf8 ascii; do
  args=()
  [ "$mode" = ascii ] && args=(--ascii)
  s=$(pv_screen "$TO_TIMELINE"$'\n:goto #1000<Enter>' "$TMP/gen.txt" --size 80x24 "${args[@]}")
  golden "timeline_$mode" "$s"
  n=$(event_rows "$s")
  [ "$n" -ge 12 ] || { printf '%s\n' "$s" >&2; fail "timeline $mode: $n events at 80x24, want at least 12"; }
  h=$(header "$s")
  for col in Index Time Context Name Event; do
    case " $h " in *" $col "*) ;; *) printf '%s\n' "$s" >&2; fail "timeline $mode: no $col column in '$h'" ;; esac
  done
  expect_absent "timeline $mode: the empty Core column is hidden" "$h" "Core"
  expect_contains "timeline $mode: the strip shows its lanes" "$s" "Lanes 113.444 us..114.739 us"
  echo "ok: timeline $mode: $n events, header '$h'"
  s=$(pv_screen "$TO_CALLS"$'\n:goto #300<Enter>' "$TMP/gen.txt" --size 80x24 "${args[@]}")
  golden "call_tree_$mode" "$s"
done

# A Text1 timeline of more than 4 M cells (400 000 events): too big to
# look at every cell, its empty Core is hidden because the view says it is
# empty (column_empty: Text1 records no core).
"$gen" --seed 3 --tasks 2 --events 400000 --format text -o "$TMP/big.txt" > /dev/null
h=$(header "$(pv_screen "$TO_TIMELINE" "$TMP/big.txt" --size 120x30)")
expect_absent "a big Text1 timeline hides its empty Core" "$h" "Core"
expect_contains "a big Text1 timeline shows its contexts" "$h" "Context"

# Scrolling right keeps the first column (Index) and the key column
# (Name): three `l` scroll to the third column after Index, Time and
# Context gone.
s=$(pv_screen "$TO_TIMELINE"$'\nl l l' "$TMP/gen.txt" --size 80x24)
h=$(header "$s")
case "$h" in " Index "*Name*) ;; *) printf '%s\n' "$s" >&2; fail "scrolled right: '$h' lost Index or Name" ;; esac
expect_absent "scrolled right: Time went first" "$h" " Time "
expect_absent "scrolled right: then Context" "$h" "Context"
echo "ok: scrolled right three times: '$h'"

# A deep call tree (40 nested calls, written here): at 80 columns every
# name has room, the depth past the indentation's cap reads as a number.
{
  printf '* INFO %%TOTAL_TIME%%\n1000\n\n* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n'
  for i in $(seq 0 39); do printf '%08x,level_%02d_function,\n' "$i" "$i"; done
  printf '\n* TIMELINE %%TIME%%,%%HANDLE%%,%%EVENT%%,%%VALUE%%\n'
  for i in $(seq 0 39); do printf '%d,%08x,E,\n' $((i * 10)) "$i"; done
  for i in $(seq 39 -1 0); do printf '%d,%08x,X,\n' $((800 - i * 10)) "$i"; done
} > "$TMP/deep.txt"
s=$(pv_screen "$TO_CALLS"$'\nG' "$TMP/deep.txt" --size 80x24)
golden deep_tree_utf8 "$s"
for d in 27 33 38; do
  expect_contains "deep tree: depth $d as a number before its whole name" "$s" "$d▾ level_${d}_function "
done
expect_contains "deep tree: the deepest leaf" "$s" "39  level_39_function "
s=$(pv_screen "$TO_TIMELINE"$'\nG' "$TMP/deep.txt" --size 80x24 --ascii)
golden deep_timeline_ascii "$s"
expect_contains "deep timeline: the name after the depth" "$s" " 11 level_11_fun"

# B-A with every digit: 1 999 769 ns is not 1.999 ms.
{
  printf '* INFO %%TOTAL_TIME%%\n3000000\n\n* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n'
  printf '00000000,main,\n\n* TIMELINE %%TIME%%,%%HANDLE%%,%%EVENT%%,%%VALUE%%\n'
  printf '1000,00000000,E,\n2000769,00000000,X,\n'
} > "$TMP/ba.txt"
s=$(pv_screen "$TO_TIMELINE"$'\nm j M' "$TMP/ba.txt" --size 100x24)
expect_contains "B-A is exact" "$s" "B-A 1.999 769 ms"

# The axis 5.5 s into a recording, 37 ns between events: its labels never
# repeat (5.551 s each, before) and the cursor's ^ never replaces a digit.
{
  printf '* INFO %%TOTAL_TIME%%\n5551100000\n\n* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n'
  printf '00000000,tick,\n\n* TIMELINE %%TIME%%,%%HANDLE%%,%%EVENT%%,%%VALUE%%\n'
  for i in $(seq 0 99); do printf '%d,00000000,%s,\n' $((5551097000 + i * 37)) "$([ $((i % 2)) = 0 ] && echo E || echo X)"; done
} > "$TMP/axis.txt"
for keys in "" $'\nj j j j j' $'\nj j j j j j j j j'; do
  s=$(pv_screen "$TO_TIMELINE$keys" "$TMP/axis.txt" --size 80x24 --ascii)
  # the axis: the line under the lanes with a label
  axis=$(printf '%s\n' "$s" | grep -m1 -E '[-|^][0-9.]+(ns|us|ms|s)(-|$)' | sed -E 's/^[^|]*\| *//')
  [ -n "$axis" ] || { printf '%s\n' "$s" >&2; fail "no axis line"; }
  # its pieces between ticks: a mark may stand on a tick, never in a label
  tokens=$(printf '%s\n' "$axis" | tr -- '-|' '\n\n' | sed -E 's/^[AB^]+//' | grep -v '^$' || true)
  bad=$(printf '%s\n' "$tokens" | grep -vxE '[0-9]+(\.[0-9]+)?(ns|us|ms|s)' || true)
  [ -z "$bad" ] || fail "axis '$axis': a label is not a whole time: '$bad'"
  [ "$(printf '%s\n' "$tokens" | wc -l)" -ge 2 ] || fail "axis '$axis': fewer than 2 labels"
  [ -z "$(printf '%s\n' "$tokens" | sort | uniq -d)" ] || fail "axis '$axis': a label repeats"
  echo "ok: axis '$axis'"
done

# The same 80x24 timeline in a real terminal.
pv_tmux_start 80 24 xterm-256color C.UTF-8 "$PROFVIEW" "$TMP/gen.txt"
pv_tmux_wait "Timeline (20000)"
pv_tmux_keys BTab j j j j Tab
pv_tmux_wait " Index "
pv_tmux_wait "Lanes "
s=$(pv_tmux_screen)
n=$(event_rows "$s")
[ "$n" -ge 12 ] || { printf '%s\n' "$s" >&2; fail "tmux 80x24: $n events, want at least 12"; }
expect_contains "tmux 80x24: the Event column" "$(header "$s")" " Event"
echo "ok: tmux 80x24: $n events"
pv_tmux_stop
