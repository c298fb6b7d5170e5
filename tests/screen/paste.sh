#!/usr/bin/env bash
# Bracketed paste (docs/tui.md "Terminals"): the viewer asks the terminal
# for it, so that a paste arrives as one input: a filter of over 1 000
# characters pasted into the filter prompt is taken whole (and applied by
# Enter), while a paste with no prompt open is refused with a message and
# its characters are never taken as keys (the "q" in it does not quit).
# tmux's paste-buffer -p brackets the paste only when the application asked.
source "$(dirname "$0")/lib.bash"
need_sample rtos.txt
FILE=$SAMPLES/rtos.txt
AFTER='echo "exit=$?"'
python3 -c "print(' or '.join(['routine ~ /^Task_Fast\$/'] * 45), end='')" >"$TMP/filter.txt"
[ "$(wc -c <"$TMP/filter.txt")" -gt 1000 ] || fail "the pasted filter is not over 1000 characters"

pv_tmux_start 80 24 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $FILE; $AFTER'"
pv_tmux_wait "Report: Summary"
pv_tmux_keys BTab j j j j j j
pv_tmux_wait "Report: Routines"
pv_tmux_keys Tab f
pv_tmux_wait "filter:"
tmux -L "$PV_TMUX_SOCKET" load-buffer "$TMP/filter.txt"
tmux -L "$PV_TMUX_SOCKET" paste-buffer -p -t 0
# the prompt shows the end of the line: the paste's last characters
pv_tmux_wait 'Task_Fast$/'
pv_tmux_keys Enter
pv_tmux_wait "1 of 11 rows match"
expect_contains "the pasted filter applied whole" "$(pv_tmux_screen)" "row 1/1 │ filter: routine ~"

# no prompt open: a message, and "jjjq" is not four keys
printf 'jjjq' >"$TMP/keys.txt"
tmux -L "$PV_TMUX_SOCKET" load-buffer "$TMP/keys.txt"
tmux -L "$PV_TMUX_SOCKET" paste-buffer -p -t 0
pv_tmux_wait "a paste goes into a prompt"
s=$(pv_tmux_screen)
expect_absent "a paste is not keys (q did not quit)" "$s" "exit="
expect_contains "a paste is not keys (the row did not move)" "$s" "row 1/1"
pv_tmux_keys q # a filter is set, saved by the file's session: quits at once
pv_tmux_wait "exit=0"
pv_tmux_stop
