#!/usr/bin/env bash
# SIGTERM during a long export from the viewer (docs/tui.md "Terminals"):
# the export runs as a job on a worker thread (docs/architecture.md "The
# job engine"); the signal ends the viewer, which stops the job first, so
# nothing is left behind (neither OUT nor the temporary file), the
# terminal is restored and profview dies of the signal.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
# 4 M events: the SQLite export takes seconds
"$gen" --seed 5 --tasks 3 --events 4000000 --format bin11 -o "$TMP/big.txt" >/dev/null
mkdir "$TMP/out"
out=$TMP/out/x.db
# the viewer's pid, for the signal
cat > "$TMP/run.sh" <<EOF
echo \$\$ > "$TMP/pid"
exec "$PROFVIEW" "$TMP/big.txt"
EOF
pv_tmux_start 160 30 xterm-256color C.UTF-8 "sh -c 'sh $TMP/run.sh; echo exit=\$?'"
pv_tmux_wait "Report:" 60
pv_tmux_wait_gone "indexing" 60
pv_tmux_keys ":export sqlite $out" Enter
pv_tmux_wait "Exporting to $out: " 60
[ -n "$(ls -A "$TMP/out")" ] || fail "no temporary file while exporting"
kill -TERM "$(cat "$TMP/pid")"
pv_tmux_wait "exit=" 60
expect_contains "profview died of SIGTERM" "$(pv_tmux_screen)" "exit=143"
[ -z "$(ls -A "$TMP/out")" ] || fail "left behind: $(ls -A "$TMP/out")"
echo "ok: no output file and no temporary file left"
pv_tmux_stop
