#!/usr/bin/env bash
# Times that differ read differently: a recording whose events are a few ns
# apart at 5.5 s (where every row used to read "5.551 s") shows each row's
# time with one unit and enough digits, grouped by three, so that adjacent
# distinct times differ on screen; the lane strip's START..END too; and a
# recording with coarser times keeps its short per-cell units.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
{
  echo '* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%'
  echo '00000000,main,'
  echo '00000001,work,'
  echo '* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%'
  t=5551097450
  echo "00000000,E,,$t"
  for i in $(seq 1 30); do
    t=$((t + i % 7 + 1)); echo "00000001,E,,$t"
    t=$((t + 3)); echo "00000001,X,,$t"
  done
  echo "00000000,X,,$((t + 1000))"
} > "$TMP/fine.txt"
"$PROFVIEW" cat "$TMP/fine.txt" --view timeline --columns index,time > "$TMP/times.tsv"
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'

check_rows() { # NAME SCREEN: each index on screen shows a time distinct from its neighbour's
  local name=$1 s=$2 prev_t="" prev_txt="" shown=0 idx t txt
  while IFS=$'\t' read -r idx t; do
    # a here-string, not a pipe: an early-exiting reader must not SIGPIPE
    # the writer (pipefail made the test end silently under load)
    txt=$(awk -F'│' -v i="$idx" '!done { split($2, f, " +"); if (f[2] == i) { print substr($2, 8, 22); done = 1 } }' <<<"$s")
    [ -n "$txt" ] || continue
    shown=$((shown + 1))
    if [ -n "$prev_t" ] && [ "$t" != "$prev_t" ] && [ "$txt" = "$prev_txt" ]; then
      fail "$name: index $idx ($t ns) reads '$txt' like the row before ($prev_t ns)"
    fi
    prev_t=$t; prev_txt=$txt
  done < <(tail -n +2 "$TMP/times.tsv")
  [ "$shown" -ge 10 ] || fail "$name: only $shown rows found on screen"
  echo "ok: $name ($shown rows)"
}

s=$(pv_screen "$TO_TIMELINE" "$TMP/fine.txt" --size 120x40)
check_rows "adjacent ns apart at 5.5 s" "$s"
expect_contains "digits grouped by three" "$s" "5.551 097 450 s"
s=$(pv_screen "$TO_TIMELINE"$'\nG' "$TMP/fine.txt" --size 120x40)
check_rows "at the end (G)" "$s"
s=$(pv_screen "$TO_TIMELINE"$'\n:set unit=s<Enter>' "$TMP/fine.txt" --size 120x40)
check_rows "with unit=s" "$s"
first=$(sed -n 2p "$TMP/times.tsv" | cut -f2)
last=$(tail -1 "$TMP/times.tsv" | cut -f2)
s=$(pv_screen "$TO_TIMELINE" "$TMP/fine.txt" --size 120x40)
span=$(grep -o 'Lanes [^─]*' <<<"$s" | sed -n 1p)
lo=${span#Lanes }; lo=${lo%%..*}; hi=${span#*..}; hi=${hi% }
[ -n "$lo" ] && [ "$lo" != "$hi" ] || fail "lane span '$span' does not tell START from END"
echo "ok: lane span $span"

# Coarse times keep their short units (the sample: microseconds apart).
s=$(pv_screen "$TO_TIMELINE" "$SAMPLES/rtos.txt" --size 120x40)
if grep -E '\.[0-9]{3} [0-9]{3}' <<<"$s" >/dev/null; then
  fail "grouped digits where short units already differ"
fi
echo "ok: no grouped digits where short units differ"
expect_contains "short units kept" "$s" " us "
