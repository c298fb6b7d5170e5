#!/usr/bin/env bash
# The long calls that run on the viewer's thread, `:sql` and `:export`
# (docs/tui.md "Long operations"), in a real terminal: while they run, the
# status bar shows their progress (frames keep coming); Esc and Ctrl-C stop
# them and the previous view stays; keys typed meanwhile are answered after,
# in order; a stopped export leaves no file, and a file it was to replace
# keeps its content.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
# 2 M events: the SQLite export takes seconds (many frames); the query below
# (every pair of events) would take hours
"$gen" --seed 7 --tasks 3 --events 2000000 --format bin11 -o "$TMP/big.txt" >/dev/null
mkdir "$TMP/out"
AFTER='echo "exit=$?"'
pv_tmux_start 160 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache $TMP/big.txt; $AFTER'"
pv_tmux_wait "Report:" 60
pv_tmux_wait_gone "indexing" 60
title=$(pv_tmux_screen | grep -o 'Report: [^─]*' | head -1)
[ -n "$title" ] || fail "no Report title"
# the query's progress in the status bar; progress_moved: it (s2) is not s1
progress() { pv_tmux_screen | grep -o 'Running the query: [0-9.]* s, [0-9.]* M rows read' || true; }
progress_moved() { s2=$(progress); [ -n "$s2" ] && [ "$s2" != "$s1" ]; }

# 1. :sql, stopped by Esc: progress in the status bar, then the view stays
query=':sql SELECT count(*) FROM timeline AS a, timeline AS b'
pv_tmux_keys "$query" Enter
pv_tmux_wait "Running the query: " 30
pv_tmux_wait "M rows read" 30
s1=$(progress)
[ -n "$s1" ] || fail "no progress in the status bar"
expect_contains "the query's progress in the status bar" "$(pv_tmux_screen)" "(Esc stops)"
# frames keep coming while it runs: the count of rows read moves on
pv_until -- progress_moved || fail "the status bar did not move on ('$s1')"
echo "ok: frames are drawn while the query runs"
pv_tmux_keys Escape
pv_tmux_wait "query stopped: the view stays as it was" 20
s=$(pv_tmux_screen)
expect_contains "Esc: the previous view stays" "$s" "$title"
expect_absent "no result view" "$s" "SQL results"
expect_absent "no progress left" "$s" "Running the query"

# 2. the same query, with keys typed while it runs, stopped by Ctrl-C: the
# keys are answered after it, in order (a search prompt with their text),
# and Ctrl-C does not quit
pv_tmux_keys "$query" Enter
pv_tmux_wait "Running the query: " 30
pv_tmux_keys '/' 'z' 'q' 'x'
# two frames drawn after the keys were typed (the query's progress moved on
# twice) and still no prompt: the keys wait while it runs
for frame in 1 2; do
  s1=$(progress)
  pv_until -- progress_moved || fail "frame $frame: the status bar did not move on ('$s1')"
done
expect_absent "the keys wait while it runs" "$(pv_tmux_screen)" "/zqx"
pv_tmux_keys C-c
pv_tmux_wait "/zqx" 20
s=$(pv_tmux_screen)
expect_absent "Ctrl-C stopped the query" "$s" "Running the query"
expect_absent "Ctrl-C did not quit" "$s" "exit="
expect_contains "the view stays" "$s" "$title"
pv_tmux_keys Escape

# 3. :export, stopped by Esc: no file left
out=$TMP/out/x.db
pv_tmux_keys ":export sqlite $out" Enter
pv_tmux_wait "Exporting to $out: " 60
expect_contains "the export's progress" "$(pv_tmux_screen)" "(Esc cancels)"
pv_tmux_keys Escape
pv_tmux_wait "export cancelled: nothing written to $out" 60
[ -z "$(ls -A "$TMP/out")" ] || fail "left behind: $(ls -A "$TMP/out")"
echo "ok: Esc stopped the export, nothing left"

# 4. an export that was to replace a file, stopped: the file keeps its content
old=$TMP/out/old.db
printf 'keep me\n' > "$old"
pv_tmux_keys ":export sqlite $old" Enter
pv_tmux_wait "exists: Enter (or y) replaces it" 20
pv_tmux_keys y
pv_tmux_wait "Exporting to $old: " 60
pv_tmux_keys Escape
pv_tmux_wait "export cancelled: nothing written to $old" 60
[ "$(cat "$old")" = "keep me" ] || fail "the file to replace changed"
[ "$(ls -A "$TMP/out")" = "old.db" ] || fail "left behind: $(ls -A "$TMP/out")"
echo "ok: the file to replace keeps its content"
s=$(pv_tmux_screen)
expect_contains "the view stays after the export" "$s" "$title"
pv_tmux_keys q # a big index no cache keeps (--no-cache): quitting asks first
pv_tmux_wait "Quit? the index of big.txt is lost (not in the cache) y/n"
pv_tmux_keys y
pv_tmux_wait "exit=0"
pv_tmux_stop
