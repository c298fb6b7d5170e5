#!/usr/bin/env bash
# The commands that read the whole index, asked while a timeline is still
# being indexed (docs/tui.md "Loading and indexing"): `:sql`, `:export`
# (and the export dialog) and the flame graph are never refused and never
# finish the index on the viewer's thread at once: they are queued, the
# status bar says so with the indexing progress, other keys are answered,
# Esc cancels (the view stays, nothing is written), and left alone they
# run when the index is ready.  --test index-slice=N indexes N
# events after each key; Ctrl-L passes a key.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
"$gen" --seed 3 --tasks 3 --events 150000 --format bin11 -o "$TMP/big.txt" >/dev/null
BIG=$TMP/big.txt
rows=150000
PV_TEST="--test index-slice=10000"
TO_TIMELINE=$'Shift-Tab\nj\nTab'
WAIT=$(printf 'Ctrl-L %.0s' {1..120})
QUERY=':sql SELECT count(*) AS n FROM timeline<Enter>'

# ---- :sql

s=$(pv_screen "$TO_TIMELINE"$'\n'"$QUERY" "$BIG" --size 120x24)
expect_contains "a query while indexing waits for the index" "$s" \
  "the query runs when the index is ready (Esc cancels)"
# (every event is read by the time the query is typed: the rest of the
# index is being finished)
expect_contains "... with the indexing progress in the status bar" "$s" \
  "finishing the index (Ctrl-C stops)"
expect_absent "... not run yet" "$s" "SQL 1"
s=$(pv_screen "$TO_TIMELINE"$'\n'"$QUERY"$'\nj j' "$BIG" --size 120x24)
expect_contains "other keys are answered while it waits" "$s" "row 3/$rows"
expect_contains "... and it still waits" "$s" "the query runs when the index is ready"
s=$(pv_screen "$TO_TIMELINE"$'\n'"$QUERY"$'\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "left alone, the query runs when the index is ready" "$s" "SQL 1: 1 rows"
expect_contains "... its result: every event" "$s" "│$rows"
s=$(pv_screen "$TO_TIMELINE"$'\n'"$QUERY"$'\nj\nEsc\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "Esc cancels the queued query" "$s" "query cancelled: the view stays as it was"
expect_absent "... it never runs" "$s" "SQL 1"
expect_contains "... the view stays" "$s" "row 2/$rows"
s=$(pv_screen "$TO_TIMELINE"$'\n'"$QUERY"$'\nCtrl-C' "$BIG" --size 120x24)
expect_contains "Ctrl-C cancels it too" "$s" "query cancelled"
s=$(pv_screen "$TO_TIMELINE"$'\n'"$QUERY"$'\nCtrl-C\nj' "$BIG" --size 120x24)
expect_contains "... and does not quit (j moves after it)" "$s" "row 2/$rows"

# ---- :export

out=$TMP/out.db
s=$(pv_screen "$TO_TIMELINE"$'\n'":export sqlite $out<Enter>" "$BIG" --size 120x24)
expect_contains "an export while indexing waits for the index" "$s" \
  "the export runs when the index is ready (Esc cancels)"
[ ! -e "$out" ] || fail "the export ran before the index was ready"
s=$(pv_screen "$TO_TIMELINE"$'\n'":export sqlite $out<Enter>"$'\nEsc\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "Esc cancels the queued export" "$s" "export cancelled: nothing written"
[ ! -e "$out" ] || fail "a cancelled export wrote $out"
echo "ok: nothing written"
s=$(pv_screen "$TO_TIMELINE"$'\n'":export sqlite $out<Enter>"$'\nj\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "left alone, the export runs when the index is ready" "$s" "exported the whole result set to $out"
n=$("$PROFVIEW" sql "$out" "SELECT count(*) FROM timeline" 2>/dev/null | tail -n 1 || true)
[ "$n" = "$rows" ] || fail "the export has $n timeline rows, not $rows"
echo "ok: the export holds every event"
rm -f "$out"
# the dialog's Enter waits the same way
s=$(pv_screen "$TO_TIMELINE"$'\ne\nCtrl-U\n'"$out"$'\nEnter' "$BIG" --size 120x24)
expect_contains "the dialog's export waits for the index too" "$s" "the export runs when the index is ready"

# ---- the flame graph (it reads the whole call tree)

s=$(pv_screen "$TO_TIMELINE"$'\nF' "$BIG" --size 120x24)
expect_contains "F while indexing waits for the index" "$s" \
  "the flame graph opens when the index is ready (Esc cancels)"
s=$(pv_screen "$TO_TIMELINE"$'\nF\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "left alone, the flame graph opens" "$s" "Flame graph: "

# ---- :diff (it reads both views whole)

TO_STATS=$'Shift-Tab\nk\nTab' # Statistics: it needs the whole index
s=$(pv_screen "$TO_STATS"$'\n'":diff $BIG<Enter>" "$BIG" --size 120x24)
expect_contains "a comparison while indexing waits for the index" "$s" \
  "the comparison runs when the index is ready (Esc cancels)"
s=$(pv_screen "$TO_STATS"$'\n'":diff $BIG<Enter>"$'\nEsc\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "Esc cancels the queued comparison" "$s" "comparison cancelled: the view stays as it was"
expect_absent "... no comparison" "$s" "diff with"
# two files to index now: twice the wait
s=$(pv_screen "$TO_STATS"$'\n'":diff $BIG<Enter>"$'\n'"$WAIT"$'\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "left alone, the comparison is made when the index is ready" "$s" "diff with big.txt: "
expect_contains "... the same file: nothing only on one side" "$s" "0 only here, 0 only there"

# ---- :copy of the whole view (every cell)

copy=$TMP/view.tsv
s=$(pv_screen "$TO_TIMELINE"$'\n'":copy $copy<Enter>" "$BIG" --size 120x24)
expect_contains "a copy of the view while indexing waits for the index" "$s" \
  "the copy runs when the index is ready (Esc cancels)"
[ ! -e "$copy" ] || fail "the copy was written before the index was ready"
s=$(pv_screen "$TO_TIMELINE"$'\n'":copy $copy<Enter>"$'\nEsc\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "Esc cancels the queued copy" "$s" "copy cancelled: nothing copied"
[ ! -e "$copy" ] || fail "a cancelled copy wrote $copy"
s=$(pv_screen "$TO_TIMELINE"$'\n'":copy $copy<Enter>"$'\n'"$WAIT" "$BIG" --size 120x24)
expect_contains "left alone, the copy is written when the index is ready" "$s" "bytes to $copy"
# every row with its name: the last event's as cat prints it
want=$("$PROFVIEW" cat "$BIG" --view timeline | tail -n 1 | cut -f7)
col=$(head -n 1 "$copy" | tr '\t' '\n' | grep -nx 'name' | cut -d: -f1)
[ -n "$col" ] || fail "no name column in the copy: $(head -n 1 "$copy")"
got=$(tail -n 1 "$copy" | cut -f"$col")
[ -n "$want" ] && [ "$got" = "$want" ] || fail "the copied last row's name is '$got', cat says '$want'"
[ "$(wc -l < "$copy")" -eq $((rows + 1)) ] || fail "the copy has $(wc -l < "$copy") lines"
echo "ok: every row, indexed (the last one's name is $want)"
