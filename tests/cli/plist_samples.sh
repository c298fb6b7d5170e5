#!/usr/bin/env bash
# The PLIST samples load without warnings, and `profview cat` prints exactly
# what the generator's expect files (sample-data/expect/) say: summary,
# routines, lines, call-trace paths and callers/callees edges.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
data=$PV_SOURCE_DIR/sample-data
exp=$data/expect
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected actual
  if ! diff -u "$2" "$3" >"$tmp/diff"; then
    echo "FAIL: $1"; head -40 "$tmp/diff"; fail=1
  else
    echo "ok: $1"
  fi
}

for base in plist-func-timing plist-func-count plist-func-coverage plist-line-count plist-line-coverage \
            plist-line-modules; do
  f=$data/$base.txt
  "$PROFVIEW" info "$f" --json >"$tmp/info.json"
  grep -q '"format":"plist"' "$tmp/info.json" || { echo "FAIL: $base not detected as plist"; fail=1; }
  grep -q '"warning_count":0' "$tmp/info.json" || { echo "FAIL: $base has warnings"; cat "$tmp/info.json"; fail=1; }
  "$PROFVIEW" cat "$f" --view summary --columns key,value | grep -v "^file	" >"$tmp/summary"
  check "$base summary" "$exp/$base.summary.tsv" "$tmp/summary"
done

for base in plist-func-timing plist-func-count plist-func-coverage; do
  "$PROFVIEW" cat "$data/$base.txt" --view routines \
    --columns id,routine,module,exe,source,hits,time,time_with_children,covered >"$tmp/routines"
  check "$base routines" "$exp/$base.routines.tsv" "$tmp/routines"
done

for base in plist-line-count plist-line-coverage plist-line-modules; do
  "$PROFVIEW" cat "$data/$base.txt" --view lines --columns id,exe,source,line,hits,covered \
    >"$tmp/lines"
  check "$base lines" "$exp/$base.lines.tsv" "$tmp/lines"
done

# call-trace: rebuild each row's path from id/parent (rows come in pre-order).
f=$data/plist-func-timing.txt
"$PROFVIEW" cat "$f" --view call-trace --columns id,parent,routine,depth,thread,hits,time,time_with_children \
  | awk -F'\t' 'NR > 1 {
      path[$1] = ($2 == "" ? $3 : path[$2] " | " $3)
      d = ($2 == "" ? 0 : depth[$2] + 1); depth[$1] = d
      if (d != $4) { print "bad depth for id " $1 > "/dev/stderr"; exit 1 }
      if ($5 != "") { print "thread should be empty, id " $1 > "/dev/stderr"; exit 1 }
      print path[$1] "\t" $6 "\t" $7 "\t" $8 }' | LC_ALL=C sort >"$tmp/paths"
check "call-trace paths" "$exp/plist-func-timing.call-trace.tsv" "$tmp/paths"

# callers/callees: the callees of every routine must be the expected edges,
# and the callers of every routine the same edges seen from the other end.
"$PROFVIEW" cat "$f" --view routines --columns id,routine >"$tmp/routines"
: >"$tmp/callees"
: >"$tmp/callers"
while IFS=$'\t' read -r id name; do
  "$PROFVIEW" cat "$f" --view callees --parent "$id" --columns routine,hits,time \
    | awk -F'\t' -v c="$name" 'NR > 1 { print c "\t" $0 }' >>"$tmp/callees"
  "$PROFVIEW" cat "$f" --view callers --parent "$id" --columns routine,hits,time \
    | awk -F'\t' -v c="$name" 'NR > 1 { print $1 "\t" c "\t" $2 "\t" $3 }' >>"$tmp/callers"
done < <(tail -n +2 "$tmp/routines")
LC_ALL=C sort -o "$tmp/callees" "$tmp/callees"
LC_ALL=C sort -o "$tmp/callers" "$tmp/callers"
check "callees" "$exp/plist-func-timing.edges.tsv" "$tmp/callees"
check "callers" "$exp/plist-func-timing.edges.tsv" "$tmp/callers"

# Never-executed routines are shown and can be selected by `covered`.
never=$(awk -F'\t' 'NR > 1 && $9 == 0' "$exp/plist-func-timing.routines.tsv" | wc -l)
[ "$never" -gt 0 ] || { echo "FAIL: the sample has no never-executed routine"; fail=1; }
got=$("$PROFVIEW" cat "$f" --view routines --columns covered | awk 'NR > 1 && $1 == 0' | wc -l)
[ "$got" = "$never" ] || { echo "FAIL: $got uncovered routines shown, expected $never"; fail=1; }

exit $fail
