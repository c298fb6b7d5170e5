#!/usr/bin/env bash
# :sql in the viewer (docs/sql.md) and copying (y, Y, :copy; docs/tui.md):
# the result of a query opens as a view (screen compared), it filters and
# sorts like any view, :copy FILE writes it as `profview sql` prints it,
# the prompt's history and completion know SQL; in tmux (set-clipboard on)
# y, Y and :copy view reach tmux's buffer through OSC 52 with a name full
# of escape sequences escaped, and Ctrl-C stops a long query.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
need_sample rtos.txt
cd "$SAMPLES"
PLIST=plist-func-timing.txt
Q="SELECT routine, hits, time FROM routines WHERE hits > 30 ORDER BY hits DESC"

# 1. the result is a view: its own Explorer entry, columns, types (time in ms)
s=$(pv_screen ":sql $Q<Enter>" "$PLIST")
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: SQL 1: SELECT routine, hits, time FROM routine… ─
plist-func…iming.txt│routine                                  hits       time
  PLIST report      │parse, then check (v2)                     73  78.043 ms
    Summary (28)    │_MATMUL@12                                 67 148.565 ms
    Routines (14)   │SOLVE_SYSTEM                               58  67.857 ms
    Call trace (21) │qsort_compare (static)                     55 112.000 ms
    Attri…tacks (21)│compute_sum(int, char, double)             53  79.532 ms
SQL results         │CMainFrame::OnPaint(CDC *)                 51 151.223 ms
  Queries           │std::vector<int,std::allocator<int> >:…    40  41.648 ms
    SQL 1:… DESC (8)│?foo@@YAXH@Z                               36  78.070 ms
                    │
                    │
                    │
                    │
                    │
                    │─ Details ─────────────────────────────────────────────────
                    │This view has no details
                    │
                    │
                    │
                    │
                    │
 SQL results │ sql-1 │ row 1/8                                           ? help
SQL 1: 8 rows
SCREEN
)
expect_screen ":sql result view" "$s" "$expected"

