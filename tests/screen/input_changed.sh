#!/usr/bin/env bash
# A file that changes on disk under the viewer (docs/input.md "Files that
# change"): overwritten in place with another recording, then truncated:
# the viewer says so (at the next frame), shows nothing of the new data
# under the old index and does not crash when a jump reads the records.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
"$gen" --seed 3 --events 20000 --format bin11 -o "$TMP/a.txt" >/dev/null
"$gen" --seed 4 --events 20000 --format bin11 -o "$TMP/b.txt" >/dev/null
for what in overwrite truncate; do
  cp "$TMP/a.txt.BIN" "$TMP/run.BIN"
  pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache $TMP/run.BIN; echo exit=\$?'"
  pv_tmux_wait "Report:"
  case $what in
    overwrite) dd if="$TMP/b.txt.BIN" of="$TMP/run.BIN" conv=notrunc status=none ;;
    truncate) truncate -s 48 "$TMP/run.BIN" ;;
  esac
  pv_tmux_keys j # the next frame
  pv_tmux_wait "run.BIN changed on disk while it was open"
  pv_tmux_keys ":goto 15000" Enter
  pv_tmux_keys ":goto longest" Enter
  pv_tmux_keys j
  pv_tmux_wait "row "
  expect_absent "$what: no crash" "$(pv_tmux_screen)" "exit="
  pv_tmux_keys q
  pv_tmux_wait "exit=0"
  pv_tmux_stop
  echo "ok: $what"
done

# Truncated while the index is still being built (stopped by Ctrl-C, to
# look at it; --test index-slice=1 builds it a unit a frame): the end of
# the index says the change again, not the warnings of what it read as
# zeros; the file's line says "(changed on disk)"; q asks nothing about
# an index of zeros.
"$gen" --seed 3 --events 600000 --format bin11 -o "$TMP/c.txt" >/dev/null
cp "$TMP/c.txt.BIN" "$TMP/run.BIN"
pv_tmux_start 100 30 xterm-256color C.UTF-8 "sh -c '$PROFVIEW --no-cache --test index-slice=1 $TMP/run.BIN; echo exit=\$?'"
pv_tmux_wait "indexing"
pv_tmux_keys C-c
pv_tmux_wait "indexing stopped"
truncate -s 48 "$TMP/run.BIN"
pv_tmux_keys j # the next frame
pv_tmux_wait "run.BIN changed on disk while it was open"
pv_tmux_wait "run.BIN (changed on disk)"
pv_tmux_keys ":index" Enter
pv_tmux_wait_gone "indexing"
s=$(pv_tmux_screen)
expect_contains "index ended: the change said again" "$s" "run.BIN changed on disk while it was open"
expect_absent "index ended: not its warnings" "$s" "warnings (the file's line in the Explorer lists them)"
expect_contains "index ended: the file's line" "$s" "run.BIN (changed on disk)"
pv_tmux_keys q
pv_tmux_wait "exit=0"
pv_tmux_stop
echo "ok: truncated while indexing"
echo PASS
