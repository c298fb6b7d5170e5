#!/usr/bin/env bash
# Terminals whose terminfo lacks what the viewer relies on (docs/tui.md
# "Terminals"): Shift-Tab arrives as ESC [ Z under TERM=vt100 and
# TERM=linux, whose entries have no kcbt, and must still move the focus
# back (it was taken as Esc, '[' and 'Z'); TERM=dumb cannot move the cursor:
# the viewer refuses it with a message and status 2 instead of drawing a
# blank screen.
source "$(dirname "$0")/lib.bash"
need_sample rtos.txt
FILE=$SAMPLES/rtos.txt
AFTER='echo "exit=$?"'

for term in vt100 linux xterm-256color; do
  infocmp "$term" >/dev/null 2>&1 || { echo "skip: no terminfo entry for $term"; continue; }
  # Under TERM=linux ncurses asks GPM for the mouse (mousemask loads
  # libgpm, unloaded again), which leaks 10 bytes that the sanitizer build
  # reports at exit with no frame of ours: not checked for that terminal.
  leaks=
  [ "$term" = linux ] && leaks="env ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  pv_tmux_start 80 24 "$term" C.UTF-8 "sh -c '$leaks $PROFVIEW $FILE; $AFTER'"
  pv_tmux_wait "Report: Summary"
  # The Report has the focus: Shift-Tab gives it to the Explorer, where j
  # opens the next view (Contexts); taken as Esc [ Z, j would move the
  # Report's row instead.
  pv_tmux_keys BTab
  pv_tmux_keys j
  pv_tmux_wait "Report: Contexts"
  s=$(pv_tmux_screen)
  expect_contains "TERM=$term: Shift-Tab moved the focus to the Explorer" "$s" "contexts │ row 1/5"
  pv_tmux_keys q
  pv_tmux_wait "exit=0"
  pv_tmux_stop
done

# TERM=dumb: a message on the terminal, status 2, and nothing drawn
pv_tmux_start 80 24 dumb C.UTF-8 "sh -c '$PROFVIEW $FILE; $AFTER'"
pv_tmux_wait "exit="
s=$(pv_tmux_screen)
expect_contains "TERM=dumb: status 2" "$s" "exit=2"
expect_contains "TERM=dumb: says why" "$s" "cannot move the cursor"
expect_contains "TERM=dumb: says what works" "$s" "profview cat"
expect_absent "TERM=dumb: no viewer drawn" "$s" "Explorer"
pv_tmux_stop
