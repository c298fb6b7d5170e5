#!/usr/bin/env bash
# Nothing quits by surprise (docs/tui.md "Quitting"): q in a view opened from
# another one (an :sql result, a diff, a drill-down, the flame graph, icicle,
# sandwich) goes back to it; quitting with state the user made (markers, a
# filter, pinned lanes) that no session saves asks first, saying what is
# lost ("Quit? the marker of rtos.txt is not saved (sessions off) y/n"), for
# q as for Ctrl-C; a small file with nothing set quits at once.  With
# sessions on (tmux, a state directory of the test's own) markers and a
# filter are saved: q quits at once and the next open restores them;
# --no-session asks.  (A big index: long_work.sh.)  Each --keys case ends
# with j: when the viewer is still running it moves the selection.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
cd "$SAMPLES"
TIMELINE=$'Shift-Tab\ng j j j j j j\nTab'
STATS=$'Shift-Tab\ng j j j j\nTab'
CALLS=$'Shift-Tab\ng j j j j j j j\nTab\nj'
ROUTINES=$'Shift-Tab\ng j j j j j j j j\nTab\nj'
rtos() { pv_screen "$1" rtos.txt --size 100x30; }
status() { tail -n 1 <<<"$1"; }
title() { head -n 1 <<<"$1" | sed 's/^[^│]*│//; s/ *─*$//'; }

# expect_back NAME KEYS_TO_ORIGIN KEYS_OPENING WANT_STATUS WANT_TITLE
expect_back() {
  local opened s
  opened=$(rtos "$2"$'\n'"$3")
  [ "$(title "$opened")" != "$5" ] || { printf '%s\n' "$opened" >&2; fail "$1: test premise: it opens another view"; }
  s=$(rtos "$2"$'\n'"$3"$'\nq\nj')
  expect_contains "$1: q goes back, and the viewer runs on" "$(status "$s")" "$4"
  [ "$(title "$s")" = "$5" ] || { printf '%s\n' "$s" >&2; fail "$1: back in '$(title "$s")', not '$5'"; }
}

expect_back ":sql result" "$TIMELINE"$'\n:goto 500<Enter>' ':sql SELECT 1<Enter>' \
  "rtos.txt │ timeline │ row 502/3000" "─ Report: Timeline"
expect_back "diff" "$STATS" ':diff 0..100us 100us..200us<Enter>' \
  "rtos.txt │ statistics │ row 2/83" "─ Report: Statistics"
expect_back "drill-down" "$ROUTINES" 'Enter' "rtos.txt │ routines │ row 3/11" "─ Report: Routines"
expect_back "flame graph" "$CALLS" 'F' "│ call-trace │ row 3/" "─ Report: Call trace"
expect_back "icicle" "$CALLS" 'I' "│ call-trace │ row 3/" "─ Report: Call trace"
expect_back "sandwich from the table" "$CALLS" 'W' "│ call-trace │ row 3/" "─ Report: Call trace"
# A sandwich opened from the flame graph goes back to the graph.
s=$(rtos "$CALLS"$'\nF\nk\nW\nq')
expect_contains "test premise: a sandwich from the graph" "$(title "$(rtos "$CALLS"$'\nF\nk\nW')")" "─ Sandwich"
expect_contains "sandwich from the graph: q goes back to the graph" "$(title "$s")" "─ Flame graph"

# Quitting asks when it would lose markers or a filter: a --keys run has no
# session (docs/testing.md).
s=$(rtos "$TIMELINE"$'\nm\nq')
expect_contains "q with a marker set asks" "$(status "$s")" \
  "Quit? the marker of rtos.txt is not saved (sessions off) y/n"
s=$(rtos "$TIMELINE"$'\nm\nq\nn\nj')
expect_contains "n stays (and does nothing else)" "$(status "$s")" "row 2/3000"
expect_absent "... the question is gone" "$(status "$s")" "Quit?"
s=$(rtos "$TIMELINE"$'\nm\nq\ny\nj\nj')
expect_contains "y quits (the j never came)" "$(status "$s")" "row 1/3000"
s=$(rtos "$TIMELINE"$'\nm\nCtrl-C')
expect_contains "Ctrl-C with a marker set asks too" "$(status "$s")" "Quit? the marker of rtos.txt"
s=$(rtos "$TIMELINE"$'\nm\nCtrl-C\nx\nj')
expect_contains "... any other key stays" "$(status "$s")" "row 2/3000"
s=$(rtos "$TIMELINE"$'\n:filter Idle_Hook<Enter>\nq')
expect_contains "q with a filter asks" "$(status "$s")" \
  "Quit? the filter of rtos.txt is not saved (sessions off) y/n"
s=$(rtos "$TIMELINE"$'\nm\n:filter Idle_Hook<Enter>\nM\nq')
expect_contains "... markers and a filter: all of them named" "$(status "$s")" \
  "Quit? the markers and filter of rtos.txt are not saved (sessions off) y/n"
s=$(rtos "$ROUTINES"$'\nEnter\n:filter Idle<Enter>\nCtrl-C')
expect_contains "Ctrl-C in a drill-down: its filter, which no session keeps" "$(status "$s")" \
  "Quit? the filter of a drill-down is not saved y/n"
# A small file with nothing set quits at once, for q as for Ctrl-C.
s=$(rtos "$TIMELINE"$'\nq\nj')
expect_contains "q with nothing to lose quits at once" "$(status "$s")" "row 1/3000"
expect_absent "... without asking" "$s" "Quit?"
s=$(rtos "$TIMELINE"$'\nCtrl-C\nj')
expect_contains "Ctrl-C with nothing to lose quits at once" "$(status "$s")" "row 1/3000"

# Sessions on: the markers and the filter are saved at quit, so q quits at
# once, and the next open restores them (docs/tui.md "Sessions").
export PV_STATE=$TMP/state # shared by the viewers below (lib.bash)
viewer() { # profview options
  pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache $* $SAMPLES/rtos.txt; echo exit=\$?'"
  pv_tmux_wait "Report:"
}
set_state() { # a marker A, a filter, a marker B on the Timeline
  pv_tmux_keys BTab g j j j j j j Tab
  pv_tmux_wait "Report: Timeline"
  pv_tmux_keys m : "filter Idle_Hook" Enter
  pv_tmux_wait "filter: Idle_Hook"
  pv_tmux_keys j M
  pv_tmux_wait "B "
}
viewer
set_state
pv_tmux_keys q
pv_tmux_wait "exit=0"
expect_absent "sessions on: q with markers and a filter quits at once" "$(pv_tmux_screen)" "Quit?"
pv_tmux_stop
viewer
pv_tmux_wait "rtos.txt: session restored: "
expect_contains "... and the next open restores them" "$(pv_tmux_screen)" "1 filter, 2 markers"
pv_tmux_wait "filter: Idle_Hook"
pv_tmux_keys q
pv_tmux_wait "exit=0"
pv_tmux_stop
# --no-session: nothing is saved, q asks and says so
viewer --no-session
set_state
pv_tmux_keys q
pv_tmux_wait "Quit? the markers and filter of rtos.txt are not saved (sessions off) y/n"
pv_tmux_keys y
pv_tmux_wait "exit=0"
pv_tmux_stop
