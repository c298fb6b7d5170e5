#!/usr/bin/env bash
# Out of memory in the viewer (on its loader thread): the terminal is
# restored (canonical mode, echo, the screen given back), then the message
# and exit status 2 (tests/cli/out_of_memory.sh for the CLI).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample aqtime-trace.db
if ! bash -c 'ulimit -v 400000; exec "$1" --version' _ "$PROFVIEW" >/dev/null 2>&1; then
  echo "note: this build cannot start under ulimit -v (a sanitizer build): skipped"
  echo PASS
  exit 0
fi
cp "$SAMPLES/aqtime-trace.db" "$TMP/oom.db"
sqlite3 "$TMP/oom.db" "WITH RECURSIVE c(x) AS (SELECT 100 UNION ALL SELECT x + 1 FROM c
  WHERE x < 3000099) INSERT INTO INSTANCES SELECT x, 'r', 'Elapsed Time', 3579545, 'Time' FROM c"
need_sample rtos.txt
AFTER='echo "exit=$?"; stty -a | tr " ;" "\n\n" | grep -x -e icanon -e -icanon -e echo -e -echo; echo tty-checked'
pv_tmux_start 80 24 xterm-256color C.UTF-8 "sh -c 'ulimit -v 400000; ulimit -c 0; $PROFVIEW $SAMPLES/rtos.txt $TMP/oom.db; $AFTER'"
pv_tmux_wait "tty-checked" 60
s=$(pv_tmux_screen)
expect_contains "exit status 2" "$s" "exit=2"
expect_contains "the message" "$s" "profview: out of memory (asked for"
expect_contains "canonical mode restored" "$s" $'\nicanon'
expect_contains "echo restored" "$s" $'\necho'
expect_absent "the screen given back" "$s" "Explorer"
pv_tmux_stop
echo PASS
