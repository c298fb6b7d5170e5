#!/usr/bin/env bash
# Bad AQTime databases, built here with the sqlite3 shell: missing tables and
# columns, NULLs, text where numbers belong, parent loops, case-changed names,
# extra columns, -1 booleans, a corrupted and a truncated file, a file that is
# no database.  Each gets a clear message (file, table, row) and, where the
# rest is usable, a partial load; never a crash or a hang.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
command -v sqlite3 >/dev/null || { echo "sqlite3 shell not installed: skipped"; exit 0; }
S=$PV_SOURCE_DIR/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# run NAME ARGS...: runs profview with a time limit; stores out/err/rc.
run() {
  local name=$1
  shift
  set +e
  timeout 20 "$PROFVIEW" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  rc=$?
  set -e
  [ $rc -lt 124 ] || bad "$name: profview crashed or hung (status $rc)"
}

INST="CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT, COUNTER_DESCRIPTION TEXT, COUNTER_FREQUENCY NUMERIC, COUNTER_NAME TEXT);
INSERT INTO INSTANCES VALUES (1, 'bad one', 'Elapsed Time', 3, 'Time');"
TRACE="CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE (COL__S INTEGER, COL__S_WITH_CHILDREN INTEGER, COL_CALL_NO INTEGER, COL_PARENT_NO INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);"

# 1. Only INSTANCES and CALL_TRACE: the missing tables are named, the calls load.
sqlite3 "$tmp/missing.db" "$INST $TRACE
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (3, 6, 1, -1, 0, 1, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (3, 3, 2, 0, 0, 2, 1, 0, 1);"
run missing info "$tmp/missing.db"
[ $rc -eq 0 ] || bad "missing tables: status $rc"
grep -q "table FUNCTION_TRACE_PROFILER_META_ROUTINES is missing" "$tmp/missing.out" || bad "missing tables: no message"
run missing_cat cat "$tmp/missing.db" --view call-trace --columns id,parent,depth,time,time_with_children
printf 'id\tparent\tdepth\ttime\ttime_with_children\n1\t\t0\t1000000000\t2000000000\n2\t1\t1\t1000000000\t1000000000\n' >"$tmp/e"
diff -u "$tmp/e" "$tmp/missing_cat.out" || bad "missing tables: call trace"

# 2. A missing column, NULLs, text where a number belongs, an extra column,
#    lower-case names (tables and columns are found case-insensitively).
sqlite3 "$tmp/cols.db" "$INST
CREATE TABLE function_trace_profiler_call_trace (col__s INTEGER, COL_CALL_NO INTEGER, COL_PARENT_NO INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER, COL_FOO_BAR TEXT);
INSERT INTO function_trace_profiler_call_trace VALUES (6, 1, -1, 0, 1, 1, 0, 0, 'x');
INSERT INTO function_trace_profiler_call_trace VALUES ('abc', 2, 0, 0, 2, 1, 0, 1, NULL);
INSERT INTO function_trace_profiler_call_trace VALUES (NULL, 3, 0, NULL, 3, 1, 0, 2, 'z');
INSERT INTO function_trace_profiler_call_trace VALUES (' 9 ', 4, 0, 0, 4, NULL, 0, 3, 'w');"
run cols info "$tmp/cols.db"
[ $rc -eq 0 ] || bad "columns: status $rc"
grep -q "table function_trace_profiler_call_trace row 2 (ID 2): column col__s: 'abc' is not a number" "$tmp/cols.out" \
  || { bad "columns: no message naming table, row and column"; cat "$tmp/cols.out"; }
grep -q "1 rows have no usable INST_ID (first: row 4)" "$tmp/cols.out" || bad "columns: NULL INST_ID not reported"
run cols_cat cat "$tmp/cols.db" --view call-trace --columns id,time,time_with_children,foo_bar
printf 'id\ttime\ttime_with_children\tfoo_bar\n1\t2000000000\t\tx\n2\t\t\t\n3\t\t\tz\n' >"$tmp/e"
diff -u "$tmp/e" "$tmp/cols_cat.out" || bad "columns: cells"

# 3. Parent loops: broken with a warning, every call still shown once.
sqlite3 "$tmp/loop.db" "$INST $TRACE
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 1, -1, 0, 1, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 2, 2, 0, 2, 1, 0, 1);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 3, 1, 0, 3, 1, 0, 2);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 4, 3, 0, 4, 1, 0, 3);"
run loop info "$tmp/loop.db"
grep -q "COL_PARENT_NO chain loops" "$tmp/loop.out" || bad "loop: no warning"
run loop_cat cat "$tmp/loop.db" --view call-trace --columns id,parent,depth
[ "$(tail -n +2 "$tmp/loop_cat.out" | cut -f1 | sort -n | tr '\n' ' ')" = "1 2 3 4 " ] || { bad "loop: rows"; cat "$tmp/loop_cat.out"; }

