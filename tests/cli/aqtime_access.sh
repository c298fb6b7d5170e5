#!/usr/bin/env bash
# AQTime results in Access databases (docs/aqtime.md "Access databases"): the
# .mdb twin of every AQTime sample (sample-data/aqtime-*.mdb, written by the
# project's Jet 4 writer sample-data/gen/pv_gen_mdb from the SQLite original)
# shows what the original shows: `info` (result sets, notes, row counts, no
# warning), every view of every result set, and every detail of every row
# of those views (through SQL's table-valued functions, one query per
# detail, and `cat --parent` for the first, a middle and the last row; a
# detail that is no function, `lines` and `call-routes`, by `cat --parent`
# for every row).  Also: the twins are what the writer writes today; an
# .accdb and a UCS-2 (uncompressed) twin read the same; a twin read from a
# pipe; cycle counts and a frequency beyond 32 bits (stored as Double) come
# back as the same integers; `export --format sqlite` of a twin gives the
# export of the original.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
S=$PV_SOURCE_DIR/sample-data
GEN=$PV_BUILD_DIR/pv_gen_mdb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# same NAME A B [views]: the files' info (from its third line: the path and
# the format differ) and every view and, unless `views`, every detail of
# every row print the same (the file's own name aside).
same() {
  local name=$1 a=$2 b=$3 only=${4:-}
  "$PROFVIEW" info "$a" | tail -n +3 >"$tmp/ia"
  "$PROFVIEW" info "$b" | tail -n +3 >"$tmp/ib"
  diff -u "$tmp/ia" "$tmp/ib" >"$tmp/d" || { bad "$name: info differs"; head -20 "$tmp/d"; }
  "$PROFVIEW" info --json "$b" | grep -q '"warning_count":0,' || bad "$name: $b has warnings"
  # result set, view and its details, one line each
  "$PROFVIEW" info --json "$a" | python3 -c '
import json, sys
for f in json.load(sys.stdin)["files"]:
    for k, s in enumerate(f["result_sets"]):
        for v in s["views"]:
            print(k + 1, s["id"], v["id"], *v["details"])' >"$tmp/views"
  local n=0 k inst view details
  while read -r k inst view details; do
    "$PROFVIEW" cat "$a" --instance "$inst" --view "$view" >"$tmp/va"
    "$PROFVIEW" cat "$b" --instance "$inst" --view "$view" >"$tmp/vb"
    sed -i "s|$a|FILE|g" "$tmp/va"
    sed -i "s|$b|FILE|g" "$tmp/vb"
    n=$((n + 1))
    if ! diff -u "$tmp/va" "$tmp/vb" >"$tmp/d"; then
      bad "$name: result set $inst view $view differs"
      head -20 "$tmp/d"
      continue
    fi
    [ -n "$details" ] && [ -z "$only" ] || continue
    head -1 "$tmp/va" | tr '\t' '\n' | grep -qx id || { bad "$name: $view has no id"; continue; }
    local col
    col=$(head -1 "$tmp/va" | tr '\t' '\n' | grep -nx id | cut -d: -f1)
    local ids sample d fn q id
    ids=$(tail -n +2 "$tmp/va" | cut -f"$col")
    sample=$(echo "$ids" | awk '{ r[NR] = $0 } END { if (NR) print r[1]; if (NR > 2) print r[int((NR + 1) / 2)]; if (NR > 1) print r[NR] }')
    for d in $details; do
      # every row's detail in one query: the function VIEW_DETAIL when
      # several views offer the detail, else DETAIL (docs/sql.md)
      q=
      for fn in "${view//-/_}_${d//-/_}" "${d//-/_}"; do
        q="SELECT o.id AS of_id, d.* FROM r$k.\"${view//-/_}\" o, \"$fn\"(o.id, $k) d ORDER BY o.rowid, d.rowid"
        "$PROFVIEW" sql "$a" "$q" >"$tmp/da" 2>&1 && break
        q=
      done
      if [ -n "$q" ]; then
        "$PROFVIEW" sql "$b" "$q" >"$tmp/db" 2>&1 || true
        n=$((n + 1))
        [ "$(wc -l <"$tmp/da")" -gt 1 ] || grep -q 'no row has the detail' "$tmp/da" ||
          bad "$name: $inst $view detail $d: no rows through SQL"
        cmp -s "$tmp/da" "$tmp/db" || { bad "$name: $inst $view detail $d (SQL) differs"; diff -u "$tmp/da" "$tmp/db" | head -10; }
        set -- $sample
      else
        set -- $ids # no function of that name (a view has it): every row
      fi
      for id in "$@"; do
        "$PROFVIEW" cat "$a" --instance "$inst" --view "$d" --parent "$id" >"$tmp/da" 2>&1 || true
        "$PROFVIEW" cat "$b" --instance "$inst" --view "$d" --parent "$id" >"$tmp/db" 2>&1 || true
        sed -i "s|$a|FILE|g" "$tmp/da"
        sed -i "s|$b|FILE|g" "$tmp/db"
        n=$((n + 1))
        cmp -s "$tmp/da" "$tmp/db" || { bad "$name: $inst $view $id detail $d differs"; diff -u "$tmp/da" "$tmp/db" | head -10; }
      done
    done
  done <"$tmp/views"
  [ "$n" -ge 10 ] || bad "$name: only $n views and details compared"
}

