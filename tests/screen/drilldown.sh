#!/usr/bin/env bash
# Drill-down keeps its context: the title of a detail opened from a row
# names that row ("Callers of CRC_Calc (Routines)"), and Enter on a caller or
# callee (a row with nothing to open) selects that routine in the view it was
# opened from.  Expected rows come from `profview cat`.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8

check() { # FILE EXPLORER-KEYS DETAIL
  local file=$1 to=$2 detail=$3
  "$PROFVIEW" cat "$file" --view routines --columns id,routine > "$TMP/routines.tsv"
  local n row id name first want s
  n=$(($(wc -l < "$TMP/routines.tsv") - 1))
  # the first routine with at least one row in the detail whose routine is
  # another routine of the table
  for ((row = 1; row <= n; row++)); do
    id=$(sed -n "$((row + 1))p" "$TMP/routines.tsv" | cut -f1)
    name=$(sed -n "$((row + 1))p" "$TMP/routines.tsv" | cut -f2)
    first=$("$PROFVIEW" cat "$file" --view "$detail" --parent "$id" --columns routine | sed -n 2p)
    [ -n "$first" ] && break
  done
  [ -n "$first" ] || fail "$file: no routine has $detail"
  want=$(awk -F'\t' -v r="$first" 'NR > 1 && $2 == r { print NR - 1; exit }' "$TMP/routines.tsv")
  # the Details tab of that detail: Tab to Details, Left to the first tab
  # (they open on the first with rows), Right to the tab, back
  local k tabs=$'\nTab\nLeft Left Left Left Left Left Left Left' title=
  k=$("$PROFVIEW" info "$file" | awk '$1 == "routines" { for (i = 1; i <= NF; i++) if ($i == "details:") d = i; print d; exit }')
  k=$("$PROFVIEW" info "$file" | awk -v d="$detail" -v at="$k" '$1 == "routines" { for (i = at + 1; i <= NF; i++) if ($i == d) { print i - at - 1; exit } }')
  for ((i = 0; i < k; i++)); do tabs+=$'\nRight'; done
  to+=$tabs$'\nShift-Tab'
  s=$(pv_screen "$to"$'\n'":goto $row<Enter>"$'\nEnter' "$file" --size 140x30)
  case $detail in callers) title=Callers ;; callees) title=Callees ;; esac
  expect_contains "$file: the title names the row" "$s" "Report: $title of $name (Routines)"
  s=$(pv_screen "$to"$'\n'":goto $row<Enter>"$'\nEnter\nEnter' "$file" --size 140x30)
  expect_contains "$file: Enter on $first selects it in Routines" "$s" "routines │ row $want/$n"
  expect_absent "$file: no longer drilled" "$s" "Report: $title of"
}

check "$SAMPLES/rtos.txt" $'Shift-Tab\nj j j j j j\nTab' callers
check "$SAMPLES/plist-func-timing.txt" $'Shift-Tab j Tab' callers
check "$SAMPLES/aqtime-trace.db" $'Shift-Tab\nj j j\nTab' callers