# 2. filter and sort the result; :copy FILE writes what is shown, as sql prints it
out=$TMP/copy.tsv
s=$(pv_screen ":sql $Q<Enter>
:filter time > 70ms<Enter>
:sort hits<Enter>
:copy $out<Enter>" "$PLIST")
expect_contains ":copy FILE says so" "$s" "to $out"
"$PROFVIEW" sql "$PLIST" "SELECT * FROM ($Q) WHERE time > 70000000 ORDER BY hits" >"$TMP/sql.tsv"
cmp -s "$TMP/sql.tsv" "$out" || { diff "$TMP/sql.tsv" "$out" >&2; fail ":copy FILE differs from profview sql"; }
[ "$(wc -l <"$out")" -eq 7 ] || fail ":copy FILE: expected 6 rows and a header"
echo "ok: filtered, sorted result written by :copy FILE = profview sql"
s=$(pv_screen ":copy $out<Enter>" "$PLIST")
expect_contains ":copy FILE never overwrites" "$s" "exists"

# 2b. rows of one view with its id: the view's Details (here _MATMUL@12's
# callers, as `cat --view callers --parent 7` has them); a result without
# the id, or from two views, has none
s=$(pv_screen ":sql SELECT routine, hits, id FROM routines WHERE hits > 50 ORDER BY hits DESC<Enter>
j" "$PLIST")
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: SQL 1: SELECT routine, hits, id FROM routines … ─
plist-func…iming.txt│routine                         hits  id
  PLIST report      │parse, then check (v2)            73   4
    Summary (28)    │_MATMUL@12                        67   7
    Routines (14)   │SOLVE_SYSTEM                      58   8
    Call trace (21) │qsort_compare (static)            55  11
    Attri…tacks (21)│compute_sum(int, char, double)    53   3
SQL results         │CMainFrame::OnPaint(CDC *)        51   2
  Queries           │
    SQL 1:… DESC (6)│
                    │
                    │
                    │
                    │
                    │
                    │─ Details ─[Callers]─ Callees ─────────────────────────────
                    │Routine                 Hits Time with c…      Time
                    │main                      34    86.811 ms 86.811 ms
                    │parse, then check (v2)    30    53.754 ms 53.754 ms
                    │?foo@@YAXH@Z               3     8.000 ms  8.000 ms
                    │
                    │
 SQL results │ sql-1 │ row 2/6                                           ? help
SCREEN
)
expect_screen ":sql rows of routines with their Details" "$s" "$expected"
"$PROFVIEW" cat "$PLIST" --view callers --parent 7 --columns routine | tail -n +2 >"$TMP/callers"
[ "$(cat "$TMP/callers")" = "main
parse, then check (v2)
?foo@@YAXH@Z" ] || fail "the Details are not cat's callers of id 7"
s=$(pv_screen ":sql SELECT routine, hits, id FROM routines WHERE hits > 50 ORDER BY hits DESC<Enter>
j
<Enter>" "$PLIST")
expect_contains "Enter drills into the Callers of _MATMUL@12" "$s" "Report: Callers of _MATMUL@12 (SQL 1: SELECT"
expect_contains "... of _MATMUL@12" "$s" "│?foo@@YAXH@Z               3     8.000 ms  8.000 ms"
s=$(pv_screen ":sql SELECT rowid, routine FROM routines WHERE hits > 50<Enter>" "$PLIST")
expect_contains "the rowid: the Details" "$s" "─ Details ─[Callers]─ Callees"
s=$(pv_screen ":sql SELECT * FROM (SELECT routine, id FROM routines WHERE hits > 50)<Enter>" "$PLIST")
expect_contains "the id through a subquery: the Details" "$s" "─ Details ─[Callers]─ Callees"
s=$(pv_screen ":sql SELECT routine, hits FROM routines WHERE hits > 50<Enter>" "$PLIST")
expect_contains "no id: no Details" "$s" "This view has no details"
s=$(pv_screen ":sql SELECT r.id, c.routine FROM routines r JOIN call_trace c USING (routine)<Enter>" \
  "$PLIST")
expect_contains "two views: no Details" "$s" "This view has no details"

# 3. history (Up recalls the query) and a bad query's caret
s=$(pv_screen ":sql SELECT count(*) AS n FROM routines<Enter>
:<Up><Enter>" "$PLIST")
expect_contains "history: the query again is SQL 2" "$s" "SQL 2: 1 rows"
s=$(pv_screen ":sql SELECT routine FRM routines<Enter>" "$PLIST")
expect_contains "bad query: the caret line" "$s" $'SELECT routine FRM routines\n                   ^\nnear "routines": syntax error'
s=$(pv_screen ":sql DELETE FROM routines<Enter>" "$PLIST")
expect_contains "writes refused" "$s" "may not be modified"

# 4. completion: tables, then table.column
s=$(pv_screen ":sql SELECT * FROM call_tr<Tab>" "$PLIST")
expect_contains "completes a table" "$s" ":sql SELECT * FROM call_trace"
s=$(pv_screen ":sql SELECT routines.hi<Tab>" "$PLIST")
expect_contains "completes a column" "$s" ":sql SELECT routines.hits"

# 5. in tmux: OSC 52 into tmux's buffer; a name with escape sequences
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
sed 's/SOLVE_SYSTEM/SOLVE\x1b]2;pwned\x07SYSTEM/g' "$PLIST" >"$TMP/evil.txt"
pv_tmux_start 120 30 xterm-256color C.UTF-8 "$PROFVIEW $TMP/evil.txt"
tmux -L "$PV_TMUX_SOCKET" set-option -s set-clipboard on
pv_tmux_wait "Report: Summary"
buffer() { tmux -L "$PV_TMUX_SOCKET" show-buffer 2>/dev/null || true; }
buffer_is() { [ "$(buffer)" = "$1" ]; }
wait_buffer() { # EXPECTED
  pv_until -- buffer_is "$1" && return 0
  printf 'buffer: %q\nwanted: %q\n' "$(buffer)" "$1" >&2
  fail "tmux buffer"
}
pv_tmux_keys ":sql SELECT routine, hits FROM routines WHERE routine LIKE 'SOLVE%'" Enter
pv_tmux_wait "SQL 1: 1 rows"
pv_tmux_keys y
pv_tmux_wait "copied the routine cell"
wait_buffer 'SOLVE\x1B]2;pwned\x07SYSTEM'
echo "ok: y: the cell, escaped, in tmux's buffer"
pv_tmux_keys Y
pv_tmux_wait "copied the row"
wait_buffer "$(printf 'SOLVE\\x1B]2;pwned\\x07SYSTEM\t58')"
echo "ok: Y: the row as TSV"
pv_tmux_keys ":copy view" Enter
pv_tmux_wait "copied the view (1 rows)"
wait_buffer "$("$PROFVIEW" sql "$TMP/evil.txt" "SELECT routine, hits FROM routines WHERE routine LIKE 'SOLVE%'")"
echo "ok: :copy view: the view as profview sql prints it"
title=$(tmux -L "$PV_TMUX_SOCKET" display-message -p '#{pane_title}')
expect_absent "no escape sequence reached the terminal" "$title" "pwned"
expect_absent "no raw escape on screen" "$(pv_tmux_screen)" "pwned"$'\a'

# 6. a long query shows its progress and stops with Ctrl-C
pv_tmux_stop
pv_tmux_start 120 30 xterm-256color C.UTF-8 "$PROFVIEW rtos.txt"
pv_tmux_wait "Report:"
pv_tmux_keys ":sql SELECT count(*) FROM timeline a, timeline b, timeline c" Enter
pv_tmux_wait "Running the query:" 20
pv_tmux_keys C-c
pv_tmux_wait "query stopped" 20
pv_tmux_keys j
s=$(pv_tmux_screen)
expect_absent "the viewer goes on after Ctrl-C" "$s" "Running the query"
pv_tmux_stop
