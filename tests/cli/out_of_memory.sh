#!/usr/bin/env bash
# Out of memory (docs/code-style.md): profview says so and exits 2, without
# a core dump (it used to abort: exit 134); in the viewer the terminal is
# restored first (tests/screen/out_of_memory.sh).  An AQTime database with
# three million result sets needs far more than the 400 MB of address space
# `ulimit -v` leaves it (a million empty ones take about 450 MB:
# tests/cli/aqtime_empty_sets.sh).  The sanitizer build reserves terabytes of address
# space at start: there the test says so and checks nothing.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! bash -c 'ulimit -v 400000; exec "$1" --version' _ "$pv" >/dev/null 2>&1; then
  echo "note: this build cannot start under ulimit -v (a sanitizer build): skipped"
  exit 0
fi
cp "$src/aqtime-trace.db" "$tmp/oom.db"
sqlite3 "$tmp/oom.db" "WITH RECURSIVE c(x) AS (SELECT 100 UNION ALL SELECT x + 1 FROM c
  WHERE x < 3000099) INSERT INTO INSTANCES SELECT x, 'r', 'Elapsed Time', 3579545, 'Time' FROM c"
fail=0
set +e
bash -c 'ulimit -v 400000; ulimit -c 0; exec "$@"' _ "$pv" info "$tmp/oom.db" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || { echo "FAIL: out of memory: exit $rc, not 2"; fail=1; }
grep -Eq '^profview: out of memory \(asked for [0-9]+ bytes\)$' "$tmp/err" ||
  { echo "FAIL: out of memory: message: $(cat "$tmp/err")"; fail=1; }
exit $fail
