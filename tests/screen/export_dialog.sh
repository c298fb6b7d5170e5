#!/usr/bin/env bash
# The export dialog (e) and :export (docs/tui.md, docs/export.md): the
# preselection follows the markers and the filter (each part its own
# choice); what it writes equals
# what `profview export` writes for the same selection; an existing file is
# replaced only after a confirmation.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
need_sample plist-func-timing.txt
RTOS=$SAMPLES/rtos.txt
PLIST=$SAMPLES/plist-func-timing.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'

"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
row_time() { awk -F'\t' -v n="$1" 'NR == n + 1 { print $3 }' "$TMP/timeline.tsv"; }

# 1. markers A (row 11) and B (row 31) on the timeline: e preselects Text1
#    and the markers' window; the file equals the command line's export
keys="$TO_TIMELINE"$'\nj j j j j j j j j j\nm\n:goto #31<Enter>\nM\ne\n<Dump>\nCtrl-U\n'"$TMP/win.txt"$'\nEnter'
screen=$(pv_screen "$keys" --size 100x30 "$RTOS")
first=$(sed -n '1,/^----$/p' "$TMP/screen")
expect_contains "dialog title" "$first" "Export (Enter exports, Esc closes)"
expect_contains "Text1 preselected for a timeline" "$first" "[Text1]"
expect_contains "markers preselected" "$first" "Window  [x] between markers A and B"
expect_contains "export reported" "$screen" "exported the timeline, between A and B"
expect_contains "export reported" "$screen" "to $TMP/win.txt (text1)"
from=$(row_time 11)
to=$(row_time 31)
"$PROFVIEW" export "$RTOS" --format text1 --from "$from" --to "$to" -o "$TMP/cli.txt"
cmp "$TMP/win.txt" "$TMP/cli.txt" || fail "dialog export differs from profview export --from $from --to $to"
echo "ok: dialog export equals the command line's"

# 2. the same path again: a confirmation; Esc keeps the file, y replaces it
sum=$(md5sum < "$TMP/win.txt")
keys="$TO_TIMELINE"$'\ne\nDown Left Up\nCtrl-U\n'"$TMP/win.txt"$'\nEnter\n<Dump>\nEsc\nEsc'
screen=$(pv_screen "$keys" --size 100x30 "$RTOS")
expect_contains "confirmation asked" "$(sed -n '1,/^----$/p' "$TMP/screen")" "$TMP/win.txt exists: Enter (or y) replaces it"
[ "$(md5sum < "$TMP/win.txt")" = "$sum" ] || fail "Esc at the confirmation replaced the file"
echo "ok: Esc keeps the file"
keys="$TO_TIMELINE"$'\ne\nDown Left Up\nCtrl-U\n'"$TMP/win.txt"$'\nEnter\ny'
screen=$(pv_screen "$keys" --size 100x30 "$RTOS")
# Down (to Format) Left: the format from Text1 to SQLite; no markers: the
# whole result set
[ "$(sqlite3 "$TMP/win.txt" 'SELECT count(*) FROM timeline')" = 3000 ] ||
  fail "y at the confirmation did not replace the file with the whole result set"
echo "ok: y replaces it"

# 2b. "the selected row's context": the events of that context, as
#     `profview export --context NAME` writes them
ctx=$(awk -F'\t' 'NR == 3 { print $4 }' "$TMP/timeline.tsv")
[ -n "$ctx" ] || fail "row 2 of the timeline has no context"
keys="$TO_TIMELINE"$'\nj\ne\nUp Up Up Space Down Down Down\n<Dump>\nCtrl-U\n'"$TMP/ctx.txt"$'\nEnter'
screen=$(pv_screen "$keys" --size 100x30 "$RTOS")
expect_contains "the context chosen" "$(sed -n '1,/^----$/p' "$TMP/screen")" "Context [x] $ctx (the selected row's)"
expect_contains "context export reported" "$screen" "exported the timeline, context $ctx to $TMP/ctx.txt (text1)"
"$PROFVIEW" export "$RTOS" --format text1 --context "$ctx" -o "$TMP/cli-ctx.txt"
cmp "$TMP/ctx.txt" "$TMP/cli-ctx.txt" || fail "dialog context export differs from profview export --context $ctx"
[ "$(wc -l < "$TMP/ctx.txt")" -lt "$(wc -l < "$RTOS")" ] || fail "the context export is not smaller than the file"
echo "ok: dialog context export equals the command line's"

