#!/usr/bin/env bash
# `profview sql` end to end (docs/sql.md): for every format, SQL results are
# compared with `profview cat` of the same view (whole views, counts, sums,
# filtered subsets, a join, detail functions, a second result set), the
# index use is asserted with EXPLAIN QUERY PLAN, and everything that could
# change something or reach outside the model is refused.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
S=$src/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name expected-file actual-file
  if ! cmp -s "$2" "$3"; then
    echo "FAIL: $1"
    diff "$2" "$3" | head -20
    fail=1
  fi
}
expect_eq() { # name expected actual
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1: expected '$2', got '$3'"
    fail=1
  fi
}

# 1. every view of every sample, every format: SELECT * is cat, byte for byte
samples=("$S"/aqtime-*.db "$S"/plist-*.txt "$S"/rtos.txt "$S"/rtos-ctx.txt "$S"/rtos-v10.txt
         "$S"/rtos-v11.txt)
views_checked=0
for f in "${samples[@]}"; do
  "$pv" sql "$f" "SELECT view FROM profview_tables WHERE schema = 'main' AND kind = 'table'" \
    >"$tmp/views"
  [ "$(wc -l <"$tmp/views")" -gt 2 ] || { echo "FAIL: $f: no views listed"; fail=1; }
  for v in $(tail -n +2 "$tmp/views"); do
    t=${v//-/_}
    "$pv" cat "$f" --view "$v" >"$tmp/cat"
    "$pv" sql "$f" "SELECT * FROM \"$t\"" >"$tmp/sql"
    check "$f: SELECT * FROM $t = cat --view $v" "$tmp/cat" "$tmp/sql"
    # the same in CSV and JSON
    "$pv" cat "$f" --view "$v" --format json >"$tmp/cat"
    "$pv" sql "$f" "SELECT * FROM \"$t\"" --format json >"$tmp/sql"
    check "$f: $t as JSON" "$tmp/cat" "$tmp/sql"
    views_checked=$((views_checked + 1))
  done
done
[ "$views_checked" -ge 40 ] || { echo "FAIL: only $views_checked views compared"; fail=1; }

# 2. counts, sums and a filtered subset against awk over cat
rtos=$S/rtos.txt
"$pv" cat "$rtos" --view timeline >"$tmp/timeline.tsv"
exp=$(awk -F'\t' 'NR > 1 { n++; s += $3; if ($8 == "E") e++ } END { printf "%d\t%d\t%d", n, s, e }' \
  "$tmp/timeline.tsv")
got=$("$pv" sql "$rtos" "SELECT count(*), sum(time), sum(event = 'E') FROM timeline" | tail -n +2)
expect_eq "timeline count, sum(time), entries" "$exp" "$got"

"$pv" cat "$rtos" --view timeline --from 100000 --to 2000000 --columns id,time,name >"$tmp/cat"
"$pv" sql "$rtos" "SELECT id, time, name FROM timeline WHERE time BETWEEN 100000 AND 2000000" \
  >"$tmp/sql"
check "time window = cat --from --to" "$tmp/cat" "$tmp/sql"
[ "$(wc -l <"$tmp/sql")" -gt 10 ] || { echo "FAIL: the time window is too small a test"; fail=1; }
"$pv" cat "$rtos" --view timeline --from 100001 --to 1999999 --columns id >"$tmp/cat"
"$pv" sql "$rtos" "SELECT id FROM timeline WHERE time > 100000 AND time < 2000000" >"$tmp/sql"
check "strict bounds" "$tmp/cat" "$tmp/sql"
"$pv" cat "$rtos" --view timeline --filter 'time >= 150001 && depth > 1' --columns id,depth \
  >"$tmp/cat"
"$pv" sql "$rtos" "SELECT id, depth FROM timeline WHERE time >= 150000.5 AND depth > 1" >"$tmp/sql"
check "a float bound and a condition on an unordered column" "$tmp/cat" "$tmp/sql"
"$pv" cat "$rtos" --view timeline --filter 'index >= 17 && index <= 40' --columns index,name \
  >"$tmp/cat"
"$pv" sql "$rtos" "SELECT \"index\", name FROM timeline WHERE rowid BETWEEN 17 AND 40" >"$tmp/sql"
check "rowid range is the row index" "$tmp/cat" "$tmp/sql"

# other time columns (a call's net time, its entry) are not taken for the
# row time: the same rows as awk finds (a tree's --filter keeps ancestors)
"$pv" cat "$rtos" --view call-trace --columns id,time,entry_time |
  awk -F'\t' 'NR == 1 { print "id"; next } $2 >= 300 && $2 <= 2000 && $3 > 100000 { print $1 }' \
  >"$tmp/cat"
"$pv" sql "$rtos" "SELECT id FROM call_trace WHERE time BETWEEN 300 AND 2000 AND entry_time > 100000" \
  >"$tmp/sql"
check "call_trace: time and entry_time conditions" "$tmp/cat" "$tmp/sql"
[ "$(wc -l <"$tmp/sql")" -gt 5 ] || { echo "FAIL: call_trace test too small"; fail=1; }

plist=$S/plist-func-timing.txt
"$pv" cat "$plist" --view routines --filter 'hits > 5' --sort hits:desc --columns routine,hits \
  >"$tmp/cat"
"$pv" sql "$plist" "SELECT routine, hits FROM routines WHERE hits > 5 ORDER BY hits DESC" \
  >"$tmp/sql"
check "plist: filtered, sorted subset" "$tmp/cat" "$tmp/sql"

# 2b. every format (BIN, AQTime trace, AQTime allocation, PLIST lines):
# count and sum of a column, a filtered subset, a join and a detail function
# against cat of the same views
col_of() { # TSV-FILE COLUMN-ID: the column's number
  head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1
}
while IFS='|' read -r f view num k join_view join_key other other_key detail; do
  f=$S/$f
  "$pv" cat "$f" --view "$view" >"$tmp/v.tsv"
  c=$(col_of "$tmp/v.tsv" "$num")
  exp=$(awk -F'\t' -v c="$c" 'NR > 1 { n++; s += $c } END { printf "%d\t%d", n, s }' "$tmp/v.tsv")
  got=$("$pv" sql "$f" "SELECT count(*), sum($num) FROM $view" | tail -n +2)
  expect_eq "$f: count and sum($num) of $view" "$exp" "$got"
  "$pv" cat "$f" --view "$view" --filter "$num > $k" --columns id,"$num" >"$tmp/cat"
  "$pv" sql "$f" "SELECT id, $num FROM $view WHERE $num > $k" >"$tmp/sql"
  check "$f: $view where $num > $k" "$tmp/cat" "$tmp/sql"
  [ "$(wc -l <"$tmp/sql")" -gt 2 ] || { echo "FAIL: $f: $view where $num > $k: too few rows"; fail=1; }
  if [ -n "$join_view" ]; then
    "$pv" cat "$f" --view "${join_view//_/-}" >"$tmp/j.tsv"
    c=$(col_of "$tmp/j.tsv" "$join_key")
    awk -F'\t' -v c="$c" 'NR > 1 { n[$c]++ } END { for (r in n) print r "\t" n[r] }' "$tmp/j.tsv" \
      | LC_ALL=C sort >"$tmp/exp"
    "$pv" sql "$f" "SELECT o.$other_key, count(*) FROM $join_view j JOIN $other o
      ON j.$join_key = o.$other_key GROUP BY o.$other_key ORDER BY o.$other_key" | tail -n +2 \
      >"$tmp/sql"
    check "$f: $join_view joined with $other" "$tmp/exp" "$tmp/sql"
    [ -s "$tmp/sql" ] || { echo "FAIL: $f: empty join"; fail=1; }
  fi
  if [ -n "$detail" ]; then
    id=$("$pv" sql "$f" "SELECT min(id) FROM $view" | tail -n +2)
    "$pv" cat "$f" --view "${detail//_/-}" --parent "$id" >"$tmp/cat"
    "$pv" sql "$f" "SELECT * FROM $detail($id)" >"$tmp/sql"
    check "$f: $detail($id)" "$tmp/cat" "$tmp/sql"
    [ "$(wc -l <"$tmp/sql")" -gt 1 ] || { echo "FAIL: $f: $detail($id) is empty"; fail=1; }
  fi
done <<'CASES'
rtos-v11.txt|routines|hits|5|call_trace|routine|routines|routine|callees
aqtime-trace.db|routines|hits|1|call_trace|routine|routines|routine|callees
aqtime-resource.db|objects|size|100|objects|class|classes|class|creation_call_stack
plist-line-count.txt|lines|hits|1000||||||
CASES

# 3. a join between views: calls per routine from call_trace, against awk
"$pv" cat "$plist" --view call-trace >"$tmp/calls.tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n[$(c["routine"])]++ }
  END { for (r in n) print r "\t" n[r] }' "$tmp/calls.tsv" | LC_ALL=C sort >"$tmp/exp"
"$pv" sql "$plist" "SELECT r.routine, count(*) FROM call_trace c JOIN routines r
  ON c.routine = r.routine GROUP BY r.routine ORDER BY r.routine" | tail -n +2 >"$tmp/sql"
check "join call_trace with routines" "$tmp/exp" "$tmp/sql"
[ -s "$tmp/sql" ] || { echo "FAIL: empty join"; fail=1; }

# 4. detail views as table-valued functions
for id in 1 3; do
  "$pv" cat "$plist" --view callers --parent "$id" >"$tmp/cat"
  "$pv" sql "$plist" "SELECT * FROM callers($id)" >"$tmp/sql"
  check "plist: callers($id)" "$tmp/cat" "$tmp/sql"
done
trace=$S/aqtime-trace.db
"$pv" cat "$trace" --view call-stack --parent 5 --instance 2 >"$tmp/cat"
"$pv" sql "$trace" "SELECT * FROM call_stack(5, 2)" >"$tmp/sql"
check "aqtime: call_stack(5) of result set 2" "$tmp/cat" "$tmp/sql"
"$pv" cat "$rtos" --view call-stack-at --parent 1500 >"$tmp/cat"
"$pv" sql "$rtos" "SELECT * FROM call_stack_at(1500)" >"$tmp/sql"
check "winidea: call_stack_at(1500)" "$tmp/cat" "$tmp/sql"
[ "$(wc -l <"$tmp/sql")" -gt 1 ] || { echo "FAIL: call_stack_at(1500) is empty"; fail=1; }
# a detail of two views (winIDEA's value-history of statistics and data
# rows, whose ids differ): value_history(id) takes the first view's ids, as
# cat --parent; VIEW_DETAIL(id) takes that view's
sid=$("$pv" sql "$rtos" "SELECT min(id) FROM statistics WHERE type <> 'function' AND type <> 'line'" | tail -n +2)
"$pv" cat "$rtos" --view value-history --parent "$sid" >"$tmp/cat"
"$pv" sql "$rtos" "SELECT * FROM value_history($sid)" >"$tmp/sql"
check "winidea: value_history($sid) = cat --parent $sid" "$tmp/cat" "$tmp/sql"
"$pv" sql "$rtos" "SELECT * FROM statistics_value_history($sid)" >"$tmp/sql"
check "winidea: statistics_value_history($sid)" "$tmp/cat" "$tmp/sql"
[ "$(wc -l <"$tmp/sql")" -gt 2 ] || { echo "FAIL: value_history($sid) is empty"; fail=1; }
got=$("$pv" sql "$rtos" "SELECT count(*), sum(d.count = (SELECT count(*) FROM
  data_value_history(d.id))), sum(d.id IN (SELECT id FROM statistics)) FROM data d" | tail -n +2)