for s in trace resource refcount; do
  "$GEN" "$S/aqtime-$s.db" "$tmp/$s.mdb"
  cmp -s "$tmp/$s.mdb" "$S/aqtime-$s.mdb" ||
    bad "sample-data/aqtime-$s.mdb is not what pv_gen_mdb writes (sample-data/regen-aqtime.sh)"
  same "$s" "$S/aqtime-$s.db" "$S/aqtime-$s.mdb"
done

# The same tables as an .accdb, and with every text in UCS-2.
"$GEN" --ace "$S/aqtime-refcount.db" "$tmp/refcount.accdb"
same "refcount.accdb" "$S/aqtime-refcount.db" "$tmp/refcount.accdb" views
"$GEN" --uncompressed "$S/aqtime-trace.db" "$tmp/trace-ucs2.mdb"
same "trace, UCS-2 text" "$S/aqtime-trace.db" "$tmp/trace-ucs2.mdb" views

# From a pipe.
"$PROFVIEW" cat "$S/aqtime-trace.db" --view routines >"$tmp/e"
"$PROFVIEW" cat - --view routines <"$S/aqtime-trace.mdb" >"$tmp/a"
diff -u "$tmp/e" "$tmp/a" || bad "an .mdb from a pipe"

# Integers beyond 32 bits: the writer stores them as Double, as AQTime's
# export to Access does; they show as the same integers (and text that is
# not ASCII comes back as written).
sqlite3 "$tmp/big.db" "
CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT, COUNTER_DESCRIPTION TEXT, COUNTER_FREQUENCY NUMERIC, COUNTER_NAME TEXT);
INSERT INTO INSTANCES VALUES (1, 'Große Läufe – 測定', 'Elapsed Time', 2994000000, 'Time');
CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE (COL__S INTEGER, COL__S_WITH_CHILDREN INTEGER, COL_CALL_NO INTEGER, COL_PARENT_NO INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (8983000000123, 9007199254740991, 1, -1, 0, 1, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 7, 2, 0, 0, 2, 1, 0, 1);"
"$GEN" "$tmp/big.db" "$tmp/big.mdb"
# INSTANCES is the first table: its definition is page 5, its fourth column's
# entry at 63 + 3 * 25 (pv_gen_mdb)
mdb_type=$(od -An -tx1 -j $((4096 * 5 + 63 + 75)) -N1 "$tmp/big.mdb" | tr -d ' ')
[ "$mdb_type" = 07 ] || bad "the writer did not store the large COUNTER_FREQUENCY as a Double (type $mdb_type)"
for v in summary call-trace; do
  "$PROFVIEW" cat "$tmp/big.db" --view $v >"$tmp/e"
  "$PROFVIEW" cat "$tmp/big.mdb" --view $v >"$tmp/a"
  sed -i "s|$tmp/big.db|FILE|" "$tmp/e"
  sed -i "s|$tmp/big.mdb|FILE|" "$tmp/a"
  diff -u "$tmp/e" "$tmp/a" || bad "large integers: view $v"
done
"$PROFVIEW" cat "$tmp/big.mdb" --view summary >"$tmp/a"
grep -q 'Große Läufe – 測定' "$tmp/a" || bad "non-ASCII caption"
grep -q 2994000000 "$tmp/a" || bad "the frequency beyond 32 bits"

# Names longer than a Text column holds are Memo values: inline (300
# characters), on one long-value page (3 000) and on a chain of them
# (20 000 in one-byte and 10 000 in two-byte characters).
sqlite3 "$tmp/long.db" "
CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT, COUNTER_DESCRIPTION TEXT, COUNTER_FREQUENCY NUMERIC, COUNTER_NAME TEXT);
INSERT INTO INSTANCES VALUES (1, 'long names', 'Elapsed Time', 1000000000, 'Time');
CREATE TABLE FUNCTION_TRACE_PROFILER_META_ROUTINES (ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER, COL_ROUTINE_NAME TEXT);
INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES (0, 1, 0, 0, 'std::map<' || replace(hex(zeroblob(150)), '00', 'Kß') || '>::find');
INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES (1, 1, 0, 1, 'tpl<' || replace(hex(zeroblob(1500)), '00', 'ab') || '>');
INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES (2, 1, 0, 2, 'big<' || replace(hex(zeroblob(10000)), '00', 'cd') || '>');
INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES VALUES (3, 1, 0, 3, 'wide<' || replace(hex(zeroblob(5000)), '00', '測定') || '>');
CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE (COL__S INTEGER, COL__S_WITH_CHILDREN INTEGER, COL_CALL_NO INTEGER, COL_PARENT_NO INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 20, 1, -1, 0, 1, 1, 0, 0);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 15, 1, 0, 1, 2, 1, 0, 1);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 10, 1, 1, 2, 3, 1, 0, 2);
INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE VALUES (5, 5, 1, 2, 3, 4, 1, 0, 3);"
"$GEN" "$tmp/long.db" "$tmp/long.mdb"
for v in routines call-trace; do
  "$PROFVIEW" cat "$tmp/long.db" --view $v >"$tmp/e"
  "$PROFVIEW" cat "$tmp/long.mdb" --view $v >"$tmp/a"
  cmp -s "$tmp/e" "$tmp/a" || bad "long names (Memo values): view $v differs"
done
lengths=$("$PROFVIEW" cat "$tmp/long.mdb" --view call-trace --columns routine | tail -n +2 |
  python3 -c 'import sys; print(" ".join(str(len(l.rstrip("\n"))) for l in sys.stdin))')
[ "$lengths" = "316 3005 20005 10006" ] || bad "long names: lengths (characters) $lengths"

# export --format sqlite of a twin: AQTime's schema, the original's rows.
for s in trace refcount; do
  "$PROFVIEW" export "$S/aqtime-$s.db" --format sqlite -o "$tmp/$s.from-db.db" >/dev/null
  "$PROFVIEW" export "$S/aqtime-$s.mdb" --format sqlite -o "$tmp/$s.from-mdb.db" >/dev/null
  sqlite3 "$tmp/$s.from-db.db" .dump >"$tmp/e"
  sqlite3 "$tmp/$s.from-mdb.db" .dump >"$tmp/a"
  diff -u "$tmp/e" "$tmp/a" >"$tmp/d" || { bad "export --format sqlite of aqtime-$s.mdb"; head -20 "$tmp/d"; }
  grep -q 'CREATE TABLE.*INSTANCES' "$tmp/a" || bad "export of aqtime-$s.mdb has no INSTANCES"
done

exit $fail
