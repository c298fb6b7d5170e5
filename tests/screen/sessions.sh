#!/usr/bin/env bash
# Sessions, bookmarks and :reload (docs/tui.md "Sessions", "Bookmarks",
# ":reload"), in tmux: a view, a filter, markers and a bookmark survive a
# quit; ' and ` step through the bookmarks, the Explorer's Bookmarks lists
# them and Enter goes back; the SQLite export holds them; :session reset,
# --no-session, a corrupt, a stale session and an untrusted state
# directory; :reload (and r on the file's line) after the file was
# rewritten keeps the place and shows the new recording.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
"$gen" --seed 3 --events 20000 --format bin11 -o "$TMP/a.txt" >/dev/null
"$gen" --seed 4 --events 30000 --format bin11 -o "$TMP/b.txt" >/dev/null
cp "$TMP/a.txt" "$TMP/run.txt"
cp "$TMP/a.txt.BIN" "$TMP/run.txt.BIN"
export PV_STATE=$TMP/state # shared by the runs of this test (lib.bash)

run() { # profview options and files
  pv_tmux_start 110 32 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache $* ; echo exit=\$?'"
  pv_tmux_wait "Report:"
}
stop() {
  pv_tmux_keys ":q" Enter
  pv_tmux_wait "exit=0"
  pv_tmux_stop
}

# ---- a view, a filter, markers and a bookmark, then quit and reopen
run "$TMP/run.txt"
pv_tmux_keys BTab g j j j j j j Tab # the file's line, then down to the Timeline
pv_tmux_wait "Report: Timeline"
pv_tmux_keys f "name = CRC_Calc" Enter
pv_tmux_wait_status "filter: name = CRC_Calc (1127)"
pv_tmux_keys j m j j M
pv_tmux_wait_status "row 4/1127"
pv_tmux_wait_status "B 5.996 us"
pv_tmux_keys b "first one" Enter
pv_tmux_wait "bookmark 1: Timeline row 46 'first one'" # the view's row 46 (index 45)
pv_tmux_keys j
pv_tmux_wait_status "row 5/1127"
before=$(pv_tmux_status)
stop
[ -n "$(ls "$PV_STATE"/profview/*.session)" ] || fail "no session file written"
[ "$(stat -c %a "$PV_STATE/profview")" = 700 ] || fail "the state directory is not private"

run "$TMP/run.txt"
pv_tmux_wait "run.txt: session restored"
pv_tmux_wait_status "row 5/1127"
expect_screen "restored: view, filter, row, markers" "$(pv_tmux_status)" "$before"
expect_contains "restored: the bookmark" "$(pv_tmux_screen)" "Bookmarks (1)"

# ---- bookmarks: b, ' and `, the Bookmarks view, Enter, the export
last=$("$PROFVIEW" cat "$TMP/run.txt" --view timeline --filter 'name = CRC_Calc' --columns id,time |
  tail -1 | tr '\t' ' ')
