#!/usr/bin/env bash
# A flame graph of a big call tree built in slices in a real terminal
# (tmux; docs/flame.md "Speed"): the table stays with the percentage in the
# status bar, keys are answered meanwhile, Esc stops the build and keeps the
# table, Ctrl-C stops it and does not quit; without the slowing test slices
# the graph comes.  --test flame-slice=1 makes the build slow enough
# to be seen and stopped.
source "$(dirname "$0")/lib.bash"
gen=${PV_BUILD_DIR:-}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no pv_gen_winidea in PV_BUILD_DIR"; exit 0; }
# about 300 000 calls (more than the 200 000 built at once)
"$gen" --seed 3 --tasks 5 --events 1500000 --format bin11 -o "$TMP/big.txt" >/dev/null
calls=$("$PROFVIEW" cat "$TMP/big.txt" --view call-trace --columns id | tail -n +2 | wc -l)
[ "$calls" -gt 200000 ] || fail "the generated call tree has only $calls calls"

# The Explorer's 8th line is the call trace: its table, once indexed
# (the file opens on the first view that can show rows).
open_call_trace() {
  pv_tmux_wait "Call trace (" 30 # the index is complete: the count shows
  pv_tmux_keys BTab g j j j j j j j Tab
  pv_tmux_wait "Report: Call trace"
  pv_tmux_wait "row 1/" 20
}

pv_tmux_start 120 30 xterm-256color C.UTF-8 \
  "sh -c '$PROFVIEW --no-cache --test flame-slice=1 $TMP/big.txt; echo exit=\$?'"
open_call_trace
pv_tmux_keys F
pv_tmux_wait "Building the flame graph: "
s=$(pv_tmux_screen)
expect_contains build_progress "$s" "of $calls calls (Esc stops)"
expect_contains build_keeps_table "$s" "Report: Call trace"
# a key is answered while it builds: the table's cursor moves
pv_tmux_keys j
pv_tmux_wait "row 2/"
expect_contains build_still_running "$(pv_tmux_screen)" "Building the flame graph: "
pv_tmux_keys Escape
pv_tmux_wait "flame graph stopped"
s=$(pv_tmux_screen)
expect_contains esc_keeps_table "$s" "Report: Call trace"
expect_absent esc_no_graph "$s" "Flame graph:"
# Ctrl-C stops it too, and does not quit
pv_tmux_keys F
pv_tmux_wait "Building the flame graph: "
pv_tmux_keys C-c
pv_tmux_wait "flame graph stopped"
# a key after it is answered by the viewer (keys are read in order): it
# did not quit on Ctrl-C
pv_tmux_keys j
pv_tmux_wait "row 3/"
s=$(pv_tmux_screen)
expect_absent ctrl_c_does_not_quit "$s" "exit="
expect_contains ctrl_c_keeps_table "$s" "Report: Call trace"
pv_tmux_keys q # a big index no cache keeps (--no-cache): quitting asks first
pv_tmux_wait "Quit? the index of big.txt is lost (not in the cache) y/n"
pv_tmux_keys y
pv_tmux_wait "exit=0"
pv_tmux_stop

# At full speed the graph comes (in slices of about 10 ms)
pv_tmux_start 120 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache $TMP/big.txt; echo exit=\$?'"
open_call_trace
pv_tmux_keys F
pv_tmux_wait "Flame graph: Call trace of big.txt" 30
expect_absent built_progress_gone "$(pv_tmux_screen)" "Building the flame graph"
pv_tmux_keys q q # back to the table, then quit: a big index no cache keeps, it asks
pv_tmux_wait "Quit? the index of big.txt is lost (not in the cache) y/n"
pv_tmux_keys y
pv_tmux_wait "exit=0"
pv_tmux_stop
