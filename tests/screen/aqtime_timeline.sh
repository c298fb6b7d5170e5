#!/usr/bin/env bash
# The timeline keys and the lane strip on the AQTime Function Trace call
# trace, through the same capability hooks as on a winIDEA timeline
# (docs/model.md, docs/aqtime.md "In the viewer"), checked against the
# command line: `cat --view call-trace` gives the calls in the order of the
# tree (pre-order), the viewer shows them under one node per thread.
#   %      a call -> the call that called it
#   J / K  the next / previous call of the same routine
#   t      from a routine: its first call in the call trace
#   lanes  a lane per thread over the order of the Report's rows
# The call trace has no clock (docs/aqtime.md): :goto TIME says so;
# markers go on calls, and :stats shows the routines between them.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample aqtime-trace.db
DB=$SAMPLES/aqtime-trace.db
TO_TRACE=$'Shift-Tab\nj j\nTab'
TO_ROUTINES=$'Shift-Tab\nj j j\nTab'

# base.tsv: id parent routine thread routine_id, in the tree's order; then
# grouped.tsv: the Report's rows (a node row per thread before its calls):
# position (1-based) id parent thread routine_id ("node" rows have id "-").
"$PROFVIEW" cat "$DB" --instance 1 --view call-trace --columns id,parent,routine,thread,routine_id |
  tail -n +2 > "$TMP/base.tsv"
awk -F'\t' 'BEGIN { OFS = "\t" }
  $4 != last { n++; print n, "-", "", $4, ""; last = $4 }
  { n++; print n, $1, $2, $4, $5 }' "$TMP/base.tsv" > "$TMP/grouped.tsv"
rows=$(wc -l < "$TMP/grouped.tsv")
pos_of() { awk -F'\t' -v id="$1" '$2 == id { print $1; exit }' "$TMP/grouped.tsv"; }
# down N: N times j (the Report starts on its first row)
down() { local i s=""; for ((i = 1; i < $1; i++)); do s="$s j"; done; printf '%s' "$s"; }

