#!/usr/bin/env bash
# The export dialog's parts combine (docs/tui.md "Export", docs/export.md
# "Selections combine"), in a terminal (tmux): with a filter and markers A
# and B both in force, `e` preselects both and says what it will write
# ("N rows: name = CRC_Calc, between A and B"); SQLite and Text1 exports of
# the filter AND the window (AND the selected row's context) hold what `cat`
# of the source selects; `:export` follows the same parts (the filter is not
# dropped for the markers); a failure keeps the dialog open with its whole
# message (80 columns: wrapped, not cut); the dialog remembers the session's
# last format and directory.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
F='name = CRC_Calc'
"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
row_time() { awk -F'\t' -v n="$1" 'NR == n + 2 { print $3 }' "$TMP/timeline.tsv"; } # event n
A=$(row_time 10)
B=$(row_time 2000)
want=$("$PROFVIEW" cat "$RTOS" --view timeline --filter "$F" --from "$A" --to "$B" | tail -n +2 | wc -l)
all=$("$PROFVIEW" cat "$RTOS" --view timeline --filter "$F" | tail -n +2 | wc -l)
[ "$want" -gt 10 ] && [ "$want" -lt "$all" ] || fail "the selection ($want of $all rows) does not test a window"
mkdir "$TMP/out"

pv_tmux_start 80 30 xterm-256color C.UTF-8 "sh -c 'cd $TMP && $PROFVIEW $RTOS; echo exit=\$?'"
pv_tmux_wait "Report:"
# the timeline; markers A (row 10) and B (event 2000); then the filter
pv_tmux_keys BTab j j j j Tab
pv_tmux_wait "Report: Timeline"
pv_tmux_keys j j j j j j j j j j m
pv_tmux_keys ":goto #2000" Enter
pv_tmux_keys M
pv_tmux_wait " B-A "
pv_tmux_keys f
pv_tmux_keys "$F" Enter
pv_tmux_wait "rows match"

# 1. e: both parts preselected, and what will be written
pv_tmux_keys e
pv_tmux_wait "Export (Enter exports"
pv_tmux_wait "$want rows: $F, between A and B"
s=$(pv_tmux_screen)
expect_contains "the filter preselected" "$s" "Filter  [x] $F"
expect_contains "the markers preselected" "$s" "Window  [x] between markers A and B"
expect_contains "the context offered, not chosen" "$s" "Context [ ] ID_TASK_"

# 2. SQLite: the filter AND the window, as cat of the source selects them
pv_tmux_keys Down Left Up C-u "$TMP/out/crc.db" Enter
pv_tmux_wait "out/crc.db (sqlite)"
cmp <("$PROFVIEW" cat "$RTOS" --view timeline --filter "$F" --from "$A" --to "$B" --columns time,context,name,event) \
    <("$PROFVIEW" cat "$TMP/out/crc.db" --view timeline --columns time,context,name,event) ||
  fail "the dialog's SQLite export is not the filter between the markers"
echo "ok: the dialog's SQLite export holds the filter between the markers"

# 3. the dialog remembers the format and the directory (for the session)
pv_tmux_keys e
pv_tmux_wait "Export (Enter exports"
s=$(pv_tmux_screen)
expect_contains "the last format" "$s" "[SQLite]"
expect_contains "the last directory" "$s" "Path    $TMP/out/rtos-export.db"
pv_tmux_keys Escape

# 4. :export follows what is active: the filter and the markers both
pv_tmux_keys ":export sqlite $TMP/out/cmd.db" Enter
pv_tmux_wait "out/cmd.db (sqlite)"
n=$(sqlite3 "$TMP/out/cmd.db" 'SELECT count(*) FROM timeline')
[ "$n" = "$want" ] || fail ":export wrote $n rows, not the $want of the filter between the markers"
echo "ok: :export keeps the filter with the markers"

# 5. Text1: the filter, the window and the selected row's context, as the
#    command line writes them
pv_tmux_keys e
pv_tmux_wait "Export (Enter exports"
ctx=$(pv_tmux_screen | grep -o 'Context \[ \] [A-Z_]*' | sed 's/.* //' || true)
[ -n "$ctx" ] || fail "no context offered"
pv_tmux_keys Down Right Down Down Down Space
pv_tmux_wait "Context [x] $ctx"
pv_tmux_wait "Format  [Text1]"
pv_tmux_keys Down Down Down C-u "$TMP/out/crc.txt" Enter
pv_tmux_wait "out/crc.txt (text1)"
"$PROFVIEW" export "$RTOS" --format text1 --filter "$F" --from "$A" --to "$B" --context "$ctx" -o "$TMP/cli.txt"
diff "$TMP/out/crc.txt" "$TMP/cli.txt" | head -5; cmp "$TMP/out/crc.txt" "$TMP/cli.txt" || fail "the dialog's Text1 export differs from profview export's"
echo "ok: the dialog's Text1 export of three parts equals the command line's"

# 6. a failure keeps the dialog open, with its whole message (80 columns)
pv_tmux_keys e
pv_tmux_wait "Export (Enter exports"
pv_tmux_keys C-u "$TMP/missing/dir/x.txt" Enter
pv_tmux_wait "export failed:"
pv_tmux_wait "No such file or directory"
s=$(pv_tmux_screen)
expect_contains "the dialog stays open" "$s" "Export (Enter exports, Esc closes)"
expect_contains "the dialog keeps the path" "$s" "Path    $TMP/missing/dir/x.txt"
pv_tmux_keys Escape
pv_tmux_keys q # markers and a filter set, saved by the file's session: quits at once
pv_tmux_wait "exit=0"
pv_tmux_stop
[ ! -e "$TMP/missing" ] || fail "a failed export made a directory"
echo "ok: a failure keeps the dialog open with its whole message"