# 3. :export after a filter: the view's filtered rows, SQLite for PLIST
keys=$'Shift-Tab\nj\nTab\nf\nhits > 10\nEnter\n:export sqlite '"$TMP/rows.db"$'\nEnter'
screen=$(pv_screen "$keys" --size 100x30 "$PLIST")
expect_contains ":export reported" "$screen" "exported hits > 10 to $TMP/rows.db (sqlite)"
view=$(sqlite3 "$TMP/rows.db" 'SELECT view_id FROM profview_views')
"$PROFVIEW" cat "$PLIST" --view "$view" --filter 'hits > 10' > "$TMP/want.tsv"
"$PROFVIEW" cat "$TMP/rows.db" --view "$view" > "$TMP/got.tsv"
[ "$(wc -l < "$TMP/want.tsv")" -gt 2 ] || fail "the filter keeps too few rows to test"
cmp "$TMP/want.tsv" "$TMP/got.tsv" || fail ":export rows differ from cat --filter"
echo "ok: :export wrote the filtered rows"

# 4. a bad :export: why, in the dialog (in the viewer's words), nothing written
# (opened by a short name, so that the message's lines do not depend on
# where the samples are)
ln -s "$PLIST" "$TMP/plist.txt"
cd "$TMP"
screen=$(pv_screen $':export text1 '"$TMP/p.txt"$'\nEnter' --size 250x30 plist.txt)
cd - >/dev/null
expect_contains "Text1 of PLIST refused" "$screen" "cannot export this: plist.txt holds no timeline: Text1 and BIN hold winIDEA timelines;"
expect_contains "the dialog stays open" "$screen" "Export (Enter exports, Esc closes)"
[ ! -e "$TMP/p.txt" ] || fail "a refused export wrote a file"
echo "ok: refused export wrote nothing"

# 5. Tab completes :export's FORMAT, then its PATH, as :open does (the same
#    completion: a unique file whole, a directory with its '/', several to
#    their common prefix and listed); and the dialog's path
last_line() { printf '%s\n' "$1" | tail -n 1; }
mkdir -p "$TMP/c/sub"
: > "$TMP/c/run-alpha.db"
: > "$TMP/c/run-beta.db"
s=$(pv_screen $':export sq<Tab>' --size 200x30 "$PLIST")
expect_screen ":export completes the format" "$(last_line "$s")" ":export sqlite"
s=$(pv_screen $':export sq<Tab>'"$TMP/c/run-a"$'<Tab>' --size 200x30 "$PLIST")
expect_screen ":export completes the path after the format" "$(last_line "$s")" ":export sqlite $TMP/c/run-alpha.db"
s=$(pv_screen $':export bin  '"$TMP/c/su"$'<Tab>' --size 200x30 "$PLIST")
expect_screen ":export completes a directory" "$(last_line "$s")" ":export bin  $TMP/c/sub/"
s=$(pv_screen $':export sqlite '"$TMP/c/r"$'<Tab>' --size 200x30 "$PLIST")
expect_screen ":export completes the common prefix" "$(last_line "$s")" ":export sqlite $TMP/c/run-"
expect_contains ":export lists the files" "$s" "$TMP/c/run-alpha.db $TMP/c/run-beta.db"
s=$(pv_screen $':export sqlite '"$TMP/c/run-b"$'<Tab><Enter>' --size 200x30 "$PLIST")
expect_contains ":export to the completed path asks before replacing it" "$s" "$TMP/c/run-beta.db exists"
s=$(pv_screen $'e\nCtrl-U\n'"$TMP/c/run-a"$'\nTab' --size 200x30 "$PLIST")
expect_contains "the dialog completes its path" "$s" "$TMP/c/run-alpha.db"
