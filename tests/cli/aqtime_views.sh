#!/usr/bin/env bash
# The views of the AQTime sample databases against what the generator says it
# wrote (sample-data/*.expect.tsv, computed from the generator's own data):
# trees (order, parents, depth), times converted from cycles, hit counts,
# routes and stacks, parameters, classes, objects, errors, references, the
# ref-count tree, and the two result sets of each file kept apart.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
S=$PV_SOURCE_DIR/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# check NAME EXPECTED ACTUAL
check() {
  if ! diff -u "$2" "$3" >"$tmp/diff"; then
    echo "FAIL: $1"
    head -30 "$tmp/diff"
    fail=1
  fi
}

# expect FILE TAG INST [FIELD-LIST]: the generator's rows of that kind.
expect() {
  awk -F'\t' -v tag="$2" -v inst="$3" 'BEGIN{OFS="\t"} $1==tag && $2==inst {
      $1=""; $2=""; sub(/^\t\t/, ""); print }' "$1"
}

cat_view() { "$PROFVIEW" cat "$@" | tail -n +2; }

# The samples are clean: no warning at all.
for db in aqtime-trace aqtime-resource aqtime-refcount; do
  "$PROFVIEW" info --json "$S/$db.db" | grep -q '"warning_count":0,' || { echo "FAIL: $db.db has warnings"; fail=1; }
done

T=$S/aqtime-trace.db
for inst in 1 2; do
  expect "$S/aqtime-trace.expect.tsv" call $inst >"$tmp/e"
  cat_view "$T" --instance $inst --view call-trace \
    --columns thread,id,parent,depth,routine,time,time_with_children >"$tmp/a"
  check "trace $inst: call tree (pre-order, parents, depth, times)" "$tmp/e" "$tmp/a"
  # The tree's parent links agree with the parent column.
  "$PROFVIEW" cat "$T" --instance $inst --view call-trace --format json >"$tmp/j"
  [ "$(grep -c '"id"' "$tmp/j")" -eq "$(wc -l <"$tmp/e")" ] || { echo "FAIL: json rows"; fail=1; }

  expect "$S/aqtime-trace.expect.tsv" routine $inst >"$tmp/e"
  cat_view "$T" --instance $inst --view routines \
    --columns id,routine,hits,time,time_with_children >"$tmp/a"
  check "trace $inst: routines (hits, summed time, time with children once)" "$tmp/e" "$tmp/a"

  expect "$S/aqtime-trace.expect.tsv" route $inst >"$tmp/e"
  cat_view "$T" --instance $inst --view call-routes --columns id,routine_id,hits >"$tmp/a"
  check "trace $inst: call routes" "$tmp/e" "$tmp/a"

  expect "$S/aqtime-trace.expect.tsv" stack $inst >"$tmp/e"
  : >"$tmp/a"
  for route in $(cut -f1 <"$tmp/e" | sort -un); do
    cat_view "$T" --instance $inst --view call-stack --parent "$route" \
      --columns position,routine | sed "s/^/$route\t/" >>"$tmp/a"
  done
  sort -n -k1,1 -k2,2 -s "$tmp/e" >"$tmp/e2"
  check "trace $inst: call stacks of routes" "$tmp/e2" "$tmp/a"

  # Routes of one routine (the detail of a routines row).
  r=$(expect "$S/aqtime-trace.expect.tsv" route $inst | head -1 | cut -f2)
  expect "$S/aqtime-trace.expect.tsv" route $inst | awk -F'\t' -v r="$r" '$2==r{print $1"\t"$3}' >"$tmp/e"
  cat_view "$T" --instance $inst --view call-routes --parent "$r" --columns id,hits >"$tmp/a"
  check "trace $inst: call-routes of routine $r" "$tmp/e" "$tmp/a"

  for kind in enter exit; do
    expect "$S/aqtime-trace.expect.tsv" param $inst | awk -F'\t' -v k=$kind 'BEGIN{OFS="\t"} $1==k{print $2,$3,$4}' >"$tmp/e"
    : >"$tmp/a"
    for call in $(cut -f1 <"$tmp/e" | sort -un); do
      cat_view "$T" --instance $inst --view parameters-on-$kind --parent "$call" \
        --columns param_no,value | sed "s/^/$call\t/" >>"$tmp/a"
    done
    sort -n -k1,1 -s "$tmp/e" >"$tmp/e2"
    check "trace $inst: parameters on $kind" "$tmp/e2" "$tmp/a"
  done

  expect "$S/aqtime-trace.expect.tsv" line $inst >"$tmp/e"
  cat_view "$T" --instance $inst --view lines --columns routine_id,line >"$tmp/a"
  check "trace $inst: meta lines" "$tmp/e" "$tmp/a"
  cat_view "$T" --instance $inst --view lines --parent 101 --columns routine_id,line >"$tmp/a"
  grep -P '^101\t' "$tmp/e" >"$tmp/e2"
  check "trace $inst: lines of routine 101" "$tmp/e2" "$tmp/a"

  # Callers of each routine: hit counts from the expected call tree.
  expect "$S/aqtime-trace.expect.tsv" call $inst >"$tmp/calls"
  expect "$S/aqtime-trace.expect.tsv" routine $inst >"$tmp/routines"
  while IFS=$'\t' read -r rid rname _; do
    # ENVIRON, not -v: awk -v would turn a name's "\t" into a tab.
    name="$rname" awk -F'\t' 'BEGIN{OFS="\t"; name=ENVIRON["name"]} {routine[$2]=$5; parent[$2]=$3; order[NR]=$2}
      END{for(i=1;i<=NR;i++){c=order[i]; if(routine[c]==name && parent[c]!=""){p=routine[parent[c]];
          if(!(p in n)){keys[++k]=p}; n[p]++}} for(i=1;i<=k;i++) print keys[i], n[keys[i]]}' \
      "$tmp/calls" | sort >"$tmp/e"
    cat_view "$T" --instance $inst --view callers --parent "$rid" --columns routine,hits | sort >"$tmp/a"
    check "trace $inst: callers of $rname" "$tmp/e" "$tmp/a"
  done <"$tmp/routines"