n=$("$pv" sql "$rtos" "SELECT count(*) FROM data" | tail -n +2)
expect_eq "data_value_history(id): a write per row of every data row" "$n	$n	$n" "$got"
fid=$("$pv" sql "$rtos" "SELECT min(id) FROM statistics WHERE type = 'function'" | tail -n +2)
got=$("$pv" sql "$rtos" "SELECT count(*) FROM value_history($fid)" | tail -n +2)
expect_eq "value_history of a function's statistics row: none" "0" "$got"

# a detail joined with its owner: callers of every routine, counted
exp=$(for id in $("$pv" cat "$plist" --view routines --columns id | tail -n +2); do
  "$pv" cat "$plist" --view callers --parent "$id" | tail -n +2; done | wc -l)
got=$("$pv" sql "$plist" "SELECT count(*) FROM routines r, callers(r.id) c" | tail -n +2)
expect_eq "callers of every routine" "$exp" "$got"

# 5. result sets: schemas r1, r2, ...; main is r1; several files
"$pv" cat "$trace" --instance 2 --view routines >"$tmp/cat"
"$pv" sql "$trace" "SELECT * FROM r2.routines" >"$tmp/sql"
check "aqtime: r2.routines = cat --instance 2" "$tmp/cat" "$tmp/sql"
"$pv" cat "$trace" --view routines >"$tmp/cat"
"$pv" sql "$trace" "SELECT * FROM r1.routines" >"$tmp/sql"
check "aqtime: r1.routines = the first result set" "$tmp/cat" "$tmp/sql"
got=$("$pv" sql "$plist" "$rtos" "SELECT (SELECT count(*) FROM r1.routines) || ' ' ||
  (SELECT count(*) FROM r2.timeline)" | tail -n +2)
exp="$(($("$pv" cat "$plist" --view routines | wc -l) - 1)) $(($(wc -l <"$tmp/timeline.tsv") - 1))"
expect_eq "two files: r1 and r2" "$exp" "$got"
got=$("$pv" sql "$plist" "$rtos" "SELECT group_concat(schema || ':' || format, ' ') FROM profview_sets" \
  | tail -n +2)
expect_eq "profview_sets" "r1:plist r2:winidea-text1" "$got"

# 5b. more result sets than SQLite attaches (10 here): rK_VIEW in main for
# every K (and the same table as rK.VIEW where that exists), no warning
many=$tmp/sets14.db
"${PV_BUILD_DIR:?}/pv_gen_aqtime" --scale sets 14 "$many" >/dev/null
"$pv" sql "$many" "SELECT count(*) FROM profview_sets" >"$tmp/sql" 2>"$tmp/err"
expect_eq "14 result sets listed" "count(*)
14" "$(cat "$tmp/sql")"
[ ! -s "$tmp/err" ] || { echo "FAIL: warnings with 14 result sets"; cat "$tmp/err"; fail=1; }
ids=$("$pv" sql "$many" "SELECT result_set FROM profview_sets" | tail -n +2)
k=0
for id in $ids; do
  k=$((k + 1))
  "$pv" cat "$many" --instance "$id" --view routines >"$tmp/cat"
  "$pv" sql "$many" "SELECT * FROM r${k}_routines" >"$tmp/sql"
  check "r${k}_routines = cat --instance $id" "$tmp/cat" "$tmp/sql"
done
expect_eq "all 14 compared" 14 "$k"
id14=$(echo $ids | awk '{ print $14 }')
"$pv" cat "$many" --instance "$id14" --view callers --parent 101 >"$tmp/cat"
"$pv" sql "$many" "SELECT * FROM callers(101, 14)" >"$tmp/sql"
check "callers(101, 14) = cat --instance $id14" "$tmp/cat" "$tmp/sql"
got=$("$pv" sql "$many" "SELECT (SELECT group_concat(time) FROM r12_routines) =
  (SELECT group_concat(time) FROM \"R12_ROUTINES\"), (SELECT count(*) FROM r3.routines
  JOIN r13_routines USING (routine))" | tail -n +2)
expect_eq "r12_ quoted and in capitals; a join of r3. and r13_" "1	2" "$got"
[ "$(wc -l <"$tmp/sql")" -ge 2 ] || { echo "FAIL: callers(101, 14) is empty"; fail=1; }
# past the limit (SQLITE_MAX_ATTACHED: 10 in Debian's SQLite) a set has no
# schema: profview_sets says `rK_`
limit=$("$pv" sql "$many" "PRAGMA database_list" | awk -F'\t' '$2 ~ /^r[0-9]+$/' | wc -l)
got=$("$pv" sql "$many" "SELECT group_concat(schema, ' ') FROM profview_sets" | tail -n +2)
exp=$(for i in $(seq 1 14); do if [ "$i" -le "$limit" ]; then printf 'r%d ' "$i"; \
  else printf 'r%d_ ' "$i"; fi; done)
expect_eq "schemas r1 .. r$limit, then rK_" "${exp% }" "$got"

# 6. handles stay integers, with a <col>_hex companion written like cat
got=$("$pv" sql "$rtos" "SELECT handle + 0, handle_hex, handle FROM timeline WHERE rowid = 2" \
  | tail -n +2)
h=$(awk -F'\t' 'NR == 4 { print $6 }' "$tmp/timeline.tsv")
expect_eq "handle arithmetic and handle_hex" "$((h))	$h	$h" "$got"

# 7. the plans: binary search on the time column and on rowid, a scan otherwise
"$pv" sql "$rtos" "EXPLAIN QUERY PLAN SELECT count(*) FROM timeline WHERE time BETWEEN 1 AND 2" \
  >"$tmp/plan"
grep -q 'binary search on time' "$tmp/plan" || { echo "FAIL: time range scans"; cat "$tmp/plan"; fail=1; }
"$pv" sql "$rtos" "EXPLAIN QUERY PLAN SELECT * FROM timeline WHERE rowid = 7" >"$tmp/plan"
grep -q 'binary search on rowid' "$tmp/plan" || { echo "FAIL: rowid scans"; fail=1; }
"$pv" sql "$rtos" "EXPLAIN QUERY PLAN SELECT * FROM timeline WHERE depth = 1" >"$tmp/plan"
if grep -q 'binary search' "$tmp/plan"; then echo "FAIL: depth is not ordered"; fail=1; fi
"$pv" sql "$rtos" "EXPLAIN QUERY PLAN SELECT * FROM timeline ORDER BY time" >"$tmp/plan"
if grep -q 'TEMP B-TREE' "$tmp/plan"; then echo "FAIL: ORDER BY time sorts again"; fail=1; fi
# context equality visits one context's rows; GROUP BY context does not sort
"$pv" sql "$rtos" "EXPLAIN QUERY PLAN SELECT count(*) FROM timeline WHERE context = 'ID_TASK_FAST'" \
  >"$tmp/plan"
grep -q 'rows of one context' "$tmp/plan" || { echo "FAIL: context = x scans"; cat "$tmp/plan"; fail=1; }
"$pv" sql "$rtos" "EXPLAIN QUERY PLAN SELECT context, count(*) FROM timeline GROUP BY context" \
  >"$tmp/plan"
grep -q 'grouped by context' "$tmp/plan" || { echo "FAIL: GROUP BY context"; cat "$tmp/plan"; fail=1; }
if grep -q 'TEMP B-TREE' "$tmp/plan"; then echo "FAIL: GROUP BY context sorts"; fail=1; fi
# ... and their results are those of cat: per context (none first), and one context's rows
awk -F'\t' 'NR > 1 { n[$4]++; d[$4] += $10 } END { for (c in n) print c "\t" n[c] "\t" d[c] }' \
  "$tmp/timeline.tsv" | LC_ALL=C sort >"$tmp/exp"
"$pv" sql "$rtos" "SELECT context, count(*), sum(depth) FROM timeline GROUP BY context" \
  | tail -n +2 >"$tmp/sql"
check "GROUP BY context = awk over cat" "$tmp/exp" "$tmp/sql"
[ "$(wc -l <"$tmp/sql")" -ge 5 ] || { echo "FAIL: too few contexts"; fail=1; }
"$pv" cat "$rtos" --view timeline --filter 'context == "ID_TASK_COMM"' --columns id,name >"$tmp/cat"
"$pv" sql "$rtos" "SELECT id, name FROM timeline WHERE context = 'ID_TASK_COMM'" >"$tmp/sql"
check "context = x: the rows of cat --filter" "$tmp/cat" "$tmp/sql"
[ "$(wc -l <"$tmp/sql")" -gt 100 ] || { echo "FAIL: context subset too small"; fail=1; }

# 8. refused: writes, ATTACH, extensions, pragmas that change things, two statements
refused() { # name query message-pattern
  if "$pv" sql "$plist" "$2" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL: $1 was accepted"; fail=1; return
  fi
  local rc=0
  "$pv" sql "$plist" "$2" >/dev/null 2>&1 || rc=$?
  expect_eq "$1: exit status" 2 "$rc"
  grep -q "$3" "$tmp/err" || { echo "FAIL: $1: message"; cat "$tmp/err"; fail=1; }
  [ ! -s "$tmp/out" ] || { echo "FAIL: $1 printed rows"; fail=1; }
}
refused "INSERT" "INSERT INTO routines(id) VALUES (1)" "not authorized"
refused "DELETE" "DELETE FROM routines" "may not be modified"
refused "CREATE" "CREATE TEMP TABLE t(x)" "not authorized"
refused "DROP" "DROP TABLE routines" "not authorized"
refused "ATTACH" "ATTACH '$tmp/new.db' AS x" "not authorized"
refused "DETACH" "DETACH r1" "not authorized"
refused "load_extension" "SELECT load_extension('$tmp/x.so')" "load_extension"
refused "PRAGMA writes" "PRAGMA writable_schema = 1" "not authorized"
refused "two statements" "SELECT 1; DELETE FROM routines" "one statement"
[ ! -e "$tmp/new.db" ] || { echo "FAIL: ATTACH created a file"; fail=1; }
"$pv" sql "$plist" "PRAGMA table_info(routines)" | grep -q '	hits	' ||
  { echo "FAIL: PRAGMA table_info (reading) is refused"; fail=1; }
# the reading pragmas as table-valued functions too; the others refused
[ "$("$pv" sql "$plist" "SELECT name FROM pragma_table_info('routines') WHERE name = 'hits'")" = \
  "$(printf 'name\nhits')" ] || { echo "FAIL: pragma_table_info() is refused"; fail=1; }
"$pv" sql "$plist" "SELECT name FROM pragma_database_list" | grep -qx 'r1' ||
  { echo "FAIL: pragma_database_list is refused"; fail=1; }
refused "pragma_user_version" "SELECT * FROM pragma_user_version" "not authorized"
refused "pragma_writable_schema" "SELECT * FROM pragma_writable_schema" "not authorized"

# 9. a bad query: SQLite's message, the place, exit 2
rc=0
"$pv" sql "$plist" "SELECT routine FRM routines" >"$tmp/out" 2>"$tmp/err" || rc=$?
expect_eq "bad query: exit status" 2 "$rc"
grep -q 'near "routines": syntax error (at byte 19)' "$tmp/err" ||
  { echo "FAIL: bad query message"; cat "$tmp/err"; fail=1; }
grep -qx "$(printf '%21s^' '')" "$tmp/err" || { echo "FAIL: no caret under byte 19"; cat "$tmp/err"; fail=1; }
rc=0
"$pv" sql "$plist" "SELECT nope FROM routines" 2>"$tmp/err" >/dev/null || rc=$?
expect_eq "unknown column: exit status" 2 "$rc"
grep -q 'no such column: nope' "$tmp/err" || { echo "FAIL: unknown column message"; fail=1; }
rc=0
"$pv" sql "$plist" 2>/dev/null || rc=$?
expect_eq "no query: usage" 1 "$rc"

exit "$fail"
