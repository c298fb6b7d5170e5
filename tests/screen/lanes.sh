#!/usr/bin/env bash
# The lane strip under the winIDEA timeline, checked against the command
# line: for the rows on screen (first and last Index shown), every function
# or line event of `cat --view timeline` in that time span marks its
# context's lane in bucket floor((t - t0) * W / (t1 - t0 + 1)); the cursor
# column is the selected event's bucket.  ASCII, so that awk counts columns.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
"$PROFVIEW" cat "$RTOS" --view timeline > "$TMP/timeline.tsv"
"$PROFVIEW" cat "$RTOS" --view contexts --columns name | tail -n +2 > "$TMP/contexts"

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
  awk -F'\t' -v scope="$scope" -v W="$width" -v L="$label" -v sel="$sel" \
    -v shownf="$TMP/shown" -v ctxf="$TMP/contexts" '
    BEGIN {
      while ((getline x < shownf) > 0) shown[x] = 1
      n = 0; while ((getline x < ctxf) > 0) { lane[x] = n; names[n++] = x }
    }
    NR == 1 { next }
    { time[$2] = $3; ctx[$2] = $4; type[$2] = $11 }
    END {
      t0 = ""; for (i in shown) { t = time[i] + 0; if (t0 == "" || t < t0) t0 = t; if (t1 == "" || t > t1) t1 = t }
      span = t1 - t0 + 1
      for (i in time) {
        t = time[i] + 0
        if (scope == "screen" && !(i in shown)) continue
        if (t < t0 || t > t1 || !(ctx[i] in lane) || (type[i] != "function" && type[i] != "line")) continue
        mark[lane[ctx[i]], int((t - t0) * W / span)] = 1
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

# no strip for views without time and context (statistics), nor when the
# Report is too low for it
s=$(pv_screen $'Shift-Tab\nj j\nTab' "$RTOS" --size 100x40 --ascii)
expect_absent "no strip on statistics" "$s" "- Lanes "
s=$(pv_screen "$TO_TIMELINE" "$RTOS" --size 100x16 --ascii)
expect_absent "no strip in a low Report" "$s" "- Lanes "