# % from the first call at depth >= 2: its caller.
read -r id parent < <(awk -F'\t' '$3 != "" && $2 != "-" { p[$2] = $3 }
  $2 != "-" && $3 != "" && ($3 in p) && p[$3] != "" { print $2, $3; exit }' "$TMP/grouped.tsv")
from=$(pos_of "$id"); to=$(pos_of "$parent")
s=$(pv_screen "$TO_TRACE"$'\n'"$(down "$from")"$'\n%' "$DB" --size 100x30)
expect_contains "% from call $id (row $from) to its caller $parent (row $to)" "$s" "call-trace │ row $to/$rows"
s=$(pv_screen "$TO_TRACE"$'\n'"$(down "$to")"$'\n%' "$DB" --size 100x30)
want=$(pos_of "$(awk -F'\t' -v id="$parent" '$2 == id { print $3 }' "$TMP/grouped.tsv")")
if [ -n "$want" ]; then
  expect_contains "% again: the caller's caller (row $want)" "$s" "call-trace │ row $want/$rows"
fi
# a call at the top has no caller
top=$(awk -F'\t' '$2 != "-" && $3 == "" { print $1; exit }' "$TMP/grouped.tsv")
s=$(pv_screen "$TO_TRACE"$'\n'"$(down "$top")"$'\n%' "$DB" --size 100x30)
expect_contains "% on a call at the top says so" "$s" "no matching entry, exit or caller"

# J / K: the next call of the same routine (routine_id) in the Report's order.
read -r a b < <(awk -F'\t' '$5 != "" { if ($5 in first && !done) { print first[$5], $1; done = 1 } else if (!($5 in first)) first[$5] = $1 }' "$TMP/grouped.tsv")
s=$(pv_screen "$TO_TRACE"$'\n'"$(down "$a")"$'\nJ' "$DB" --size 100x30)
expect_contains "J from row $a to row $b (same routine)" "$s" "call-trace │ row $b/$rows"
s=$(pv_screen "$TO_TRACE"$'\n'"$(down "$b")"$'\nK' "$DB" --size 100x30)
expect_contains "K from row $b back to row $a" "$s" "call-trace │ row $a/$rows"
last=$(awk -F'\t' -v r="$(awk -F'\t' -v p="$a" '$1 == p { print $5 }' "$TMP/grouped.tsv")" '$5 == r { l = $1 } END { print l }' "$TMP/grouped.tsv")
s=$(pv_screen "$TO_TRACE"$'\n'"$(down "$last")"$'\nJ' "$DB" --size 100x30)
expect_contains "J after the routine's last call says so" "$s" "no other event of this area"

# t from every routine: its first call in the call trace.
"$PROFVIEW" cat "$DB" --instance 1 --view routines --columns id | tail -n +2 > "$TMP/routines"
n=0
while read -r rid; do
  n=$((n + 1))
  want=$(awk -F'\t' -v r="$rid" '$5 == r { print $1; exit }' "$TMP/grouped.tsv")
  s=$(pv_screen "$TO_ROUTINES"$'\n'"$(down "$n")"$'\nt' "$DB" --size 100x30)
  if [ -n "$want" ]; then
    expect_contains "t from routine $rid: its first call (row $want)" "$s" "│ call-trace │ row $want/$rows"
  else
    expect_contains "t from routine $rid without calls says so" "$s" "this row has no event or time"
  fi
done < "$TMP/routines"

# The lane strip: lane k is filled in column b when a row at a position i
# with floor(b*N/W) <= i < ceil((b+1)*N/W) is a call of thread k (a thread
# node counts as its thread); the cursor column is floor(cur*W/N).
"$PROFVIEW" cat "$DB" --instance 1 --view threads --columns thread | tail -n +2 > "$TMP/threads"
check_lanes() { # NAME SCREEN CURSOR_POSITION ROWS_FILE (position thread, one per Report row)
  printf '%s\n' "$2" > "$TMP/s"
  awk '/\|- Lanes / { l = 1; next } l && /\|- Details/ { exit } l { sub(/^[^|]*\|/, ""); print }' \
    "$TMP/s" > "$TMP/got"
  local width label
  label=$(awk '{ w = length("Thread " $1); if (w > m) m = w } END { print m }' "$TMP/threads")
  width=$(( $(awk '/\|- Lanes / { sub(/^[^|]*\|/, ""); print length($0); exit }' "$TMP/s") - label - 2 ))
  awk -v W="$width" -v L="$label" -v cur="$3" -v thf="$TMP/threads" '
    BEGIN { n = 0; while ((getline x < thf) > 0) { lane[x] = n; names[n++] = "Thread " x } }
    { th[NR - 1] = $2; N = NR }
    END {
      for (b = 0; b < W; b++) {
        from = int(b * N / W); to = int(((b + 1) * N + W - 1) / W)
        for (i = from; i < to; i++) mark[lane[th[i]], b] = 1
      }
      c = int((cur - 1) * W / N)
      for (k = 0; k < n; k++) {
        s = sprintf(" %-" L "." L "s ", names[k])
        for (b = 0; b < W; b++) s = s (((k, b) in mark) ? "#" : b == c ? "|" : " ")
        sub(/ +$/, "", s); print s
      }
    }' "$4" > "$TMP/want"
  sed -i "s/ *\$//" "$TMP/got"
  if ! diff -u "$TMP/want" "$TMP/got" >&2; then
    cat "$TMP/s" >&2
    fail "$1: the lanes differ from cat"
  fi
  echo "ok: $1 (width $width)"
}
cut -f1,4 "$TMP/grouped.tsv" > "$TMP/lanes_rows"
s=$(pv_screen "$TO_TRACE"$'\n'"$(down 8)" "$DB" --size 100x30 --ascii)
expect_contains "the strip names its rows" "$s" "|- Lanes rows 1..$rows -"
check_lanes "a lane per thread over the rows" "$s" 8 "$TMP/lanes_rows"
s=$(pv_screen "$TO_TRACE"$'\nG' "$DB" --size 130x40 --ascii)
check_lanes "wider, at the last row" "$s" "$rows" "$TMP/lanes_rows"
# filtered: the rows that match (routine fib) and their callers and nodes
awk -F'\t' 'BEGIN { OFS = "\t" }
  { pos[NR] = $1; id[NR] = $2; par[NR] = $3; th[NR] = $4; r[NR] = $5; row[$2] = NR }
  END {
    for (i = 1; i <= NR; i++) if (r[i] == 104) {
      keep[i] = 1; for (p = par[i]; p != ""; p = par[row[p]]) keep[row[p]] = 1; node[th[i]] = 1 }
    for (i = 1; i <= NR; i++) if (keep[i] || (id[i] == "-" && node[th[i]])) print ++n, th[i]
  }' "$TMP/grouped.tsv" > "$TMP/lanes_fib"
s=$(pv_screen "$TO_TRACE"$'\n:filter routine_id = 104<Enter>' "$DB" --size 100x30 --ascii)
check_lanes "the strip of a filtered trace" "$s" 1 "$TMP/lanes_fib"

# No clock: :goto TIME says so; :goto N still works.
s=$(pv_screen "$TO_TRACE"$'\n:goto 1ms<Enter>' "$DB" --size 100x30)
expect_contains ":goto TIME on the call trace" "$s" "this view has no time axis"
s=$(pv_screen "$TO_TRACE"$'\n:goto 5<Enter>' "$DB" --size 100x30)
expect_contains ":goto N on the call trace" "$s" "call-trace │ row 5/$rows"
s=$(pv_screen "$TO_TRACE"$'\n:stats<Enter>' "$DB" --size 100x30)
expect_contains ":stats without markers" "$s" ":stats needs both markers"

# Markers on calls and :stats between them: per routine, the calls of the
# rows from A to B (both included), their own counter (sum, min, max,
# average rounded half away from zero) and with children (a call inside a
# call of the same routine in the span counted once), checked against cat
# on result set 2, a count counter (plain integers).
"$PROFVIEW" cat "$DB" --instance 2 --view call-trace --columns id,parent,routine_id,time,time_with_children,thread |
  tail -n +2 | awk -F'\t' 'BEGIN { OFS = "\t" }
    $6 != last { n++; print n, "-", "", "", "", ""; last = $6 }
    { n++; print n, $1, $2, $3, $4, $5 }' > "$TMP/g2.tsv"
rows2=$(wc -l < "$TMP/g2.tsv")
TO_TRACE2=$'Shift-Tab\nG k k k\nTab'
stats_want() { # FROM TO (1-based Report rows): id calls time twc min max avg per routine
  awk -F'\t' -v from="$1" -v to="$2" '
    { pos[NR] = $1; id[NR] = $2; par[NR] = $3; r[NR] = $4; own[NR] = $5; wc[NR] = $6; row[$2] = NR }
    END {
      for (i = from; i <= to; i++) {
        if (id[i] == "-") continue
        k = r[i]; if (!(k in calls)) order[n++] = k
        calls[k]++; sum[k] += own[i]
        if (!(k in mn) || own[i] < mn[k]) mn[k] = own[i]
        if (!(k in mx) || own[i] > mx[k]) mx[k] = own[i]
        nested = 0
        for (p = par[i]; p != "" && row[p] >= from && !nested; p = par[row[p]]) nested = r[row[p]] == k
        if (!nested) twc[k] += wc[i]
      }
      for (j = 0; j < n; j++) { k = order[j]
        avg = int((sum[k] + int(calls[k] / 2)) / calls[k])
        print k, calls[k], sum[k], twc[k] + 0, mn[k], mx[k], avg }
    }' "$TMP/g2.tsv"
}
stats_shown() {
  printf '%s\n' "$1" | awk '/─ Details ─/ { d = 1; next } d && /│ Id / { h = 1; next }
    h && /^ *│/ { sub(/^[^│]*│ */, ""); gsub(/ +/, " "); sub(/ $/, ""); if ($0 != "") print }'
}
check_stats() { # NAME FROM TO KEYS
  local s got want
  s=$(pv_screen "$TO_TRACE2"$'\n'"$4"$'\n:stats<Enter>\nTab\n:columns id,hits,time,time_with_children,min_time,max_time,avg_time<Enter>' "$DB" --size 120x50)
  expect_contains "$1: the tab names the rows" "$s" "[statistics row $2..$3]"
  got=$(stats_shown "$s")
  want=$(stats_want "$2" "$3")
  [ -n "$want" ] || fail "$1: no calls between rows $2 and $3"
  if [ "$got" != "$want" ]; then
    diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2 || true
    printf '%s\n' "$s" >&2
    fail "$1: the statistics of rows $2..$3 differ from cat"
  fi
  echo "ok: $1 ($(printf '%s\n' "$got" | wc -l) routines)"
}
check_stats ":stats over rows 3..14" 3 14 $':goto 3<Enter>\nm\n:goto 14<Enter>\nM'
check_stats ":stats with B before A, across the threads" 4 "$rows2" $':goto '"$rows2"$'<Enter>\nm\n:goto 4<Enter>\nM'
s=$(pv_screen "$TO_TRACE2"$'\n:goto 3<Enter>\nm\n:goto 6<Enter>\nM' "$DB" --size 120x40)
expect_contains "markers on rows in the status bar" "$s" "A row 3 B row 6"
s=$(pv_screen "$TO_TRACE2"$'\n:goto 3<Enter>\nm\n:goto 6<Enter>\nM\n:goto A<Enter>' "$DB" --size 120x40)
expect_contains ":goto A on a row marker" "$s" "row 3/$rows2"
s=$(pv_screen "$TO_TRACE2"$'\n:goto 3<Enter>\nm\n:goto 6<Enter>\nM\n:range<Enter>' "$DB" --size 120x40)
expect_contains ":range needs times" "$s" ":range needs markers at times"
# markers move: the statistics follow them
s=$(pv_screen "$TO_TRACE2"$'\n:goto 3<Enter>\nm\n:goto 6<Enter>\nM\n:stats<Enter>\n:goto 9<Enter>\nM' "$DB" --size 120x40)
expect_contains "a moved marker recomputes" "$s" "[statistics row 3..9]"
echo PASS
