#!/usr/bin/env bash
# No silent truncation (docs/tui.md "Texts"): a filter, a search and a :
# command line of any length reach the model whole, in the viewer, in the
# prompt history and in the navigation history, and the viewer shows exactly
# the rows `profview cat --filter` shows.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
PLIST=$SAMPLES/plist-func-timing.txt
pad=$(printf '%*s' 980 '')

# A filter of about 1000 characters whose first 255 bytes are a filter of
# their own ("hits > 50" plus blanks selects 6 rows): cut there, the viewer
# would show rows where the command line shows none.
ROUTINES=$'Shift-Tab j Tab'
check_filter() { # NAME HOW EXPR (HOW: the keys before the text, "f" or ":filter ")
  local name=$1 how=$2 expr=$3 s # want, total, typed: for the checks below
  [ "${#expr}" -gt 1000 ] || fail "$name: the expression is only ${#expr} characters"
  "$PROFVIEW" cat "$PLIST" --view routines --columns routine --filter "$expr" > "$TMP/cat.tsv"
  want=$(($(wc -l < "$TMP/cat.tsv") - 1))
  total=$(($("$PROFVIEW" cat "$PLIST" --view routines --columns routine | wc -l) - 1))
  typed=$ROUTINES$'\n'$how$'\n'$expr$'<Enter>'
  [ "$how" = f ] || typed=$ROUTINES$'\n'$how$expr$'<Enter>'
  s=$(pv_screen "$typed" "$PLIST" --size 200x40)
  expect_contains "$name: the count cat gives" "$s" "$want of $total rows match"
  while IFS= read -r routine; do
    expect_contains "$name: cat's row '$routine' is shown" "$s" "$routine"
  done < <(tail -n +2 "$TMP/cat.tsv")
}
check_filter "no row" f "hits > 50$pad&& hits > 500000"
check_filter ":filter" ":filter " "hits > 50$pad&& hits > 500000"
check_filter "some rows" f "hits > 50$pad&& hits < 60"

# The filter stays whole where it is kept: in the prompt, its history and
# the navigation history (the last check_filter's: 4 rows).
name="kept"
# The prompt opens on the filter in force, whole: Enter applies it again.
s=$(pv_screen "$typed"$'\nf Enter' "$PLIST" --size 200x40)
expect_contains "$name: the prompt keeps the whole filter" "$s" "$want of $total rows match"
# The prompt history keeps it whole.
s=$(pv_screen "$typed"$'\nf\n<Ctrl-U><Up><Enter>' "$PLIST" --size 200x40)
expect_contains "$name: the history recalls the whole filter" "$s" "$want of $total rows match"
# So does the navigation history: away to another view and back.
# (Esc clears the message; f Enter applies the filter in force again.)
s=$(pv_screen "$typed"$'\nShift-Tab j Enter' "$PLIST" --size 200x40)
expect_contains "$name: away to another view" "$s" "│ call-trace │"
s=$(pv_screen "$typed"$'\nShift-Tab j Enter Backspace Esc f Enter' "$PLIST" --size 200x40)
expect_contains "$name: back restores the whole filter" "$s" "$want of $total rows match"
expect_contains "$name: back to the routines" "$s" "│ routines │"

# A search text longer than 127 bytes is searched (and reported) whole.
long=$(printf 'main%.0s' {1..40})zz
s=$(pv_screen "$ROUTINES"$'\n/\n'"$long"$'<Enter>' "$PLIST" --size 220x40)
expect_contains "a long search is reported whole" "$s" "not found: ${long}"
