#!/usr/bin/env bash
# AQTime results in an Access database in the viewer, in a real terminal
# (tmux): the .mdb twin of the trace sample opens as the SQLite original
# does (the same Explorer and Report), and beside it a truncated .mdb, a
# damaged one and one whose data page libmdb complains about: their reasons
# are shown by the viewer, and nothing libmdb prints on stderr ever reaches
# the terminal (docs/aqtime.md "Access databases").
source "$(dirname "$0")/lib.bash"
need_sample aqtime-trace.mdb
M=$SAMPLES/aqtime-trace.mdb

# The twin and its original: the same first screen but for the file name.
# (names of one length: the Explorer's width follows them)
cp "$SAMPLES/aqtime-trace.db" "$TMP/tw.db"
cp "$M" "$TMP/t.mdb"
a=$(pv_screen 'j' "$TMP/tw.db" --size 120x30 | sed 's/tw\.db/FILE/g')
b=$(pv_screen 'j' "$TMP/t.mdb" --size 120x30 | sed 's/t\.mdb/FILE/g')
expect_screen "the .mdb twin's first screen is the original's" "$b" "$a"

head -c $((4096 * 42)) "$M" > "$TMP/cut.mdb"
cp "$M" "$TMP/nocat.mdb"
dd if=/dev/zero of="$TMP/nocat.mdb" bs=4096 seek=2 count=1 conv=notrunc 2>/dev/null
cp "$M" "$TMP/page.mdb"
printf '\x63' | dd of="$TMP/page.mdb" bs=1 seek=$((16 * 4096 + 4)) conv=notrunc 2>/dev/null

pv_tmux_start 160 40 xterm-256color C.UTF-8 "$PROFVIEW" "$M" "$TMP/cut.mdb" "$TMP/nocat.mdb" \
  "$TMP/page.mdb"
pv_tmux_wait "Report: Summary"
pv_tmux_wait "cut.mdb: an Access database cut short"
s=$(pv_tmux_screen)
# libmdb's own words, had they reached the terminal
for noise in "beyond EOF" "Unable to read" "mdb_read_table" "Expected table_pg" "is not a valid table"; do
  expect_absent "libmdb's stderr ($noise) is not on the terminal" "$s" "$noise"
done
expect_contains "the damaged page's file is open" "$s" "page.mdb"
pv_tmux_stop
echo PASS
