#!/usr/bin/env bash
# Ctrl-C stops the load of a database that would take long (a view that
# never ends, in a file large enough that the work budget, docs/input.md
# "Databases", is a minute away): the viewer says the load was cancelled
# and goes on with what it had.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
"$PROFVIEW" export "$SAMPLES/rtos.txt" --format sqlite -o "$TMP/q.db" >/dev/null
sqlite3 "$TMP/q.db" "DROP TABLE summary; CREATE VIEW summary AS
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
  SELECT x AS _row, x AS id, 'k' AS key, 'v' AS value, 0 AS time FROM c ORDER BY x DESC;
  CREATE TABLE padding(b BLOB); INSERT INTO padding VALUES (zeroblob(200000000));"
pv_tmux_start 100 30 xterm-256color C.UTF-8 "$PROFVIEW" "$SAMPLES/rtos.txt"
pv_tmux_wait "Report: Summary"
pv_tmux_keys ":open $TMP/q.db" Enter
pv_tmux_wait "Loading q.db"
pv_tmux_keys C-c
pv_tmux_wait "q.db: table summary: cancelled"
expect_contains "the first file stays" "$(pv_tmux_screen)" "rtos.txt"
pv_tmux_stop
echo PASS
