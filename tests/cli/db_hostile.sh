#!/usr/bin/env bash
# Databases as hostile input (docs/input.md "Databases"): an AQTime table
# that is a VIEW over an endless recursive CTE is not read (said so), the
# file loads at once; a profview-schema view that never ends (and one that
# sorts an endless CTE) is stopped by the work budget within seconds with
# a message, exit 2; a database whose last transaction is in its -wal is
# read with it, and when the WAL cannot be read (no -shm, a directory we
# cannot write) the file is read without it and a warning says so.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail=0
endless="WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"

# 1. AQTime: the call trace is a view that never ends
cp "$src/aqtime-trace.db" "$tmp/a.db"
sqlite3 "$tmp/a.db" "DROP TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE;
  CREATE VIEW FUNCTION_TRACE_PROFILER_CALL_TRACE AS $endless SELECT x AS COL__S,
  0 AS COL__S_WITH_CHILDREN, x AS COL_CALL_NO, 0 AS COL_LINE_NUMBER, 0 AS COL_NEXT,
  -1 AS COL_PARENT_NO, x AS COL_RECID, 1 AS COL_ROUTINE_NAME, x AS ID, 1 AS INST_ID,
  -1 AS PARENT_ID, x AS REC_ID FROM c;"
set +e
timeout 20 "$pv" info "$tmp/a.db" >"$tmp/a.out" 2>&1
rc=$?
set -e
[ $rc -eq 0 ] || { echo "FAIL: AQTime view: exit $rc (124: it hung)"; fail=1; }
grep -q 'FUNCTION_TRACE_PROFILER_CALL_TRACE is a view, not a table: not read' "$tmp/a.out" ||
  { echo "FAIL: AQTime view: not said: $(head -5 "$tmp/a.out")"; fail=1; }
# one message for the table, not "is a view" and "is missing" as well
n=$(grep -c 'FUNCTION_TRACE_PROFILER_CALL_TRACE' "$tmp/a.out" || true)
[ "$n" = 1 ] || { echo "FAIL: AQTime view: $n messages name the table, not 1:"; grep FUNCTION_TRACE_PROFILER_CALL_TRACE "$tmp/a.out"; fail=1; }

# 2. profview schema: a view's table that never ends, and one that sorts it
"$pv" export "$src/rtos.txt" --format sqlite -o "$tmp/p.db"
for order in "" "ORDER BY x DESC"; do
  cp "$tmp/p.db" "$tmp/q.db"
  sqlite3 "$tmp/q.db" "DROP TABLE summary; CREATE VIEW summary AS $endless
    SELECT x AS _row, x AS id, 'k' AS key, 'v' AS value, 0 AS time FROM c $order;"
  set +e
  timeout 60 "$pv" info "$tmp/q.db" >"$tmp/q.out" 2>&1
  rc=$?
  set -e
  [ $rc -eq 2 ] || { echo "FAIL: endless view ($order): exit $rc, not 2 (124: it hung)"; fail=1; }
  grep -q 'q.db: table summary: stopped: reading it took far more work than a database of its size needs' "$tmp/q.out" ||
    { echo "FAIL: endless view ($order): $(cat "$tmp/q.out")"; fail=1; }
  rm -f "$tmp/q.db"
done

# 3. the last transaction in the -wal: read with it
mkdir "$tmp/wal"
cp "$tmp/p.db" "$tmp/wal/p.db"
python3 - "$tmp/wal/p.db" <<'PY'
import os, sqlite3, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("PRAGMA journal_mode=WAL")
c.execute("PRAGMA wal_autocheckpoint=0")
c.execute("UPDATE profview_sets SET caption = 'from the WAL'")
os._exit(0)  # no checkpoint: the change is only in p.db-wal
PY
[ -s "$tmp/wal/p.db-wal" ] || { echo "FAIL: setup: no -wal"; fail=1; }
"$pv" info "$tmp/wal/p.db" >"$tmp/w.out" 2>&1
grep -q 'result set 1: from the WAL' "$tmp/w.out" ||
  { echo "FAIL: WAL not read: $(grep 'result set' "$tmp/w.out")"; fail=1; }
# ... in a directory we cannot write, without its -shm: read without it, said so
if [ "$(id -u)" -eq 0 ]; then
  rm -f "$tmp/wal/p.db-shm"
  chmod 555 "$tmp/wal"
  setpriv --reuid=65534 --regid=65534 --clear-groups "$pv" info "$tmp/wal/p.db" >"$tmp/w2.out" 2>&1 ||
    { echo "FAIL: WAL unreadable: exit $?: $(cat "$tmp/w2.out")"; fail=1; }
  grep -q 'p.db-wal) cannot be read .*the transactions in it are not shown' "$tmp/w2.out" ||
    { echo "FAIL: WAL unreadable: not said: $(head -5 "$tmp/w2.out")"; fail=1; }
  grep -q 'result set 1: winIDEA profiler' "$tmp/w2.out" || { echo "FAIL: WAL unreadable: not read"; fail=1; }
  chmod 755 "$tmp/wal"
else
  echo "note: not root: the unreadable-WAL variant is skipped"
fi
exit $fail
