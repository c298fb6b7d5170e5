#!/usr/bin/env bash
# The lane strip under the winIDEA timeline, checked against the command
# line.  Over the time span of the rows on screen (first and last Index
# shown) a context lane shows when its context ran (docs/tui.md "Lane
# strip"): rtos.txt names its contexts with a context area, so a context
# runs from a write of the area that switches to it (or a function or line
# event of it) until the next one that names another; its lane is marked
# in every bucket floor((t - t0) * W / (t1 - t0 + 1)) that such a run
# overlaps for a while.  In a sorted report only the rows on screen mark
# their bucket (instants).  The cursor column is the selected event's
# bucket.  ASCII, so that awk counts columns.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
"$PROFVIEW" cat "$RTOS" --view contexts --columns name | tail -n +2 > "$TMP/contexts"
"$PROFVIEW" cat "$RTOS" --view contexts --columns handle,name | tail -n +2 > "$TMP/handles"
# the context area's handle: "OS_RunningTask (0x20000000)"
AREA=$("$PROFVIEW" cat "$RTOS" --view summary | awk -F'\t' '$2 == "context area" { sub(/.*\(/, "", $3); sub(/\).*/, "", $3); print $3 }')
[ -n "$AREA" ] || fail "rtos.txt has no context area"

# check_lanes NAME SCREEN SELECTED_INDEX SCOPE: SCOPE "span" (every event in
# the time span of the rows on screen) or "screen" (only the rows on screen:
# a sorted or filtered report).
check_lanes() {
  local name=$1 screen=$2 sel=$3 scope=$4
  printf '%s\n' "$screen" > "$TMP/s"
  # the event rows on screen: between the header and the strip's title
  awk '/\| Index / { r = 1; next } /\|- Lanes / { r = 0 } r { sub(/^[^|]*\| */, ""); print $1 }' \
    "$TMP/s" > "$TMP/shown"
  [ -s "$TMP/shown" ] || { cat "$TMP/s" >&2; fail "$name: no event rows found"; }
  # lanes as drawn: the text right of the pane border, label included (the
  # context lanes: the pinned lanes and the axis follow them)
  awk '/\|- Lanes / { l = 1; next } l && /\|- Details/ { exit } l { sub(/^[^|]*\|/, ""); print }' \
    "$TMP/s" | head -n "$(wc -l < "$TMP/contexts")" > "$TMP/got"
  local label width
  label=$(awk '{ if (length($0) > m) m = length($0) } END { print (m > 16 ? 16 : m) }' "$TMP/contexts")
  # the pane's width from the strip's title line (lane lines lose their
  # trailing blanks in the dump)
  width=$(( $(awk '/\|- Lanes / { sub(/^[^|]*\|/, ""); print length($0); exit }' "$TMP/s") - label - 2 ))
  awk -F'\t' -v scope="$scope" -v W="$width" -v L="$label" -v sel="$sel" -v area="$AREA" \
    -v shownf="$TMP/shown" -v ctxf="$TMP/contexts" -v handlef="$TMP/handles" '
    BEGIN {
      while ((getline x < shownf) > 0) shown[x] = 1
      n = 0; while ((getline x < ctxf) > 0) { lane[x] = n; names[n++] = x }
      while ((getline x < handlef) > 0) { split(x, h, "\t"); of_handle[tolower(h[1])] = h[2] }
    }
    NR == 1 { next }
    {
      time[$2] = $3; ctx[$2] = $4; type[$2] = $11; last = $2 + 0
      # the context that runs from this event on: a switch of the context
      # area, or a function or line event of a context
      run[$2] = ""
      if ($6 == area && $8 == "W" && (tolower($9) in of_handle)) run[$2] = of_handle[tolower($9)]
      else if (($11 == "function" || $11 == "line") && $4 != "") run[$2] = $4
    }
    function mark_run(k, a, e,   b0, b1, b) {
      if (a < t0) a = t0
      if (e > t0 + span) e = t0 + span
      if (!(a < e)) return
      b0 = int((a - t0) * W / span); b1 = int((e - 1 - t0) * W / span)
      for (b = b0; b <= b1 && b < W; b++) mark[k, b] = 1
    }
    END {
      t0 = ""; for (i in shown) { t = time[i] + 0; if (t0 == "" || t < t0) t0 = t; if (t1 == "" || t > t1) t1 = t }
      span = t1 - t0 + 1
      if (scope == "span") {
        cur = ""; start = 0
        for (i = 0; i <= last; i++) {
          if (!(i in run) || run[i] == "") continue
          if (cur != "" && (cur in lane)) mark_run(lane[cur], start, time[i] + 0)
          cur = run[i]; start = time[i] + 0
        }
        if (cur != "" && (cur in lane)) mark_run(lane[cur], start, t0 + span)
      } else {
        for (i in shown) {
          t = time[i] + 0
          if (!(ctx[i] in lane) || (type[i] != "function" && type[i] != "line")) continue
          mark[lane[ctx[i]], int((t - t0) * W / span)] = 1
        }
      }
      cur = int((time[sel] - t0) * W / span)
      for (k = 0; k < n; k++) {
        s = sprintf(" %-" L "." L "s ", names[k])
        for (b = 0; b < W; b++) s = s (((k, b) in mark) ? "#" : b == cur ? "|" : " ")
        sub(/ +$/, "", s); print s
      }
    }' "$TMP/timeline.tsv" > "$TMP/want"
  sed -i "s/ *\$//" "$TMP/got"
  if ! diff -u "$TMP/want" "$TMP/got" >&2; then
    cat "$TMP/s" >&2
    fail "$name: the lanes differ from cat"
  fi
  echo "ok: $name (width $width, $(wc -l < "$TMP/shown") rows on screen)"
}

s=$(pv_screen "$TO_TIMELINE"$'\n:goto #1500<Enter>\nj j j' "$RTOS" --size 100x40 --ascii)
check_lanes "lanes over the rows' time span" "$s" 1502 span
expect_contains "the strip names its span" "$s" "|- Lanes 167.767 us..169.544 us -"
s=$(pv_screen "$TO_TIMELINE"$'\n:goto #2900<Enter>' "$RTOS" --size 130x50 --ascii)
check_lanes "lanes near the end, wider" "$s" 2899 span
# sorted by name: the span of the rows on screen, only those rows counted
s=$(pv_screen "$TO_TIMELINE"$'\n:sort name<Enter>\n:goto #700<Enter>' "$RTOS" --size 120x40 --ascii)
# the selected row is the one :goto put the cursor on: row 700 of the sorted report
sel=$("$PROFVIEW" cat "$RTOS" --view timeline --sort name --columns index | sed -n 701p)
check_lanes "lanes of a sorted report (rows on screen only)" "$s" "$sel" screen

# no strip for views without time and context (statistics); a low Report
# folds it to the lanes that run in the span (docs/tui.md "Layout"), and
# one too low for that (fewer than 6 rows of events left) has none
s=$(pv_screen $'Shift-Tab\nj j\nTab' "$RTOS" --size 100x40 --ascii)
expect_absent "no strip on statistics" "$s" "- Lanes "
s=$(pv_screen "$TO_TIMELINE" "$RTOS" --size 100x16 --ascii)
expect_contains "a low Report folds the strip" "$s" "|- Lanes 0..681 ns (1 of 5 lanes) -"
expect_contains "the folded strip keeps the lane that runs" "$s" "| ID_TASK_COMM    ####"
s=$(pv_screen "$TO_TIMELINE" "$RTOS" --size 100x11 --ascii)
expect_absent "no strip in a Report too low" "$s" "- Lanes "
