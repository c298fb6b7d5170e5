#!/usr/bin/env bash
# Windowed, context- and area-restricted Text1 exports, export profiles,
# and AQTime subsets whose references all resolve (docs/export.md).
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
stats=handle,type,name,value,context,count,net,net_min,net_max,net_avg,gross,gross_min,gross_max,gross_avg,call,call_min,call_max,call_avg,period_min,period_max,period_avg,outside,outside_min,outside_max,outside_avg

# 1. windows: exactly the events with from <= time <= to, in file order;
#    STATISTICS equal to `cat --view statistics --from --to` on the source
#    (no Neutral block: the source had none); TOTAL_TIME of the window
for w in "50us 200us" "0 30us" "300us 400us" "123456 123456"; do
  set -- $w
  out=$tmp/w-$1-$2.txt
  "$pv" export "$src/rtos.txt" --format text1 --from "$1" --to "$2" -o "$out"
  from=$("$pv" cat "$src/rtos.txt" --view summary --from "$1" --to "$2" | awk -F'\t' '$2=="window from"{print $3}')
  to=$("$pv" cat "$src/rtos.txt" --view summary --from "$1" --to "$2" | awk -F'\t' '$2=="window to"{print $3}')
  cmp <("$pv" cat "$src/rtos.txt" --view statistics --from "$1" --to "$2" --columns "$stats" | grep -v -P '\tNeutral\t' | sort) \
      <("$pv" cat "$out" --view statistics-exported --columns "$stats" | sort) ||
    { echo "FAIL: window $1..$2: STATISTICS differ from cat --view statistics"; fail=1; }
  cmp <("$pv" cat "$src/rtos.txt" --view timeline --columns time,handle,event,value | awk -F'\t' -v a="$from" -v b="$to" 'NR==1 || ($1 >= a && $1 <= b)') \
      <("$pv" cat "$out" --view timeline --columns time,handle,event,value) ||
    { echo "FAIL: window $1..$2: events differ"; fail=1; }
  last=$(awk -F'\t' 'NR>1{t=$1} END{print t}' <("$pv" cat "$src/rtos.txt" --view timeline --columns time))
  [ "$to" -le "$last" ] || to=$last
  [ "$(sed -n 2p "$out" | cut -d, -f1)" = "$((to - from))" ] ||
    { echo "FAIL: window $1..$2: TOTAL_TIME $(sed -n 2p "$out") != $((to - from))"; fail=1; }
  # the window itself goes in INFO (docs/export.md "Windows")
  [ "$(sed -n 1p "$out")" = '* INFO %TOTAL_TIME%,%WINDOW.FROM%,%WINDOW.TO%' ] ||
    { echo "FAIL: window $1..$2: INFO header $(sed -n 1p "$out")"; fail=1; }
done

# 2. a context: reloads with the same contexts, and that context's
#    statistics are those of the source
for ctx in ID_TASK_FAST ID_TASK_COMM; do
  "$pv" export "$src/rtos.txt" --format text1 --context "$ctx" -o "$tmp/$ctx.txt"
  cmp <("$pv" cat "$src/rtos.txt" --view contexts --columns id,handle,name) \
      <("$pv" cat "$tmp/$ctx.txt" --view contexts --columns id,handle,name) ||
    { echo "FAIL: --context $ctx: contexts differ on reload"; fail=1; }
  cmp <("$pv" cat "$src/rtos.txt" --view statistics --columns "$stats" --filter "context = \"$ctx\"") \
      <("$pv" cat "$tmp/$ctx.txt" --view statistics --columns "$stats" --filter "context = \"$ctx\"") ||
    { echo "FAIL: --context $ctx: statistics differ"; fail=1; }
  # nothing of the other contexts' functions
  n=$("$pv" cat "$tmp/$ctx.txt" --view timeline --filter "type = function && context != \"$ctx\"" | wc -l)
  [ "$n" -eq 1 ] || { echo "FAIL: --context $ctx: $((n - 1)) events of other contexts"; fail=1; }
done

# 3. areas: the matching areas, their lines and states, and the context
#    area; same contexts and same statistics for the kept areas
"$pv" export "$src/rtos.txt" --format text1 --areas 'Task_*' -o "$tmp/areas.txt"
cmp <("$pv" cat "$src/rtos.txt" --view contexts --columns id,handle,name) \
    <("$pv" cat "$tmp/areas.txt" --view contexts --columns id,handle,name) ||
  { echo "FAIL: --areas: contexts differ on reload"; fail=1; }
