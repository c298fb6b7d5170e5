#!/usr/bin/env bash
# AQTime databases at scale (docs/aqtime.md, Scale), on databases written by
# `pv_gen_aqtime --scale`: many result sets each get exactly their own rows
# (the rows are grouped by INST_ID once, not scanned per result set), sets
# without an INSTANCES row still get a node, and a generated call trace is a
# consistent tree (every call's time with children is its own time plus its
# children's).  Timings are measured by bench/, never here.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_BUILD_DIR:?}"
gen=$PV_BUILD_DIR/pv_gen_aqtime
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# 1. 3000 result sets; INST_ID k holds main (k us, k+2 with children) calling
#    routine_001 twice; every tenth INST_ID has no INSTANCES row (counts in
#    cycles then).
"$gen" --scale sets 3000 "$tmp/sets.db"
"$PROFVIEW" info "$tmp/sets.db" >"$tmp/info"
n=$(grep -c '^  result set [0-9]*: ' "$tmp/info")
[ "$n" -eq 3000 ] || { echo "FAIL: $n result sets, expected 3000"; fail=1; }
# each of the 300 says it has no INSTANCES row and no counter frequency
grep -q '^  warnings: 600$' "$tmp/info" || { echo "FAIL: warning count"; fail=1; }
grep -o 'INST_ID [0-9]* has rows but no INSTANCES row' "$tmp/info" | sed -n 1,3p >"$tmp/a"
printf 'INST_ID %s has rows but no INSTANCES row\n' 10 20 30 | diff -u - "$tmp/a" ||
  { echo "FAIL: sets without INSTANCES row, in INST_ID order"; fail=1; }
grep -q '^  result set 2999: Run 2999 (Function Trace)' "$tmp/info" ||
  { echo "FAIL: set 2999 caption"; fail=1; }
grep -q '^  result set 3000: Result set 3000 (Function Trace)' "$tmp/info" ||
  { echo "FAIL: set 3000 (no INSTANCES row) caption"; fail=1; }
for k in 1 7 1234 2999 3000; do
  if [ $((k % 10)) -eq 0 ]; then main=$k wc=$((k + 2)) one=1; else
    main=$((k * 1000)) wc=$(((k + 2) * 1000)) one=1000; fi
  printf '1\t\t0\tmain\t%s\t%s\n2\t1\t1\troutine_001\t%s\t%s\n3\t1\t1\troutine_001\t%s\t%s\n' \
    "$main" "$wc" "$one" "$one" "$one" "$one" >"$tmp/e"
  "$PROFVIEW" cat "$tmp/sets.db" --instance $k --view call-trace \
    --columns id,parent,depth,routine,time,time_with_children | tail -n +2 >"$tmp/a"
  diff -u "$tmp/e" "$tmp/a" || { echo "FAIL: set $k call trace"; fail=1; }
  printf '100\tmain\t1\t%s\n101\troutine_001\t2\t%s\n' "$main" "$((2 * one))" >"$tmp/e"
  "$PROFVIEW" cat "$tmp/sets.db" --instance $k --view routines --columns id,routine,hits,time \
    --sort id | tail -n +2 >"$tmp/a"
  diff -u "$tmp/e" "$tmp/a" || { echo "FAIL: set $k routines"; fail=1; }
done

# 2. A call trace of 20000 calls over 4 threads: every call is there once, in
#    pre-order (a parent before its children), and time with children is the
#    own time plus the children's.
"$gen" --scale trace 20000 "$tmp/trace.db"
"$PROFVIEW" info --json "$tmp/trace.db" | grep -q '"warning_count":0,' ||
  { echo "FAIL: the generated trace has warnings"; fail=1; }
"$PROFVIEW" cat "$tmp/trace.db" --view call-trace --format tsv \
  --columns id,parent,depth,thread,time,time_with_children >"$tmp/ct"
awk -F'\t' 'NR > 1 {
    n++; if ($1 in seen) { print "FAIL: id " $1 " twice"; bad = 1 } seen[$1] = 1
    depth[$1] = $3; own[$1] = $5; wc[$1] = $6
    if ($2 != "") {
      if (!($2 in seen)) { print "FAIL: " $1 " before its parent " $2; bad = 1 }
      if (depth[$2] + 1 != $3) { print "FAIL: depth of " $1; bad = 1 }
      kids[$2] += $6
    } else if ($3 != 0) { print "FAIL: a root at depth " $3; bad = 1 }
  }
  END {
    if (n != 20000) { print "FAIL: " n " calls, expected 20000"; bad = 1 }
    for (i in seen) if (own[i] + kids[i] != wc[i]) { print "FAIL: wc of " i; bad = 1; break }
    exit bad
  }' "$tmp/ct" || fail=1

# 3. Resource and Reference Count databases of 3000 objects (the benchmark
#    writes them with a million): no warnings, every object in one class,
#    each object's stack, references and ref-count tree.
for kind in resource refcount; do
  "$gen" --scale $kind 3000 "$tmp/$kind.db"
  "$PROFVIEW" info --json "$tmp/$kind.db" | grep -q '"warning_count":0,' ||
    { echo "FAIL: the generated $kind database has warnings"; fail=1; }
  n=$("$PROFVIEW" cat "$tmp/$kind.db" --view objects --format tsv | tail -n +2 | wc -l)
  [ "$n" -eq 3000 ] || { echo "FAIL: $kind: $n objects"; fail=1; }
  live=$("$PROFVIEW" cat "$tmp/$kind.db" --view classes --columns live_count | tail -n +2 |
    awk '{ s += $1 } END { print s }')
  [ "$live" -eq 3000 ] || { echo "FAIL: $kind: classes count $live objects"; fail=1; }
  "$PROFVIEW" cat "$tmp/$kind.db" --view creation-call-stack --parent 2999 --columns position,routine |
    tail -n +2 | awk -F'\t' 'NR == 2 && $2 != "routine_000" { exit 1 } END { exit NR != 2 }' ||
    { echo "FAIL: $kind: creation call stack of object 2999"; fail=1; }
done
"$PROFVIEW" cat "$tmp/refcount.db" --view references --parent 1234 --columns number,object,kind |
  tail -n +2 >"$tmp/a"
printf '1\t1234\tAddRef\n2\t1234\tRelease\n' | diff -u - "$tmp/a" ||
  { echo "FAIL: references of object 1234"; fail=1; }
"$PROFVIEW" cat "$tmp/refcount.db" --view refcount-tree --parent 1234 --columns depth,routine |
  tail -n +2 | cut -f1 | tr '\n' ' ' >"$tmp/a"
[ "$(cat "$tmp/a")" = "0 1 2 " ] || { echo "FAIL: ref-count tree of object 1234: $(cat "$tmp/a")"; fail=1; }
exit $fail
