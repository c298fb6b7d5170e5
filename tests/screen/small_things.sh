#!/usr/bin/env bash
# Small things a user trips on (docs/tui.md):
# * the Explorer cuts a label in the middle of its name and keeps its
#   count (it used to cut the count away);
# * `y` copies the cell of the selected column: the key column (the
#   name) by default, the column scrolled to after `l` (it copied the id);
# * a view's Details open on a tab that has rows (AQTime Routines opened
#   on an empty Call routes tab), and follow the rows until a tab is chosen;
# * after a sort (s, r, :sort) the list shows its top.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
gen=${PV_BUILD_DIR:?}/pv_gen_aqtime
TO_ROUTINES=$'Shift-Tab\nj j j j j j\nTab'

# 1. Explorer labels: every view's line keeps its count at 80 columns.
s=$(pv_screen '' "$RTOS" --size 80x24)
views=$("$PROFVIEW" info "$RTOS" | grep -c ' rows')
counted=$(sed 's/│.*//' <<<"$s" | grep -cE '^    .*\([0-9]+\) *$' || true)
[ "$counted" -eq "$views" ] || { printf '%s\n' "$s" >&2; fail "$counted of $views view labels keep their count"; }
echo "ok: the $views view labels keep their counts"
expect_contains "a long name cut in its middle" "$s" "    Stati…rted) (56)│"
s=$(pv_screen '' "$RTOS" --size 80x24 --ascii)
expect_contains "ASCII: ~ in the middle" "$s" "    Stati~rted) (56)|"

# 2. y copies the key column's cell; after l, the column scrolled to.
first=$("$PROFVIEW" cat "$RTOS" --view routines --columns routine | sed -n 2p)
s=$(pv_screen "$TO_ROUTINES"$'\ny' "$RTOS" --size 80x24)
expect_contains "y: the routine (the key column)" "$s" "copied the routine cell (${#first} bytes"
s=$(pv_screen $'Shift-Tab\nj j j\nTab\ny' "$SAMPLES/aqtime-trace.db" --size 80x24)
expect_contains "y: the routine, not the Id shown first" "$s" "copied the routine cell"
s=$(pv_screen "$TO_ROUTINES"$'\nl\ny' "$RTOS" --size 80x24)
expect_contains "l then y: the column scrolled to" "$s" "copied the hits cell"
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj\ny' "$RTOS" --size 80x24)
expect_contains "y in a tree: its name column" "$s" "copied the routine cell"
if command -v tmux >/dev/null; then
  pv_tmux_start 100 30 xterm-256color C.UTF-8 "$PROFVIEW $RTOS"
  tmux -L "$PV_TMUX_SOCKET" set-option -s set-clipboard on
  pv_tmux_wait "Report: Summary"
  pv_tmux_keys BTab j j j j j j Tab y
  pv_tmux_wait "copied the routine cell"
  buffer_is() { [ "$(tmux -L "$PV_TMUX_SOCKET" show-buffer 2>/dev/null || true)" = "$1" ]; }
  pv_until -- buffer_is "$first" || true
  got=$(tmux -L "$PV_TMUX_SOCKET" show-buffer 2>/dev/null || true)
  [ "$got" = "$first" ] || fail "y: tmux's buffer holds '$got', not '$first'"
  echo "ok: y: '$first' in tmux's buffer (OSC 52)"
  pv_tmux_stop
fi

# 3. AQTime Routines of a generated database whose Call routes are empty:
# the Details open on the first tab with rows; a chosen tab stays.
"$gen" --scale trace 2000 "$TMP/trace.db" >/dev/null
[ "$("$PROFVIEW" cat "$TMP/trace.db" --view call-routes | wc -l)" -le 1 ] ||
  fail "test premise: no call routes in the generated database"
s=$(pv_screen $'Shift-Tab\nj j j' "$TMP/trace.db" --size 80x24)
expect_contains "Routines shown" "$s" "Report: Routines"
expect_absent "not on the empty Call routes" "$s" "[Call routes]"
expect_absent "no empty Details" "$s" "(no rows)"
s=$(pv_screen $'Shift-Tab\nj j j\nTab\nTab\nLeft Left Left Left\nShift-Tab\nj' "$TMP/trace.db" --size 80x24)
expect_contains "a tab chosen stays while the rows change" "$s" "[Call routes]"

# 4. After a sort the list shows its top.
n=$("$PROFVIEW" cat "$RTOS" --view routines --columns id | tail -n +2 | wc -l)
s=$(pv_screen "$TO_ROUTINES"$'\nG\ns' "$RTOS" --size 80x24)
expect_contains "s from the last row: row 1" "$s" "row 1/$n"
top=$("$PROFVIEW" cat "$RTOS" --view routines --sort hits:desc --columns routine | sed -n 2p)
s=$(pv_screen "$TO_ROUTINES"$'\nG k\n:sort hits:desc<Enter>' "$RTOS" --size 80x24)
expect_contains ":sort: row 1" "$s" "row 1/$n"
expect_contains ":sort: its first row at the top" "$(sed -n 3p <<<"$s")" "$top"
s=$(pv_screen "$TO_ROUTINES"$'\n:sort hits:desc<Enter>\nG k\nr' "$RTOS" --size 80x24)
expect_contains "r from the row before last: row 1" "$s" "row 1/$n"
s=$(pv_screen $'Shift-Tab\nj j j j j\nTab\nG\ns' "$RTOS" --size 80x24)
expect_contains "a tree sorted: row 1" "$s" "│ call-trace │ row 1/"
echo PASS
