#!/usr/bin/env bash
# :reload of a file an :sql result was made from (docs/tui.md ":reload"),
# in tmux: the reload is done, the results whose query read the file are
# closed (the message says how many), a result of another file stays, the
# history and q go nowhere near the closed ones, and a query run again
# reads the new recording.  The sanitizer build runs it too: nothing reads
# the old recording's views once it is freed.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
"$gen" --seed 3 --events 20000 --format bin11 -o "$TMP/a.txt" >/dev/null
"$gen" --seed 4 --events 30000 --format bin11 -o "$TMP/b.txt" >/dev/null
"$gen" --seed 5 --events 5000 --format bin11 -o "$TMP/other.txt" >/dev/null
cp "$TMP/a.txt" "$TMP/run.txt"
cp "$TMP/a.txt.BIN" "$TMP/run.txt.BIN"
export PV_STATE=$TMP/state

pv_tmux_start 110 32 xterm-256color C.UTF-8 \
  "sh -c '$PROFVIEW --no-cache $TMP/run.txt $TMP/other.txt ; echo exit=\$?'"
pv_tmux_wait "Report:"
# two results of run.txt (one with the rows' ids: its Details read the
# file's views), one of other.txt
pv_tmux_keys ":sql SELECT count(*) AS n FROM r1.timeline" Enter
pv_tmux_wait "SQL 1: 1 rows"
pv_tmux_keys ":sql SELECT id, name FROM r1.timeline WHERE id < 3" Enter
pv_tmux_wait "SQL 2: 3 rows"
pv_tmux_keys ":sql SELECT count(*) AS other FROM r2.timeline" Enter
pv_tmux_wait "SQL 3: 1 rows"
pv_tmux_keys ":sql SELECT id, name FROM r1.timeline WHERE id < 4" Enter
pv_tmux_wait "SQL 4: 4 rows"
pv_tmux_keys j # a row of it selected: its Details open
cp "$TMP/b.txt" "$TMP/run.txt"
dd if="$TMP/b.txt.BIN" of="$TMP/run.txt.BIN" conv=notrunc status=none
pv_tmux_keys ":reload run.txt" Enter
pv_tmux_wait "run.txt reloaded: your place is kept; 3 :sql results of it closed"
s=$(pv_tmux_screen)
expect_absent ":reload with :sql results: not refused" "$s" "cannot be reloaded"
expect_contains ":reload with :sql results: the new recording" "$s" "Timeline (30000)"
expect_absent ":reload with :sql results: the old recording is gone" "$s" "Timeline (20000)"
expect_contains ":reload: the result of other.txt stays" "$s" "SQL 3:"
expect_contains ":reload: SQL 4 was shown: back where its query was run (SQL 3)" "$s" \
  "Report: SQL 3:"
for k in 1 2 4; do
  expect_absent ":reload: SQL $k (of run.txt) closed" "$s" "SQL $k:"
done
# the history: back through the places of the closed results (to the
# results' line) and forward again; nothing reads a freed view
pv_tmux_keys BSpace BSpace BSpace ']' ']' ']'
pv_tmux_keys ":sql SELECT count(*) AS n FROM r1.timeline" Enter
pv_tmux_wait "SQL 5: 1 rows"
expect_contains ":sql after :reload reads the new recording (its row: n)" \
  "$(pv_tmux_screen | sed -n 3p)" "│30000"
# the result of other.txt: shown, its q goes back to where it was run
pv_tmux_keys ":reload other.txt" Enter
pv_tmux_wait "other.txt reloaded: your place is kept; 1 :sql result of it closed"
expect_absent ":reload other.txt: SQL 3 closed" "$(pv_tmux_screen)" "SQL 3:"
expect_contains ":reload other.txt: SQL 5 (of run.txt) stays" "$(pv_tmux_screen)" "SQL 5:"
pv_tmux_keys ":q" Enter
pv_tmux_wait "exit=0"
pv_tmux_stop
echo "ok: :reload closes the :sql results of the file"
