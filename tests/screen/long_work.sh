#!/usr/bin/env bash
# Search, sort and filter of a big view run in steps with a percentage, stop
# with Esc or Ctrl-C keeping what was there, and a Ctrl-C that stops one
# never quits (docs/tui.md "Long operations").  --test work-slice=N
# (tests only) gives them N rows per key, so that a screen shows them half
# done; Ctrl-L passes a key without stopping them.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
# no index cache (as under ctest, wherever it runs): a cached index would be
# complete at once, with nothing left to index in slices
export PROFVIEW_CACHE=off
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
"$gen" --seed 3 --tasks 3 --events 300000 --format bin11 -o "$TMP/big.txt" >/dev/null
BIG=$TMP/big.txt
rows=300000
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
WAIT=$(printf 'Ctrl-L %.0s' {1..120})
PV_TEST="--test work-slice=50000"
"$PROFVIEW" cat "$BIG" --view timeline > "$TMP/timeline.tsv"

# The Index column of the rows on screen, the first n.
screen_indices() { # SCREEN N
  printf '%s\n' "$1" | awk -F'│' 'NF >= 2 && $2 ~ /^ +[0-9]+ / { split($2, f, " "); print f[1] }' |
    head -n "$2" | tr '\n' ' '
}
cat_indices() { # SORT N
  "$PROFVIEW" cat "$BIG" --view timeline --sort "$1" --limit "$2" | tail -n +2 | cut -f2 | tr '\n' ' '
}

# ---- search

s=$(pv_screen "$TO_TIMELINE"$'\n/ZZQ<Enter>' "$BIG" --size 110x24)
expect_contains "a search shows its percentage" "$s" "Searching for 'ZZQ'... "
expect_contains "... and how to stop it" "$s" "% (Esc stops)"
s=$(pv_screen "$TO_TIMELINE"$'\nj j\n/ZZQ<Enter>\nEsc' "$BIG" --size 110x24)
expect_contains "Esc stops the search" "$s" "search stopped: the cursor stays"
expect_contains "the cursor stays where it was" "$s" "row 3/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\nj j\n/ZZQ<Enter>\nCtrl-C\nj' "$BIG" --size 110x24)
expect_contains "Ctrl-C stops the search and does not quit (j moves after it)" "$s" "row 4/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\n/ZZQ<Enter>\n'"$WAIT" "$BIG" --size 110x24)
expect_contains "left alone, the search looks at every row" "$s" "not found: ZZQ"
want=$(awk -F'\t' 'NR > 2 && $7 == "Sensor_Read" { print NR - 1; exit }' "$TMP/timeline.tsv")
s=$(pv_screen "$TO_TIMELINE"$'\n/Sensor_Read<Enter>\n'"$WAIT" "$BIG" --size 110x24)
expect_contains "a search finds in steps (row $want)" "$s" "row $want/$rows"

# ---- sort and r

s=$(pv_screen "$TO_TIMELINE"$'\n:sort name<Enter>' "$BIG" --size 110x24)
expect_contains "a sort shows its percentage" "$s" "Sorting by name... "
s=$(pv_screen "$TO_TIMELINE"$'\nj\n:sort name<Enter>\nEsc' "$BIG" --size 110x24)
expect_contains "Esc stops the sort" "$s" "sort stopped: the previous order stays"
expect_absent "... not sorted" "$s" "sort: name"
expect_contains "... the cursor where it was" "$s" "row 2/$rows"
[ "$(screen_indices "$s" 3)" = "0 1 2 " ] || fail "the view order stays: $(screen_indices "$s" 3)"
s=$(pv_screen "$TO_TIMELINE"$'\n:sort name<Enter>\n'"$WAIT"$'\ng' "$BIG" --size 110x24)
expect_contains "left alone, the sort finishes" "$s" "sort: name"
[ "$(screen_indices "$s" 5)" = "$(cat_indices name 5)" ] ||
  fail "sorted by name: $(screen_indices "$s" 5), cat says $(cat_indices name 5)"
echo "ok: the order is cat --sort name's"
s=$(pv_screen "$TO_TIMELINE"$'\n:sort name<Enter>\n'"$WAIT"$'\nr' "$BIG" --size 110x24)
expect_contains "r reverses in steps" "$s" "Reversing the order... "
expect_absent "... without sorting again" "$s" "Sorting by"
s=$(pv_screen "$TO_TIMELINE"$'\n:sort name<Enter>\n'"$WAIT"$'\nr\n'"$WAIT"$'\ng' "$BIG" --size 110x24)
expect_contains "r reversed the sort" "$s" "sort: name:desc"
[ "$(screen_indices "$s" 6)" = "$(cat_indices name:desc 6)" ] ||
  fail "r: $(screen_indices "$s" 6), cat --sort name:desc says $(cat_indices name:desc 6)"