done
# Count counter (result set 2): min, max, avg (rounded) and calls per routine
# from the expected calls, exact because nothing is converted.
expect "$S/aqtime-trace.expect.tsv" call 2 >"$tmp/calls"
expect "$S/aqtime-trace.expect.tsv" routine 2 >"$tmp/routines"
awk -F'\t' 'BEGIN{OFS="\t"} NR==FNR {id[$2]=$1; next}
  {r=$5; n[r]++; s[r]+=$6; if(!(r in mn) || $6<mn[r]) mn[r]=$6; if(!(r in mx) || $6>mx[r]) mx[r]=$6}
  END{for(r in n) print id[r], n[r], mn[r], mx[r], int(s[r]/n[r]+0.5)}' \
  <(awk -F'\t' 'BEGIN{OFS="\t"}{print $1,$2}' "$tmp/routines") "$tmp/calls" | sort -n >"$tmp/e"
cat_view "$T" --instance 2 --view routines --columns id,calls,min_time,max_time,avg_time |
  awk -F'\t' '$2>0' | sort -n >"$tmp/a"
check "trace 2: calls, min, max, avg per routine" "$tmp/e" "$tmp/a"
[ "$(wc -l <"$tmp/e")" -ge 5 ] || { echo "FAIL: too few called routines in the sample"; fail=1; }

# Count counter (result set 2): callees' time is the summed time with children.
expect "$S/aqtime-trace.expect.tsv" call 2 >"$tmp/calls"
awk -F'\t' 'BEGIN{OFS="\t"} {routine[$2]=$5; parent[$2]=$3; wc[$2]=$7; order[NR]=$2}
  END{for(i=1;i<=NR;i++){c=order[i]; if(parent[c]!="" && routine[parent[c]]=="WinMain"){
      r=routine[c]; if(!(r in n)) keys[++k]=r; n[r]++; t[r]+=wc[c]}}
      for(i=1;i<=k;i++) print keys[i], n[keys[i]], t[keys[i]]}' "$tmp/calls" | sort >"$tmp/e"
cat_view "$T" --instance 2 --view callees --parent 100 --columns routine,hits,time | sort >"$tmp/a"
check "trace 2: callees of WinMain (hits, time)" "$tmp/e" "$tmp/a"
[ -s "$tmp/e" ] || { echo "FAIL: WinMain has no callees in the sample"; fail=1; }

# Counters: titles follow the counter; the time counter's columns are time.
"$PROFVIEW" info "$T" | grep -q "counter: Elapsed Time, machine cycles shown as time" || { echo "FAIL: counter note 1"; fail=1; }
"$PROFVIEW" info "$T" | grep -q "counter: CPU Cache Misses, shown as counts" || { echo "FAIL: counter note 2"; fail=1; }
"$PROFVIEW" info "$T" | grep -q "COL_ROUTINE_NAME -> FUNCTION_TRACE_PROFILER_META_ROUTINES.ID" || { echo "FAIL: key reading note"; fail=1; }