# 3b. COL_NEXT that disagrees with the COL_CALL_NO order: a warning, COL_CALL_NO wins.
sqlite3 "$tmp/next.db" "$INST
CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE (COL_CALL_NO INTEGER, COL_NEXT INTEGER, COL_PARENT_NO INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (3, -1, -1, 3, 1, 0, 2);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, -1, 1, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (2, 0, -1, 2, 1, 0, 1);"
run next info "$tmp/next.db"
grep -q "COL_NEXT disagrees with the COL_CALL_NO order for 1 calls (first: row 3)" "$tmp/next.out" || { bad "next: no warning"; cat "$tmp/next.out"; }
run next_cat cat "$tmp/next.db" --view call-trace --columns id
[ "$(tail -n +2 "$tmp/next_cat.out" | tr '\n' ' ')" = "1 2 3 " ] || bad "next: order"

# 4. Reference count: -1 booleans, a REFCOUNT_TREE loop, a thread entry.
sqlite3 "$tmp/rc.db" "CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT);
INSERT INTO INSTANCES VALUES (5, 'rc');
CREATE TABLE REFERENCE_COUNT_PROFILER_OBJECTS (COL__ INTEGER, COL_CLASSRID INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO REFERENCE_COUNT_PROFILER_OBJECTS VALUES (1, 0, 7, 5, -1, 0);
CREATE TABLE REFERENCE_COUNT_PROFILER_REFERENCES (COL__ INTEGER, COL_ADDREF_RELEASE INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO REFERENCE_COUNT_PROFILER_REFERENCES VALUES (1, -1, 1, 5, 7, 0);
INSERT INTO REFERENCE_COUNT_PROFILER_REFERENCES VALUES (2, 0, 2, 5, 7, 1);
CREATE TABLE REFERENCE_COUNT_PROFILER_THREADS (COL_WIN32THREADID TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO REFERENCE_COUNT_PROFILER_THREADS VALUES ('0x10', 1, 5, -1, 1);
CREATE TABLE REFERENCE_COUNT_PROFILER_REFCOUNT_TREE (COL_PARENT_INDEX INTEGER, COL_RESULT_REFCOUNT INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO REFERENCE_COUNT_PROFILER_REFCOUNT_TREE VALUES (-1, 1, -1, 1, 5, 7, 0);
INSERT INTO REFERENCE_COUNT_PROFILER_REFCOUNT_TREE VALUES (0, 1, -3, 2, 5, 7, 1);
INSERT INTO REFERENCE_COUNT_PROFILER_REFCOUNT_TREE VALUES (3, 0, -1, 3, 5, 7, 2);
INSERT INTO REFERENCE_COUNT_PROFILER_REFCOUNT_TREE VALUES (2, 0, -1, 4, 5, 7, 3);"
run rc info "$tmp/rc.db"
[ $rc -eq 0 ] || bad "refcount: status $rc"
grep -q "COL_PARENT_INDEX chain loops" "$tmp/rc.out" || bad "refcount: no loop warning"
run rc_refs cat "$tmp/rc.db" --view references --columns id,kind
printf 'id\tkind\n1\tAddRef\n2\tRelease\n' >"$tmp/e"
diff -u "$tmp/e" "$tmp/rc_refs.out" || bad "refcount: -1 is AddRef"
run rc_tree cat "$tmp/rc.db" --view refcount-tree --parent 7 --columns id,parent,depth,routine
head -3 "$tmp/rc_tree.out" >"$tmp/a"
printf 'id\tparent\tdepth\troutine\n1\t\t0\t<Root>\n2\t1\t1\tThread 16\n' >"$tmp/e"
diff -u "$tmp/e" "$tmp/a" || bad "refcount: tree with a thread entry"
[ "$(tail -n +2 "$tmp/rc_tree.out" | wc -l)" -eq 4 ] || bad "refcount: loop rows lost"

# 5. A contradictory key: parameters that name their call by REC_ID.
sqlite3 "$tmp/key.db" "$INST $TRACE
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 1, -1, 0, 10, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 2, -1, 0, 11, 1, 0, 1);
CREATE TABLE FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER (COL_PARAM_NO INTEGER, COL_PARAM_VALUE TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER);
INSERT INTO FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER VALUES (1, 'a', 1, 1, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER VALUES (1, 'b', 2, 1, 1);"
run key info "$tmp/key.db"
grep -q "PARAMETERS_ON_ENTER.PARENT_ID -> FUNCTION_TRACE_PROFILER_CALL_TRACE.REC_ID (2 of 2 rows resolved; as ID: 0)" "$tmp/key.out" \
  || { bad "key: reading not noted"; cat "$tmp/key.out"; }
run key_cat cat "$tmp/key.db" --view parameters-on-enter --parent 11 --columns value
printf 'value\nb\n' >"$tmp/e"
diff -u "$tmp/e" "$tmp/key_cat.out" || bad "key: parameters of call 11"

# 6. Rows of an INST_ID that INSTANCES does not list still load, with a warning.
sqlite3 "$tmp/orphan.db" "$INST $TRACE
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 1, -1, 0, 1, 9, 0, 0);"
run orphan info "$tmp/orphan.db"
grep -q "INST_ID 9 has rows but no INSTANCES row" "$tmp/orphan.out" || bad "orphan: no warning"
run orphan_cat cat "$tmp/orphan.db" --instance 9 --view call-trace --columns id
[ "$(tail -n +2 "$tmp/orphan_cat.out")" = "1" ] || bad "orphan: rows"

# 6b. A REAL INST_ID too large for an integer (1e300, also -1e300 and 2^63):
#     those rows have no usable INST_ID (a warning), the others load; no
#     undefined conversion (the sanitizer build aborts on one).
sqlite3 "$tmp/huge.db" "$INST $TRACE
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 1, -1, 0, 1, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 2, -1, 0, 2, 1e300, 0, 1);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 3, -1, 0, 3, -1e300, 0, 2);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 4, -1, 0, 4, 9223372036854775808.0, 0, 3);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (1, 1, 5, -1, 0, 5, 1.0, 0, 4);
INSERT INTO INSTANCES VALUES (1e300, 'huge', 'Elapsed Time', 3, 'Time');"
run huge info "$tmp/huge.db"
[ $rc -eq 0 ] || bad "huge INST_ID: status $rc"
grep -q "table FUNCTION_TRACE_PROFILER_CALL_TRACE: 3 rows have no usable INST_ID (first: row 2)" "$tmp/huge.out" \
  || { bad "huge INST_ID: no warning"; cat "$tmp/huge.out" "$tmp/huge.err"; }
run huge_cat cat "$tmp/huge.db" --view call-trace --columns id
[ "$(tail -n +2 "$tmp/huge_cat.out" | tr '\n' ' ')" = "1 5 " ] || { bad "huge INST_ID: rows"; cat "$tmp/huge_cat.out"; }

# 7. Corrupted copies: bytes overwritten inside the file, then a truncated file.
for kind in overwritten truncated; do
  cp "$S/aqtime-trace.db" "$tmp/$kind.db"
  if [ $kind = overwritten ]; then
    head -c 16384 /dev/zero | tr '\0' '\377' | dd of="$tmp/$kind.db" bs=1 seek=8192 conv=notrunc status=none
  else
    truncate -s 20000 "$tmp/$kind.db"
  fi
  run $kind info "$tmp/$kind.db"
  [ $rc -eq 0 ] || [ $rc -eq 2 ] || bad "$kind: status $rc"
  grep -qE "malformed|not a database|cannot|corrupt|missing" "$tmp/$kind.out" "$tmp/$kind.err" \
    || { bad "$kind: no message"; cat "$tmp/$kind.out" "$tmp/$kind.err"; }
  grep -q "$tmp/$kind.db" "$tmp/$kind.out" "$tmp/$kind.err" || bad "$kind: the message does not name the file"
  for v in call-trace routines threads; do
    run ${kind}_$v cat "$tmp/$kind.db" --view $v
  done
done

# 8. Not a database: detection refuses it; forcing the format gets a message.
printf 'hello, this is not SQLite\n' >"$tmp/text.db"
run text info "$tmp/text.db"
[ $rc -eq 2 ] || bad "text: status $rc"
run text_forced info --input-format aqtime "$tmp/text.db"
[ $rc -eq 2 ] || bad "text forced: status $rc"
grep -q "$tmp/text.db" "$tmp/text_forced.err" || { bad "text forced: message"; cat "$tmp/text_forced.err"; }
# A SQLite database without AQTime tables.
sqlite3 "$tmp/other.db" "CREATE TABLE t (a);"
run other info --input-format aqtime "$tmp/other.db"
[ $rc -eq 2 ] || bad "other: status $rc"
grep -q "without AQTime tables" "$tmp/other.err" || bad "other: message"

exit $fail
