#!/usr/bin/env bash
# The viewer in a real terminal (tmux): UTF-8 and LANG=C, TERM=xterm-256color
# and TERM=screen, live resize, help, and the terminal restored after quit,
# Ctrl-C and SIGTERM (canonical mode and echo back on, the screen given back).
source "$(dirname "$0")/lib.bash"
need_sample plist-func-timing.txt
FILE=$SAMPLES/plist-func-timing.txt
# After profview ends, the pane shows its exit status and the tty modes.
AFTER='echo "exit=$?"; stty -a | tr " ;" "\n\n" | grep -x -e icanon -e -icanon -e echo -e -echo; echo tty-checked'

# 1. UTF-8, 256 colours: line drawing, moving, resize, help, quit.
pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $FILE; $AFTER'"
pv_tmux_wait "Report: Summary"
s=$(pv_tmux_screen)
expect_contains "utf8 line drawing" "$s" "─ Explorer ─"
expect_contains "first view shown" "$s" "Report: Summary"
colors=$(tmux -L "$PV_TMUX_SOCKET" capture-pane -e -p -t 0)
expect_contains "default theme: selected row black on cyan" "$colors" $'\e[30m\e[46mformat'
pv_tmux_keys j j
pv_tmux_wait "row 3/28"
tmux -L "$PV_TMUX_SOCKET" resize-window -t 0 -x 70 -y 20
pv_tmux_wait_line 19 "row 3/28"
# tmux moves the old lines up at once; the title comes with the redraw
pv_tmux_wait_line 1 "Report: Summary"
s=$(pv_tmux_screen)
[ "$(printf '%s\n' "$s" | wc -l)" -le 20 ] || fail "resize: more than 20 lines"
longest=$(printf '%s\n' "$s" | LC_ALL=C.UTF-8 wc -L)
[ "$longest" -le 70 ] || fail "resize: a line is $longest columns wide"
expect_contains "resize: the title bar fits 70 columns" "$(printf '%s\n' "$s" | sed -n 1p)" "Report: Summary"
tmux -L "$PV_TMUX_SOCKET" resize-window -t 0 -x 120 -y 40
pv_tmux_wait_line 39 "row 3/28"
echo "ok: live resize 100x30 -> 70x20 -> 120x40"
pv_tmux_keys '?'
pv_tmux_wait "Help: keys"
pv_tmux_keys q
pv_tmux_wait "Report: Summary"
pv_tmux_keys q
pv_tmux_wait "exit=0"
pv_tmux_wait "tty-checked"
s=$(pv_tmux_screen)
expect_absent "quit gives the screen back" "$s" "Explorer"
expect_contains "quit restores canonical mode" "$s" $'\nicanon'
expect_contains "quit restores echo" "$s" $'\necho'
pv_tmux_stop

# 2. LANG=C, TERM=screen: ASCII line drawing, no byte above 0x7F; Ctrl-C quits.
pv_tmux_start 100 30 screen C "sh -c '$PROFVIEW $FILE; $AFTER'"
pv_tmux_wait "Report: Summary"
s=$(pv_tmux_screen)
expect_contains "ascii line drawing" "$s" "- Explorer -"
if LC_ALL=C grep $'[\x80-\xff]' <<<"$s" >/dev/null; then fail "non-ASCII bytes on a LANG=C screen"; fi
echo "ok: LANG=C screen is pure ASCII"
pv_tmux_keys C-c
pv_tmux_wait "exit=0"
pv_tmux_wait "tty-checked"
expect_contains "Ctrl-C restores the terminal" "$(pv_tmux_screen)" $'\nicanon'
pv_tmux_stop

# 3. NO_COLOR: attributes only (the selected row reversed), no colour at all.
pv_tmux_start 80 24 xterm-256color C.UTF-8 "sh -c 'NO_COLOR=1 $PROFVIEW $FILE; $AFTER'"
pv_tmux_wait "Report: Summary"
colors=$(tmux -L "$PV_TMUX_SOCKET" capture-pane -e -p -t 0)
expect_contains "NO_COLOR: selected row reversed" "$colors" $'\e[7mformat'
if grep $'\e\[[34][0-7]m' <<<"$colors" >/dev/null; then fail "NO_COLOR: colour codes on screen"; fi
echo "ok: NO_COLOR: no colour codes"
pv_tmux_keys q
pv_tmux_wait "tty-checked"
pv_tmux_stop

# 4. Signals from outside (SIGTERM, SIGHUP) and a crash signal (SIGSEGV):
# the handler restores the terminal, then the process dies of the signal.
for sig in TERM:143 HUP:129 SEGV:139; do
  name=${sig%%:*} status=${sig##*:}
  rm -f "$TMP/pid"
  pv_tmux_start 80 24 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $FILE </dev/tty & echo \$! > $TMP/pid; wait \$!; $AFTER'"
  pv_tmux_wait "Report: Summary"
  # The shell writes the pid after forking: the screen can be up before that.
  pv_until -- test -s "$TMP/pid" || fail "no pid written"
  kill -"$name" "$(cat "$TMP/pid")"
  pv_tmux_wait "exit=$status"
  pv_tmux_wait "tty-checked"
  s=$(pv_tmux_screen)
  expect_contains "SIG$name restores canonical mode" "$s" $'\nicanon'
  expect_contains "SIG$name restores echo" "$s" $'\necho'
  expect_absent "SIG$name gives the screen back" "$s" "Explorer"
  pv_tmux_stop
done
# A small winIDEA timeline is indexed before its first screen: it opens on
# its Summary, like any other file (a big one opens on a view that needs no
# index and goes on indexing between keys: tests/screen/indexing.sh).
need_sample rtos.txt
pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $SAMPLES/rtos.txt; $AFTER'"
pv_tmux_wait "Report: Summary"
expect_contains "small timeline opens on its summary" "$(pv_tmux_screen)" "Report: Summary"
pv_tmux_keys q
pv_tmux_wait "tty-checked"
pv_tmux_stop
# 5. The other terminal types of docs/tui.md (when their terminfo exists).
for term in xterm tmux-256color linux; do
  if ! infocmp "$term" >/dev/null 2>&1; then echo "skip: no terminfo for $term"; continue; fi
  pv_tmux_start 80 24 "$term" C.UTF-8 "sh -c '$PROFVIEW $FILE; $AFTER'"
  pv_tmux_wait "Report: Summary"
  pv_tmux_keys j
  pv_tmux_wait "row 2/28"
  pv_tmux_keys q
  pv_tmux_wait "tty-checked"
  expect_contains "TERM=$term: runs and restores" "$(pv_tmux_screen)" $'\nicanon'
  pv_tmux_stop
done

# 6. A terminal type without terminfo: a message and exit status 2.
pv_tmux_start 80 24 nosuchterm C.UTF-8 "sh -c '$PROFVIEW $FILE; $AFTER'"
pv_tmux_wait "exit=2"
expect_contains "unknown TERM is named" "$(pv_tmux_screen)" "profview: cannot use the terminal (TERM=nosuchterm)"
pv_tmux_stop
echo "PASS"