echo "ok: r gives cat --sort name:desc's order (equal names in view order)"

# ---- filter

matches=$(awk -F'\t' 'NR > 1 && tolower($7) ~ /crc_calc/' "$TMP/timeline.tsv" | wc -l)
s=$(pv_screen "$TO_TIMELINE"$'\n:filter CRC_Calc<Enter>' "$BIG" --size 110x24)
expect_contains "a filter shows its percentage" "$s" "Filtering... "
s=$(pv_screen "$TO_TIMELINE"$'\n:filter CRC_Calc<Enter>\nCtrl-C\nj' "$BIG" --size 110x24)
expect_contains "Ctrl-C stops the filter, keeps all rows and does not quit" "$s" "row 2/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\n:filter CRC_Calc<Enter>\n'"$WAIT" "$BIG" --size 110x24)
expect_contains "left alone, the filter finishes" "$s" "$matches of $rows rows match"
s=$(pv_screen "$TO_TIMELINE"$'\n:filter CRC_Calc<Enter>\n'"$WAIT"$'\n:filter Idle<Enter>\nEsc' "$BIG" --size 110x24)
expect_contains "a stopped filter keeps the previous one" "$s" "filter stopped: the previous filter stays"
expect_contains "... its rows" "$s" "/$matches"

# ---- quitting with a big index in memory (docs/tui.md "Quitting"): asked
# only when the index cache does not keep it (--no-cache here, whatever the
# environment); kept by the cache, q quits at once

s=$(pv_screen "$TO_TIMELINE"$'\nCtrl-C' "$BIG" --size 110x24 --no-cache)
expect_contains "Ctrl-C asks before dropping a big index" "$s" \
  "Quit? the index of big.txt is lost (not in the cache) y/n"
s=$(pv_screen "$TO_TIMELINE"$'\nq' "$BIG" --size 110x24 --no-cache)
expect_contains "q asks too" "$s" "Quit? the index of big.txt is lost (not in the cache) y/n"
s=$(pv_screen "$TO_TIMELINE"$'\nCtrl-C\nj\nj' "$BIG" --size 110x24 --no-cache)
expect_contains "another key stays (and does nothing else)" "$s" "row 2/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\nq\ny\nj' "$BIG" --size 110x24 --no-cache)
expect_contains "y quits (j never came)" "$s" "row 1/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\nCtrl-C\nCtrl-C\nj' "$BIG" --size 110x24 --no-cache)
expect_contains "Ctrl-C twice quits (j never came)" "$s" "row 1/$rows"
# the cache on (a directory of the test's own): written once complete, then
# read; either way q quits at once
for run in written read; do
  s=$(PROFVIEW_CACHE=on XDG_CACHE_HOME=$TMP/cache pv_screen "$TO_TIMELINE"$'\nq\nj' "$BIG" --size 110x24)
  expect_contains "an index the cache keeps ($run): q quits at once" "$s" "row 1/$rows"
  expect_absent "... without asking" "$s" "Quit?"
done
ls "$TMP/cache/profview/"*.pvc >/dev/null 2>&1 || fail "the index cache holds no file: $(ls -A "$TMP/cache/profview" 2>&1)"
# an index not complete yet (20000 events a key: all read, its last steps to do) is lost
# even with the cache on (it writes complete indexes only)
s=$(PROFVIEW_CACHE=on XDG_CACHE_HOME=$TMP/cache2 PV_TEST="--test index-slice=20000" \
  pv_screen "$TO_TIMELINE"$'\n'"$(printf 'Ctrl-L %.0s' {1..9})"$'\nq' "$BIG" --size 110x24)
expect_contains "an index not complete: q asks" "$s" "Quit? the index of big.txt is lost (not complete) y/n"

# ---- queued while indexing (20000 events per key)

IDX_TO_TIMELINE=$'Shift-Tab\nj\nTab'
s=$(PV_TEST="--test index-slice=20000" pv_screen "$IDX_TO_TIMELINE"$'\n/Sensor_Read<Enter>' "$BIG" --size 110x24)
expect_contains "a search while indexing waits for the index" "$s" \
  "the search runs when the index is ready (Esc cancels)"
s=$(PV_TEST="--test index-slice=20000" pv_screen "$IDX_TO_TIMELINE"$'\n/Sensor_Read<Enter>\n'"$WAIT" "$BIG" --size 110x24)
expect_contains "... and runs when it is" "$s" "row $want/$rows"
s=$(PV_TEST="--test index-slice=20000" pv_screen "$IDX_TO_TIMELINE"$'\n:sort name<Enter>\nj\nEsc\n'"$WAIT" "$BIG" --size 110x24)
expect_contains "Esc cancels a queued sort" "$s" "sort cancelled"
expect_absent "... nothing sorted" "$s" "sort: name"
