#!/usr/bin/env bash
# Memory per AQTime result set proportional to what it holds (docs/aqtime.md
# "Scale"): a million empty INSTANCES rows (result sets whose tables hold no
# row) load, and `info` (text and --json) lists them, in under 500 MB of
# resident memory, and each still shows its
# summary, its views (empty) and its note; the result sets that hold rows
# are untouched.  It used to take about 10 KB per empty result set (1.14 GB
# for 100 000).  The run is bounded by `ulimit -v` (1 GB of address space),
# so that the old cost fails at once instead of taking the machine's
# memory; the resident size is read with GNU time.  The sanitizer build
# reserves terabytes of address space at start and doubles what memory
# costs: there the test says so and checks nothing.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! bash -c 'ulimit -v 1000000; exec "$1" --version' _ "$pv" >/dev/null 2>&1; then
  echo "note: this build cannot start under ulimit -v (a sanitizer build): skipped"
  exit 0
fi
[ -x /usr/bin/time ] || { echo "FAIL: GNU time (/usr/bin/time) is missing (scripts/setup.sh)"; exit 1; }
fail=0
# every run of profview under the bound
bounded() { bash -c 'ulimit -v 1000000; exec "$@"' _ "$@"; }
cp "$src/aqtime-trace.db" "$tmp/empty.db"
sqlite3 "$tmp/empty.db" "WITH RECURSIVE c(x) AS (SELECT 100 UNION ALL SELECT x + 1 FROM c
  WHERE x < 1000099) INSERT INTO INSTANCES SELECT x, 'run ' || x, 'Elapsed Time', 3579545,
  'Time' FROM c"
set +e
/usr/bin/time -f '%M' -o "$tmp/rss" bash -c 'ulimit -v 1000000; exec "$@"' _ \
  "$pv" info "$tmp/empty.db" 2>"$tmp/err" |
  awk '/^  result set / { n++ } /^  result set 500000:/ { show = 1 } show && c < 8 { print; c++ }
       END { print "sets", n }' >"$tmp/out"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" -eq 0 ] || { echo "FAIL: info exits $rc: $(head -3 "$tmp/err")"; exit 1; }
rss=$(tail -1 "$tmp/rss")
echo "max resident: $rss KB"
[ "$rss" -lt 500000 ] 2>/dev/null || { echo "FAIL: 1 M empty result sets take $rss KB, not under 500 000"; fail=1; }
grep -qx 'sets 1000002' "$tmp/out" || { echo "FAIL: not every result set listed: $(tail -1 "$tmp/out")"; fail=1; }
expected='  result set 500000: run 500000 (Function Trace)
    note: counter: Elapsed Time, machine cycles shown as time
    summary                         8 rows
    threads                         0 rows
    call-trace                      0 rows (tree)  details: parameters-on-enter parameters-on-exit
    routines                        0 rows  details: call-routes callers callees lines meta-parameters source (source files)
    call-routes                     0 rows  details: call-stack
    lines                           0 rows  details: source (source files)'
[ "$(head -8 "$tmp/out")" = "$expected" ] ||
  { echo "FAIL: an empty result set:"; head -8 "$tmp/out"; fail=1; }
# --json is written as it goes too: the same bound, and it ends as JSON does
/usr/bin/time -f '%M' -o "$tmp/rss" bash -c 'ulimit -v 1000000; exec "$@"' _ \
  "$pv" info --json "$tmp/empty.db" 2>"$tmp/err" | tail -c 2000 >"$tmp/json_end"
rss=$(tail -1 "$tmp/rss")
echo "max resident (--json): $rss KB"
[ "$rss" -lt 500000 ] 2>/dev/null || { echo "FAIL: info --json takes $rss KB, not under 500 000"; fail=1; }
grep -q '"id":1000099,"caption":"run 1000099"' "$tmp/json_end" && grep -q ']}]}]}$' "$tmp/json_end" ||
  { echo "FAIL: info --json does not end with the last result set: $(tail -c 300 "$tmp/json_end")"; fail=1; }
# its summary, made when read, is its own
bounded "$pv" cat "$tmp/empty.db" --instance 777777 --view summary --columns key,value >"$tmp/sum"
printf 'key\tvalue\nformat\tAQTime database\nfile\t%s\nresult set\t777777\ncaption\trun 777777\nprofiler\tFunction Trace\ncounter\tElapsed Time\ncounter frequency\t3579545\ncounter unit\ttime (cycles converted to ns)\n' \
  "$tmp/empty.db" | diff - "$tmp/sum" || { echo "FAIL: the summary of an empty result set"; fail=1; }
# the result sets that hold rows: as in the sample alone
for view in call-trace routines; do
  diff <("$pv" cat "$src/aqtime-trace.db" --instance 1 --view $view) \
       <(bounded "$pv" cat "$tmp/empty.db" --instance 1 --view $view) >/dev/null ||
    { echo "FAIL: result set 1, $view differs beside a million empty ones"; fail=1; }
done
[ $fail -eq 0 ] && echo "aqtime_empty_sets: all ok"
exit $fail