"$pv" cat "$src/rtos.txt" --view lines --columns name,function | awk -F'\t' 'NR>1 && $2 ~ /^Task_/' | sort >"$tmp/lines.exp"
"$pv" cat "$tmp/areas.txt" --view lines --columns name,function | awk -F'\t' 'NR>1' | sort >"$tmp/lines.got"
cmp "$tmp/lines.exp" "$tmp/lines.got" || { echo "FAIL: --areas: the functions' lines"; fail=1; }
cmp <("$pv" cat "$src/rtos.txt" --view statistics --columns "$stats" --filter 'name like "Task_*"') \
    <("$pv" cat "$tmp/areas.txt" --view statistics --columns "$stats" --filter 'name like "Task_*"') ||
  { echo "FAIL: --areas: statistics of the kept areas differ"; fail=1; }
n=$("$pv" cat "$tmp/areas.txt" --view timeline --filter 'type = function && !(name like "Task_*")' | wc -l)
[ "$n" -eq 1 ] || { echo "FAIL: --areas: $((n - 1)) events of other functions"; fail=1; }
"$pv" export "$src/rtos.txt" --format text1 --areas '"Test.c"##s_eMode' -o "$tmp/state.txt"
"$pv" cat "$tmp/state.txt" --view statistics --columns name,type | grep -q $'\tstate' ||
  { echo "FAIL: --areas on a variable drops its states"; fail=1; }

# 4. an export profile sets the macros of each section
cat >"$tmp/profile.yaml" <<'YAML'
statistics: "%HANDLE%;%COUNT%;%T.NET%"
timeline: "%TIME%;%HANDLE%;%EVENT%;%VALUE%"
YAML
"$pv" export "$src/rtos.txt" --format text1 --profile "$tmp/profile.yaml" -o "$tmp/prof.txt"
grep -qx '\* TIMELINE %TIME%;%HANDLE%;%EVENT%;%VALUE%' "$tmp/prof.txt" || { echo "FAIL: profile timeline header"; fail=1; }
cmp <("$pv" cat "$src/rtos.txt" --view timeline) <("$pv" cat "$tmp/prof.txt" --view timeline) ||
  { echo "FAIL: profile: timeline differs on reload"; fail=1; }
cmp <("$pv" cat "$src/rtos.txt" --view statistics --columns handle,context,count,net | grep -v Neutral | sort) \
    <("$pv" cat "$tmp/prof.txt" --view statistics-exported --columns handle,context,count,net | sort) ||
  { echo "FAIL: profile: statistics"; fail=1; }
printf 'timeline: [a, b]\n' >"$tmp/bad.yaml"
set +e
"$pv" export "$src/rtos.txt" --format text1 --profile "$tmp/bad.yaml" -o "$tmp/bad.txt" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'bad.yaml:1' "$tmp/err" && [ ! -e "$tmp/bad.txt" ] ||
  { echo "FAIL: a bad profile: exit $rc, $(cat "$tmp/err")"; fail=1; }