pv_tmux_keys G b "second" Enter
pv_tmux_wait "bookmark 2: Timeline row $((${last% *} + 1)) 'second'"
pv_tmux_keys "'"
pv_tmux_wait "bookmark 1 of 2: first one"
pv_tmux_wait_status "row 4/1127"
pv_tmux_keys '`'
pv_tmux_wait "bookmark 2 of 2: second"
pv_tmux_wait_status "row 1127/1127"
pv_tmux_keys BTab G Tab
pv_tmux_wait "Report: Bookmarks"
screen=$(pv_tmux_screen)
expect_contains "the Bookmarks view: the first" "$screen" "5.996 us first one"
expect_contains "the Bookmarks view: the second" "$screen" "second"
pv_tmux_keys Enter
pv_tmux_wait "Report: Timeline"
pv_tmux_wait "bookmark 1 of 2: first one"
pv_tmux_wait_status "row 4/1127"
pv_tmux_keys ":copy bookmarks" Enter
pv_tmux_wait "copied the bookmarks (2 rows)"
pv_tmux_keys ":export sqlite $TMP/out.db" Enter
pv_tmux_wait "out.db (sqlite)"
got=$(python3 -c '
import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute("SELECT view_id, view_row, time, note FROM profview_bookmarks ORDER BY view_row"):
    print(*r)' "$TMP/out.db")
expect_screen "bookmarks in the SQLite export" "$got" "timeline 45 5996 first one
timeline $last second"
pv_tmux_keys ":filter" Enter # trace-json writes the calls: no filter of the events
pv_tmux_wait_status "row 46/20000"
pv_tmux_keys ":export trace-json $TMP/out.json" Enter
pv_tmux_wait "out.json (trace-json)"
got=$(python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e.get("ph") == "i" and e["name"].startswith("bookmark"):
        print(e["name"], round(e["ts"] * 1000), e["args"]["view"], e["args"]["row"])' "$TMP/out.json")
expect_screen "bookmarks in the trace-json export" "$got" "bookmark: first one 5996 timeline 45
bookmark: second ${last#* } timeline ${last% *}"
stop

# ---- :session reset forgets it; the next quit saves again
run "$TMP/run.txt"
pv_tmux_wait "session restored"
pv_tmux_keys ":session reset" Enter
pv_tmux_wait "run.txt: session forgotten"
stop
run "$TMP/run.txt"
expect_absent ":session reset: nothing restored" "$(pv_tmux_screen)" "session restored"
expect_absent ":session reset: no filter" "$(pv_tmux_screen)" "filter:"
pv_tmux_keys BTab g j j j j j j Tab f "event = E" Enter
pv_tmux_wait_status "filter: event = E"
stop

# ---- --no-session neither restores nor saves
run --no-session "$TMP/run.txt"
expect_absent "--no-session: nothing restored" "$(pv_tmux_screen)" "session restored"
expect_absent "--no-session: no filter" "$(pv_tmux_screen)" "filter:"
stop
run "$TMP/run.txt"
pv_tmux_wait "session restored"
pv_tmux_wait_status "filter: event = E"
stop

# ---- so does `session: false` in the config
mkdir -p "$XDG_CONFIG_HOME/profview"
printf 'session: false\n' >"$XDG_CONFIG_HOME/profview/config.yaml"
run "$TMP/run.txt"
expect_absent "session: false: nothing restored" "$(pv_tmux_screen)" "session restored"
expect_absent "session: false: no filter" "$(pv_tmux_screen)" "filter:"
pv_tmux_keys ":session" Enter
pv_tmux_wait "sessions are off"
stop
rm "$XDG_CONFIG_HOME/profview/config.yaml"

# ---- a corrupt session, a stale one, an untrusted directory: ignored, said
session=$(ls "$PV_STATE"/profview/*.session)
printf 'profview-session 1\ninput\tx\nview\t0\n' >"$session"
run "$TMP/run.txt"
pv_tmux_wait "run.txt: its saved session is ignored"
expect_contains "corrupt: says where" "$(pv_tmux_screen)" "line 2: "
stop
run "$TMP/run.txt" # saved again, whole
pv_tmux_keys BTab g j j j j j j Tab f "event = X" Enter
pv_tmux_wait_status "filter: event = X"
stop
touch -d '2001-01-01' "$TMP/run.txt"
run "$TMP/run.txt"
pv_tmux_wait "run.txt changed since its session was saved"
stop
chmod 777 "$PV_STATE/profview"
run "$TMP/run.txt"
pv_tmux_wait "sessions are not used: $PV_STATE/profview is writable by others"
stop
chmod 700 "$PV_STATE/profview"

# ---- a big timeline (more than 200 000 events): the restored filter and
# sort run as jobs of the engine, once the index is ready
"$gen" --seed 5 --events 400000 --format bin11 -o "$TMP/big.txt" >/dev/null
run "$TMP/big.txt"
pv_tmux_keys BTab g j j j j j j Tab # the file's line, then down to the Timeline
pv_tmux_wait "Report: Timeline"
pv_tmux_keys f "name = CRC_Calc" Enter
pv_tmux_wait_status "filter: name = CRC_Calc ("
pv_tmux_keys ":sort time:desc" Enter
pv_tmux_wait_status "sort: time:desc"
pv_tmux_keys j j
pv_tmux_wait_status "row 3/"
big=$(pv_tmux_status)
stop
run "$TMP/big.txt"
pv_tmux_wait "big.txt: session restored"
pv_tmux_wait_status "row 3/"
expect_screen "a big timeline restored" "$(pv_tmux_status)" "$big"
stop

# ---- markers on rows of a view without a clock (the AQTime call trace,
# grouped by thread): restored on the same rows
cp "$SAMPLES/aqtime-trace.db" "$TMP/trace.db"
run "$TMP/trace.db"
pv_tmux_keys BTab g j j j j Tab
pv_tmux_wait "Report: Call Trace"
pv_tmux_keys j j m j j j M
pv_tmux_wait_status "A row 3 B row 6"
marks=$(pv_tmux_status)
stop
run "$TMP/trace.db"
pv_tmux_wait "trace.db: session restored"
pv_tmux_wait_status "A row 3 B row 6"
expect_screen "row markers restored" "$(pv_tmux_status)" "$marks"
stop

# ---- :reload after the file was rewritten (the way tests/cli/input_changed.sh
# changes it): the place is kept (the view, its filter and sort, the same
# row of the view), the new recording shown
run "$TMP/run.txt"
pv_tmux_keys BTab g j j j j j j Tab # the file's line, then down to the Timeline
pv_tmux_wait "Report: Timeline"
pv_tmux_keys f "index < 5000" Enter
pv_tmux_wait_status "filter: index < 5000 (5000)"
pv_tmux_keys j j
pv_tmux_wait_status "row 3/5000"
cp "$TMP/b.txt" "$TMP/run.txt"
dd if="$TMP/b.txt.BIN" of="$TMP/run.txt.BIN" conv=notrunc status=none
pv_tmux_keys j # the next frame
pv_tmux_wait "run.txt.BIN changed on disk while it was open: \`:reload run.txt\` (r on its line"
pv_tmux_keys ":reload" Enter
pv_tmux_wait "run.txt reloaded: your place is kept"
pv_tmux_wait "Timeline (30000)"
pv_tmux_wait_status "row 4/5000"
pv_tmux_wait_status "filter: index < 5000 (5000)"
expect_absent ":reload: the old recording is gone" "$(pv_tmux_screen)" "Timeline (20000)"
want=$("$PROFVIEW" cat "$TMP/b.txt" --view timeline --columns index,time,name --limit 4 | tail -1 |
  awk -F'\t' '{print $3}')
expect_contains ":reload: the new recording's row 4" "$(pv_tmux_screen | grep -F '│     3 ')" "$want"
# r on the file's line does the same
pv_tmux_keys BTab g r
pv_tmux_wait "run.txt reloaded: your place is kept"
pv_tmux_keys Tab
pv_tmux_wait_status "row 4/5000"
stop

# ---- pruned at a save: the session of an input that no longer exists is
# removed; a file not named as a session stays (pv_session_prune; the bound
# of 500: tests/unit/test_session.c)
cp "$TMP/a.txt" "$TMP/gone.txt"
cp "$TMP/a.txt.BIN" "$TMP/gone.txt.BIN"
ls "$PV_STATE/profview" >"$TMP/before"
run "$TMP/gone.txt"
stop
gone=$(ls "$PV_STATE/profview" | comm -13 "$TMP/before" -)
[ -n "$gone" ] || fail "no session was written for gone.txt"
rm "$TMP/gone.txt" "$TMP/gone.txt.BIN"
echo mine >"$PV_STATE/profview/notes.txt"
run "$TMP/run.txt"
stop
[ ! -e "$PV_STATE/profview/$gone" ] || fail "the session of a deleted input was not pruned"
echo "ok: the session of a deleted input is pruned at the next save"
[ "$(cat "$PV_STATE/profview/notes.txt")" = mine ] || fail "a file not named as a session was touched"
[ -n "$(ls "$PV_STATE"/profview/*.session)" ] || fail "run.txt's session is gone"
echo "ok: a foreign file and the other sessions stay"
echo PASS
