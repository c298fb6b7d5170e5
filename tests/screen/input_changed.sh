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
  pv_tmux_wait "run.BIN changed on disk while it was open" 10
  pv_tmux_keys ":goto 15000" Enter
  pv_tmux_keys ":goto longest" Enter
  pv_tmux_keys j
  pv_tmux_wait "row " 5
  expect_absent "$what: no crash" "$(pv_tmux_screen)" "exit="
  pv_tmux_keys q
  pv_tmux_wait "exit=0" 10
  pv_tmux_stop
  echo "ok: $what"
done
echo PASS
