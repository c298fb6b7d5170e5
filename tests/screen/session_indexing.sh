#!/usr/bin/env bash
# A session restored while the index is still being built (docs/tui.md
# "Sessions": restored "after the index, as views open",
# pv_app_session_tick), in tmux: a filter and markers at times set on a
# generated timeline, quit, the file opened again with the index built in
# small steps: while it is built (stopped by Ctrl-C, to look at it) the
# filter and markers are not there yet; once the index is complete they
# come back as they were.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
export PROFVIEW_CACHE=off # the index is built at every open
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
"$gen" --seed 3 --events 600000 --format bin11 -o "$TMP/run.txt" >/dev/null
export PV_STATE=$TMP/state # shared by the two runs (lib.bash)

run() { # profview options
  pv_tmux_start 110 32 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $* $TMP/run.txt ; echo exit=\$?'"
  pv_tmux_wait "Report:"
}

# ---- the first run: indexed, then the Timeline filtered, markers set
run ""
pv_tmux_wait_gone "indexing"
pv_tmux_keys BTab g j j j j j j Tab # the file's line, then down to the Timeline
pv_tmux_wait "Report: Timeline"
pv_tmux_keys f "name = CRC_Calc" Enter
pv_tmux_wait_status "filter: name = CRC_Calc ("
pv_tmux_keys j m j j M
pv_tmux_wait_status "row 4/"
pv_tmux_wait_status " B "
before=$(pv_tmux_status)
pv_tmux_keys ":q" Enter
pv_tmux_wait "exit=0"
pv_tmux_stop
[ -n "$(ls "$PV_STATE"/profview/*.session)" ] || fail "no session file written"

# ---- opened again, the index built a unit at a time (600 000 events: about
# four seconds in the normal build, more with sanitizers; Ctrl-C comes well
# before its end)
run "--test index-slice=1"
pv_tmux_wait "indexing"
pv_tmux_keys C-c # the index stops where it is: the session waits for it
pv_tmux_wait "indexing stopped"
s=$(pv_tmux_screen)
expect_contains "while indexing: the view shown is the session's" "$s" "Report: Timeline"
expect_absent "while indexing: the filter not restored yet" "$s" "filter: name = CRC_Calc"
expect_absent "... nor the markers" "$(pv_tmux_status)" " B "
expect_absent "... nor said restored" "$s" "session restored"
pv_tmux_keys ":index" Enter
pv_tmux_wait "run.txt: session restored"
pv_tmux_wait_status "row 4/"
expect_screen "restored once indexed: view, filter, row, markers" "$(pv_tmux_status)" "$before"
pv_tmux_keys ":q" Enter
pv_tmux_wait "exit=0"
pv_tmux_stop
echo "ok: a session waits for the index, then comes back whole"
