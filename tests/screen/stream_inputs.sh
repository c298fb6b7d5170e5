#!/usr/bin/env bash
# The viewer on streams (docs/input.md): for every format, a FIFO, a pipe on
# `-` and on /dev/stdin, and a process substitution show the same first
# screen as the file itself (scripted keys, exact screens, the file name
# aside); in a real terminal (tmux), `cat FILE | profview -` takes its keys
# from the terminal, and a FIFO opens and is browsed.
source "$(dirname "$0")/lib.bash"
samples=(aqtime-trace.db rtos.txt rtos-v11.txt.BIN plist-func-timing.txt)
for s in "${samples[@]}"; do need_sample "$s"; done
printf 'j\nj\nTab\nj\n' > "$TMP/keys"

# The dump of the scripted run, the name under which the file was seen made FILE.
dump() { # NAME-SEEN profview-args... (stdin passed through)
  local seen=$1; shift
  "$PROFVIEW" --keys "$TMP/keys" --dump "$TMP/screen" --size 160x24 "$@" || fail "profview $* exited with $?"
  local base=${seen##*/}   # in the Explorer's first row and the status bar
  sed -e "s#$seen#FILE#g" -e "s#^$base #FILE #" -e "s#^ $base │# FILE │#" -e "s/  */ /g" "$TMP/screen"
}

mkdir -p "$TMP/in"
for s in "${samples[@]}"; do
  # a short path, so that no name is cut at the screen's edge
  file=$TMP/in/$s
  cp "$SAMPLES/$s" "$file"
  want=$(dump "$file" "$file")
  rm -f "$TMP/fifo"; mkfifo "$TMP/fifo"
  pv_fifo_write_slowly "$file" "$TMP/fifo" &
  got=$(dump "$TMP/fifo" "$TMP/fifo"); wait
  expect_screen "$s: FIFO" "$got" "$want"
  got=$(cat "$file" | dump /dev/stdin -)
  expect_screen "$s: pipe on -" "$got" "$want"
  got=$(cat "$file" | dump /dev/stdin /dev/stdin)
  expect_screen "$s: pipe on /dev/stdin" "$got" "$want"
  exec {fd}< <(cat "$file")   # as <(...) does, with a known name
  got=$(dump "/dev/fd/$fd" "/dev/fd/$fd")
  exec {fd}<&-
  expect_screen "$s: process substitution" "$got" "$want"
done

# :stats loads the file again over the markers' window: from a pipe, that
# second load reads the kept copy (the pipe is empty by then).
printf '%s\n' Shift-Tab 'j j j j' Tab ':goto 11<Enter>' m ':goto 201<Enter>' M ':stats<Enter>' \
  > "$TMP/keys"
want=$(dump "$TMP/in/rtos.txt" "$TMP/in/rtos.txt")
expect_contains "range statistics shown" "$want" "[statistics "
got=$(cat "$SAMPLES/rtos.txt" | dump /dev/stdin -)
expect_screen "range statistics of a pipe" "$got" "$want"

# A real terminal: data on stdin, keys from the terminal.
file=$SAMPLES/plist-func-timing.txt
pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c 'cat $file | $PROFVIEW -; echo exit=\$?'"
pv_tmux_wait "Report: Summary"
expect_contains "stdin: the file row names /dev/stdin" "$(pv_tmux_screen)" "/dev/stdin"
pv_tmux_keys j j
pv_tmux_wait "row 3/28"
pv_tmux_keys q
pv_tmux_wait "exit=0"
echo "ok: keys from the terminal while the data came on stdin"
pv_tmux_stop

# A FIFO whose writer comes later, in a real terminal.
rm -f "$TMP/fifo"; mkfifo "$TMP/fifo"
pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $TMP/fifo; echo exit=\$?'"
pv_tmux_wait "loading fifo" # the viewer is up, waiting for the writer
cat "$SAMPLES/rtos.txt" > "$TMP/fifo"
pv_tmux_wait "Report: Summary"
pv_tmux_keys j j
pv_tmux_wait "row 3/"
pv_tmux_keys q
pv_tmux_wait "exit=0"
echo "ok: a FIFO in a real terminal"
pv_tmux_stop
