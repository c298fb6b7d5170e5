#!/usr/bin/env bash
# The prompt and the popups (docs/tui.md "Commands", "Keys"): completion
# candidates show while typing, :open completes file names, the S and c
# popups are framed boxes (nothing shows through) and S starts on the
# current sort column, the help screen reaches its end (G) and says when
# there is more below, with the legend of the event letters.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
PLIST=$SAMPLES/plist-func-timing.txt
ROUTINES=$'Shift-Tab j Tab'
last_line() { printf '%s\n' "$1" | tail -n 1; }
expect_line() { # NAME SCREEN REGEX: a line of the screen matches
  if grep -E -- "$3" <<<"$2" >/dev/null; then echo "ok: $1"; else
    printf '%s\n' "$2" >&2; fail "$1: no line matches '$3'"; fi
}

# Candidates while typing: above the prompt, the prompt still open.
s=$(pv_screen "$ROUTINES"$'\n:s<Tab>' "$PLIST" --size 100x30)
expect_contains "Tab lists the candidates while the prompt is open" "$s" "sort stats set"
expect_screen "the prompt stays open" "$(last_line "$s")" ":s"
s=$(pv_screen "$ROUTINES"$'\n:s<Tab>o' "$PLIST" --size 100x30)
expect_absent "the list goes with the next key" "$s" "sort stats set"

# :open completes file names: a unique one whole, a directory with its '/',
# several to their common prefix (and lists them).
mkdir -p "$TMP/data/sub"
: > "$TMP/data/run-alpha.txt"
: > "$TMP/data/run-beta.txt"
s=$(pv_screen "$ROUTINES"$'\n:open '"$TMP/data/run-a"$'<Tab>' "$PLIST" --size 200x30)
expect_screen ":open completes a file" "$(last_line "$s")" ":open $TMP/data/run-alpha.txt"
s=$(pv_screen "$ROUTINES"$'\n:open '"$TMP/data/su"$'<Tab>' "$PLIST" --size 200x30)
expect_screen ":open completes a directory" "$(last_line "$s")" ":open $TMP/data/sub/"
s=$(pv_screen "$ROUTINES"$'\n:open '"$TMP/data/r"$'<Tab>' "$PLIST" --size 200x30)
expect_screen ":open completes the common prefix" "$(last_line "$s")" ":open $TMP/data/run-"
expect_contains ":open lists the files" "$s" "$TMP/data/run-alpha.txt $TMP/data/run-beta.txt"

# The S popup: a framed box over the report, its inside cleared.
s=$(pv_screen "$ROUTINES"$'\nS' "$PLIST" --size 100x30)
expect_contains "S: the top of the frame" "$s" "┌─ Sort by (Enter sorts, Esc) "
expect_line "S: a framed row" "$s" "│  routine +Routine +│"
expect_contains "S: the bottom of the frame" "$s" "└──────────────────────────────────────────────┘"
expect_absent "S: no report text inside the box" "$s" "Routine                │main"
s=$(pv_screen "$ROUTINES"$'\nc' "$PLIST" --size 100x30 --ascii)
expect_contains "c: the frame in ASCII" "$s" "+- Columns (Space toggles, Enter closes) "
expect_line "c: a framed row in ASCII" "$s" '\|\[x\] routine +Routine +\|'
# S starts on the sorted column: j Enter sorts by the column after it.
s=$(pv_screen "$ROUTINES"$'\n:sort hits<Enter>\nS j Enter' "$PLIST" --size 100x30)
expect_contains "S starts on the current sort column" "$s" "sort: time"

# The help screen: more below, G reaches the end, the legend.
s=$(pv_screen '?' "$PLIST" --size 100x30)
expect_contains "help says there is more below" "$s" "more below: j, PgDn, G"
s=$(pv_screen $'?\nG' "$PLIST" --size 100x30)
expect_contains "G reaches the legend" "$s" "E entry   X exit   S suspend   R resume   W write"
expect_contains "the legend's title" "$s" "Timeline events (the event column)"
expect_absent "at the end, no more below" "$s" "more below"
s=$(pv_screen $'?\nEnd' "$PLIST" --size 100x30)
expect_contains "End reaches the end too" "$s" "E entry   X exit"
