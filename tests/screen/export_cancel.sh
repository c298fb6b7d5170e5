#!/usr/bin/env bash
# Ctrl-C during a long export from the viewer (docs/export.md, docs/tui.md):
# the status bar shows the export's progress, Ctrl-C stops it, the status
# bar says it was cancelled, nothing is left behind (neither OUT nor the
# temporary file), and the viewer goes on (Ctrl-C does not quit it).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
# 4 M events: the SQLite export takes seconds, many frames
"$gen" --seed 5 --tasks 3 --events 4000000 --format bin11 -o "$TMP/big.txt" >/dev/null
mkdir "$TMP/out"
out=$TMP/out/x.db
AFTER='echo "exit=$?"'
pv_tmux_start 160 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache $TMP/big.txt; $AFTER'"
pv_tmux_wait "Report:" 60
# the viewer indexes in slices: export once the index is complete (the
# status bar shows the export only then)
pv_tmux_wait_gone "indexing" 60
pv_tmux_keys ":export sqlite $out" Enter
pv_tmux_wait "Exporting to $out: " 60
expect_contains "progress in the status bar" "$(pv_tmux_screen)" "(Esc cancels)"
# the export is writing its temporary file beside OUT
[ -n "$(ls -A "$TMP/out")" ] || fail "no temporary file while exporting"
[ ! -e "$out" ] || fail "OUT exists before the export is complete"
pv_tmux_keys C-c
pv_tmux_wait "export cancelled: nothing written to $out" 60
echo "ok: the status bar says the export was cancelled"
[ -z "$(ls -A "$TMP/out")" ] || fail "left behind: $(ls -A "$TMP/out")"
echo "ok: no output file and no temporary file left"
s=$(pv_tmux_screen)
expect_absent "the viewer did not quit" "$s" "exit="
# and it still answers keys
pv_tmux_keys '?'
pv_tmux_wait "Help: keys"
pv_tmux_keys q
pv_tmux_wait "Report:"
echo "ok: the viewer still runs"
pv_tmux_keys q # a big index no cache keeps (--no-cache): quitting asks first
pv_tmux_wait "Quit? the index of big.txt is lost (not in the cache) y/n"
pv_tmux_keys y
pv_tmux_wait "exit=0"
pv_tmux_stop