R=$S/aqtime-resource.db
for inst in 1 2; do
  expect "$S/aqtime-resource.expect.tsv" class $inst >"$tmp/e"
  cat_view "$R" --instance $inst --view classes \
    --columns id,class,live_count,live_size,peak_created,peak_size,total_created,total_size >"$tmp/a"
  check "resource $inst: classes" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-resource.expect.tsv" object $inst >"$tmp/e"
  cat_view "$R" --instance $inst --view objects --columns id,number,class,size,thread >"$tmp/a"
  check "resource $inst: objects" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-resource.expect.tsv" cstack $inst >"$tmp/e"
  : >"$tmp/a"
  for o in $(cut -f1 <"$tmp/e" | sort -un); do
    cat_view "$R" --instance $inst --view creation-call-stack --parent $o \
      --columns position,routine,line | sed "s/^/$o\t/" >>"$tmp/a"
  done
  check "resource $inst: creation call stacks" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-resource.expect.tsv" error $inst >"$tmp/e"
  cat_view "$R" --instance $inst --view errors --columns id,kind,name,thread >"$tmp/a"
  check "resource $inst: errors" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-resource.expect.tsv" estack $inst >"$tmp/e"
  : >"$tmp/a"
  for e in 1 2 3; do
    cat_view "$R" --instance $inst --view error-call-stack --parent $e \
      --columns position,routine | sed "s/^/$e\t/" >>"$tmp/a"
  done
  check "resource $inst: error call stacks" "$tmp/e" "$tmp/a"
  # Objects of a class (detail of classes): those whose class is that name.
  name=$(cat_view "$R" --instance $inst --view classes --columns class | head -1)
  expect "$S/aqtime-resource.expect.tsv" object $inst | awk -F'\t' -v n="$name" '$3==n{print $1}' >"$tmp/e"
  cat_view "$R" --instance $inst --view objects --parent 1 --columns id >"$tmp/a"
  check "resource $inst: objects of class 1" "$tmp/e" "$tmp/a"
done

C=$S/aqtime-refcount.db
for inst in 1 2; do
  expect "$S/aqtime-refcount.expect.tsv" object $inst >"$tmp/e"
  cat_view "$C" --instance $inst --view objects \
    --columns id,number,class,size,thread,live_references,peak_references,total_references >"$tmp/a"
  check "refcount $inst: objects" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-refcount.expect.tsv" ref $inst >"$tmp/e"
  cat_view "$C" --instance $inst --view references --columns id,object,number,kind >"$tmp/a"
  check "refcount $inst: all references" "$tmp/e" "$tmp/a"
  awk -F'\t' '$2==3' "$tmp/e" >"$tmp/e2"
  cat_view "$C" --instance $inst --view references --parent 3 --columns id,object,number,kind >"$tmp/a"
  check "refcount $inst: references of object 3" "$tmp/e2" "$tmp/a"
  expect "$S/aqtime-refcount.expect.tsv" astack $inst >"$tmp/e"
  : >"$tmp/a"
  for r in $(cut -f1 <"$tmp/e" | sort -un); do
    cat_view "$C" --instance $inst --view addref-release-call-stack --parent $r \
      --columns position,routine | sed "s/^/$r\t/" >>"$tmp/a"
  done
  check "refcount $inst: AddRef/Release call stacks" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-refcount.expect.tsv" tree $inst >"$tmp/e"
  : >"$tmp/a"
  for o in $(cut -f1 <"$tmp/e" | sort -un); do
    cat_view "$C" --instance $inst --view refcount-tree --parent $o \
      --columns id,parent,depth,routine,refcount_change | sed "s/^/$o\t/" >>"$tmp/a"
  done
  check "refcount $inst: ref-count call trees" "$tmp/e" "$tmp/a"
  expect "$S/aqtime-refcount.expect.tsv" cstack $inst >"$tmp/e"
  : >"$tmp/a"
  for o in $(cut -f1 <"$tmp/e" | sort -un); do
    cat_view "$C" --instance $inst --view creation-call-stack --parent $o \
      --columns position,routine,line | sed "s/^/$o\t/" >>"$tmp/a"
  done
  check "refcount $inst: creation call stacks (lines by result-set REC_ID)" "$tmp/e" "$tmp/a"
done

# The two result sets are never mixed: same ids, different rows.
a=$("$PROFVIEW" cat "$C" --instance 1 --view objects --columns class | md5sum)
b=$("$PROFVIEW" cat "$C" --instance 2 --view objects --columns class | md5sum)
[ "$a" != "$b" ] || { echo "FAIL: instances 1 and 2 show the same objects"; fail=1; }
"$PROFVIEW" cat "$C" --instance 3 --view objects >/dev/null 2>"$tmp/err" && { echo "FAIL: instance 3 exists"; fail=1; }
grep -q "no result set with INST_ID 3" "$tmp/err" || { echo "FAIL: instance 3 message"; cat "$tmp/err"; fail=1; }

# Opening never writes: same bytes, no journal beside the file.
cp "$T" "$tmp/ro.db"
chmod a-w "$tmp/ro.db"
sum=$(md5sum <"$tmp/ro.db")
"$PROFVIEW" info "$tmp/ro.db" >/dev/null
[ "$sum" = "$(md5sum <"$tmp/ro.db")" ] || { echo "FAIL: the database changed"; fail=1; }
[ -z "$(ls "$tmp" | grep -E 'ro\.db-(journal|wal|shm)')" ] || { echo "FAIL: journal files"; fail=1; }

exit $fail