# 5. AQTime subsets: every reference resolves (checked with SQL)
check_refs() { # db
  local q
  while IFS='|' read -r child col parent key; do
    q="SELECT count(*) FROM $child c WHERE c.$col >= 0 AND NOT EXISTS (SELECT 1 FROM $parent p WHERE p.INST_ID = c.INST_ID AND p.$key = c.$col)"
    n=$(sqlite3 "$1" "$q" 2>/dev/null || echo 0)
    [ "$n" = 0 ] || { echo "FAIL: $1: $n rows of $child.$col do not resolve in $parent.$key"; fail=1; }
  done <<'REFS'
FUNCTION_TRACE_PROFILER_CALL_TRACE|PARENT_ID|FUNCTION_TRACE_PROFILER_THREADS|ID
FUNCTION_TRACE_PROFILER_CALL_TRACE|COL_ROUTINE_NAME|FUNCTION_TRACE_PROFILER_META_ROUTINES|ID
FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER|PARENT_ID|FUNCTION_TRACE_PROFILER_CALL_TRACE|ID
FUNCTION_TRACE_PROFILER_PARAMETERS_ON_EXIT|PARENT_ID|FUNCTION_TRACE_PROFILER_CALL_TRACE|ID
FUNCTION_TRACE_PROFILER_CALL_ROUTES|PARENT_ID|FUNCTION_TRACE_PROFILER_ROUTINES|ID
FUNCTION_TRACE_PROFILER_CALL_ROUTES|COL_RECID|FUNCTION_TRACE_PROFILER_META_ROUTINES|ID
FUNCTION_TRACE_PROFILER_CALL_STACK|PARENT_ID|FUNCTION_TRACE_PROFILER_CALL_ROUTES|ID
FUNCTION_TRACE_PROFILER_CALL_STACK|COL_ROUTINE_NAME|FUNCTION_TRACE_PROFILER_META_ROUTINES|ID
FUNCTION_TRACE_PROFILER_ROUTINES|REC_ID|FUNCTION_TRACE_PROFILER_META_ROUTINES|ID
FUNCTION_TRACE_PROFILER_META_LINES|PARENT_ID|FUNCTION_TRACE_PROFILER_META_ROUTINES|ID
RESOURCE_PROFILER_CREATION_CALL_STACK|PARENT_ID|RESOURCE_PROFILER_OBJECTS|ID
RESOURCE_PROFILER_CALL_STACK|PARENT_ID|RESOURCE_PROFILER_ERRORS|ID
RESOURCE_PROFILER_META_LINES|PARENT_ID|RESOURCE_PROFILER_META_ROUTINES|ID
REFERENCE_COUNT_PROFILER_REFERENCES|PARENT_ID|REFERENCE_COUNT_PROFILER_OBJECTS|ID
REFERENCE_COUNT_PROFILER_ADDREF_RELEASE_CALL_STACK|PARENT_ID|REFERENCE_COUNT_PROFILER_REFERENCES|ID
REFERENCE_COUNT_PROFILER_CREATION_CALL_STACK|PARENT_ID|REFERENCE_COUNT_PROFILER_OBJECTS|ID
REFERENCE_COUNT_PROFILER_REFCOUNT_TREE|PARENT_ID|REFERENCE_COUNT_PROFILER_OBJECTS|ID
REFERENCE_COUNT_PROFILER_META_LINES|PARENT_ID|REFERENCE_COUNT_PROFILER_META_ROUTINES|ID
REFS
  # parent calls up to the root: COL_PARENT_NO is the parent's REC_ID in the same thread
  n=$(sqlite3 "$1" "SELECT count(*) FROM FUNCTION_TRACE_PROFILER_CALL_TRACE c WHERE c.COL_PARENT_NO >= 0 AND NOT EXISTS (SELECT 1 FROM FUNCTION_TRACE_PROFILER_CALL_TRACE p WHERE p.INST_ID = c.INST_ID AND p.PARENT_ID = c.PARENT_ID AND p.REC_ID = c.COL_PARENT_NO)" 2>/dev/null || echo 0)
  [ "$n" = 0 ] || { echo "FAIL: $1: $n calls without their parent"; fail=1; }
}
while IFS='|' read -r db inst view filter; do
  out=$tmp/sub-$inst-$view.db
  rm -f "$out"
  "$pv" export "$src/$db" --format sqlite --instance "$inst" --view "$view" --filter "$filter" -o "$out"
  check_refs "$out"
  # the kept rows themselves: what cat prints with the same filter
  cmp <("$pv" cat "$src/$db" --instance "$inst" --view "$view" --filter "$filter" --columns id) \
      <("$pv" cat "$out" --instance "$inst" --view "$view" --filter "$filter" --columns id) ||
    { echo "FAIL: $db $view '$filter': kept rows differ"; fail=1; }
  [ "$("$pv" cat "$out" --instance "$inst" --view "$view" --filter "$filter" | wc -l)" -gt 1 ] ||
    { echo "FAIL: $db $view '$filter': nothing kept"; fail=1; }
done <<'SUBSETS'
aqtime-trace.db|1|call-trace|routine = "operator<<(std::ostream&, int)"
aqtime-trace.db|1|routines|routine ~ /^(fib|qsort_r)$/
aqtime-trace.db|2|call-trace|depth >= 2
aqtime-resource.db|1|objects|size > 100
aqtime-resource.db|1|errors|kind = Error
aqtime-refcount.db|1|objects|id = 1
aqtime-refcount.db|2|references|kind = AddRef
SUBSETS
exit $fail
