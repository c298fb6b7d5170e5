#!/usr/bin/env bash
# No silent truncation (docs/tui.md "Texts of any length"): a filter and a
# search of any length reach the model whole, in the viewer, in the prompt
# history and in the navigation history, and the viewer shows exactly the
# rows `profview cat --filter` shows.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
PLIST=$SAMPLES/plist-func-timing.txt
ROUTINES=$'Shift-Tab j Tab'
pad=$(printf '%*s' 980 '')
total=$(($("$PROFVIEW" cat "$PLIST" --view routines --columns routine | wc -l) - 1))

# pv_dumps KEYS: runs the keys once; each <Dump> in them writes a screen,
# read back with dump N (1-based).
pv_dumps() {
  printf '%s\n' "$1" > "$TMP/keys"
  "$PROFVIEW" --keys "$TMP/keys" --dump "$TMP/dumps" "$PLIST" --size 120x30 ||
    fail "profview exited with $?"
}
dump() { awk -v n="$1" '$0 == "----" { k++; next } k == n - 1' "$TMP/dumps"; }

# A filter of about 1000 characters whose first 255 bytes are a filter of
# their own ("hits > 50" plus blanks selects 6 rows): cut there, the viewer
# would show rows where the command line shows none.
check_rows() { # NAME EXPR SCREEN
  local name=$1 expr=$2 s=$3 want
  "$PROFVIEW" cat "$PLIST" --view routines --columns routine --filter "$expr" > "$TMP/cat.tsv"
  want=$(($(wc -l < "$TMP/cat.tsv") - 1))
  expect_contains "$name: the count cat gives" "$s" "$want of $total rows match"
  while IFS= read -r routine; do
    expect_contains "$name: cat's row '$routine' is shown" "$s" "$routine"
  done < <(tail -n +2 "$TMP/cat.tsv")
}
none="hits > 50$pad&& hits > 500000"
some="hits > 50$pad&& hits < 60"
[ "${#none}" -gt 1000 ] && [ "${#some}" -gt 1000 ] || fail "the expressions are too short"

# Typed at f, then kept whole: the prompt opens on the filter in force
# (Enter applies it again), the prompt history recalls it, and the
# navigation history restores it (away to another view and back; Esc clears
# the message, f Enter applies the filter in force again).
pv_dumps "$ROUTINES"$'\nf\n'"$none"$'<Enter>\n<Dump>\nf\n<Ctrl-U>'"$some"$'<Enter>\n<Dump>
f Enter <Dump>
f\n<Ctrl-U><Up><Up><Enter>\n<Dump>
Shift-Tab j Enter <Dump>
Backspace Esc f Enter <Dump>'
check_rows "typed, no row" "$none" "$(dump 1)"
check_rows "typed, some rows" "$some" "$(dump 2)"
check_rows "the prompt keeps the whole filter" "$some" "$(dump 3)"
check_rows "the prompt history recalls the whole filter" "$none" "$(dump 4)"
expect_contains "away to another view" "$(dump 5)" "│ call-trace │"
expect_contains "back to the routines" "$(dump 6)" "│ routines │"
check_rows "back restores the whole filter" "$none" "$(dump 6)"

# The same through :filter.
pv_dumps "$ROUTINES"$'\n:filter '"$some"$'<Enter>\n<Dump>'
check_rows ":filter" "$some" "$(dump 1)"

# A search text longer than 127 bytes is searched (and reported) whole.
long=$(printf 'main%.0s' {1..20})zz
pv_dumps "$ROUTINES"$'\n/\n'"$long"$'<Enter>\n<Dump>'
expect_contains "a long search is reported whole" "$(dump 1)" "not found: ${long}"
