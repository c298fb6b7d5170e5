#!/usr/bin/env bash
# `profview export` round trips (docs/export.md): every format exported,
# loaded back, and every view compared with the source's; unfiltered Text1
# and BIN exports of the samples byte-identical (apart from line endings).
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

views_of() { # file [instance]
  "$pv" info --json "$1" | python3 -c '
import json, sys
inst = int(sys.argv[1]) if len(sys.argv) > 1 else None
for s in json.load(sys.stdin)["files"][0]["result_sets"]:
    if inst is None or s["id"] == inst:
        print(" ".join(v["id"] for v in s["views"])); break' "${@:2}"
}

# The summary names the file it was read from: that row is left out.
same_views() { # label source export [instance]
  local inst=() views
  [ $# -ge 4 ] && inst=(--instance "$4")
  views=$(views_of "$1" ${4:+"$4"})
  [ -n "$views" ] || { echo "FAIL: $1: no views"; fail=1; return; }
  for v in $views; do
    case " ${skip_views:-} " in *" $v "*) continue ;; esac
    if ! cmp -s <("$pv" cat "$2" "${inst[@]}" --view "$v" | grep -v -P '^\d+\t(timeline )?file\t') \
                <("$pv" cat "$3" "${inst[@]}" --view "$v" | grep -v -P '^\d+\t(timeline )?file\t'); then
      echo "FAIL: $1: view $v differs after the round trip"
      diff <("$pv" cat "$2" "${inst[@]}" --view "$v") <("$pv" cat "$3" "${inst[@]}" --view "$v") | head -5
      fail=1
    fi
  done
}

# The same detail views: the same details offered by every view, and the
# rows of each detail (for the first view that offers it, as cat --parent
# and SQL find it) for every row of that view, through SQL's table-valued
# functions, in one query per detail.
details_of() { # file: "view detail" lines (the first view offering each detail)
  "$pv" info --json "$1" | python3 -c '
import json, sys
seen = set()
for v in json.load(sys.stdin)["files"][0]["result_sets"][0]["views"]:
    for d in v["details"]:
        if d not in seen:
            seen.add(d); print(v["id"], d)'
}
same_details() { # label source export
  local view detail
  cmp -s <("$pv" info --json "$2" | python3 -c 'import json,sys; print([(v["id"], v["details"]) for v in json.load(sys.stdin)["files"][0]["result_sets"][0]["views"]])') \
         <("$pv" info --json "$3" | python3 -c 'import json,sys; print([(v["id"], v["details"]) for v in json.load(sys.stdin)["files"][0]["result_sets"][0]["views"]])') ||
    { echo "FAIL: $1: the views offer other details after the round trip"; fail=1; }
  while read -r view detail; do
    q="SELECT o.id, d.* FROM ${view//-/_} o, ${detail//-/_}(o.id) d ORDER BY o.rowid, d.rowid"
    if ! cmp -s <("$pv" sql "$2" "$q") <("$pv" sql "$3" "$q"); then
      echo "FAIL: $1: detail $detail of $view differs after the round trip"
      diff <("$pv" sql "$2" "$q") <("$pv" sql "$3" "$q") | head -5
      fail=1
    fi
    if [ "$("$pv" sql "$2" "$q" | wc -l)" -gt 1 ]; then compared_details=$((compared_details + 1)); fi
  done < <(details_of "$2")
}
compared_details=0

# 1. Text1 of every Text1 sample: byte-identical, and the same views
for f in rtos.txt rtos-ctx.txt seed-example.txt; do
  "$pv" export "$src/$f" --format text1 -o "$tmp/$f"
  cmp "$src/$f" "$tmp/$f" || { echo "FAIL: $f: Text1 export not byte-identical"; fail=1; }
done
same_views "$src/rtos.txt" "$src/rtos.txt" "$tmp/rtos.txt"

# 2. BIN of both versions: mapping and records byte-identical (the v1.1
#    sample's mapping has CRLF line endings)
for f in rtos-v10.txt rtos-v11.txt; do
  "$pv" export "$src/$f" --format bin -o "$tmp/$f"
  cmp <(tr -d '\r' <"$src/$f") "$tmp/$f" || { echo "FAIL: $f: mapping differs"; fail=1; }
  cmp "$src/$f.BIN" "$tmp/$f.BIN" || { echo "FAIL: $f.BIN: records differ"; fail=1; }
  same_views "$src/$f" "$src/$f" "$tmp/$f"
done
# a BIN opened alone: OUT holds the records
"$pv" export "$src/rtos-v10.txt.BIN" --format bin -o "$tmp/alone.bin"
cmp "$src/rtos-v10.txt.BIN" "$tmp/alone.bin" || { echo "FAIL: BIN alone differs"; fail=1; }
# a BIN alone to Text1: the same events, TOTAL_TIME from the first to the last
"$pv" export "$src/rtos-v11.txt.BIN" --format text1 -o "$tmp/alone.txt"
cmp <("$pv" cat "$src/rtos-v11.txt.BIN" --view timeline --columns index,time,handle,event,value) \
    <("$pv" cat "$tmp/alone.txt" --view timeline --columns index,time,handle,event,value) ||
  { echo "FAIL: BIN alone -> Text1: events differ"; fail=1; }
span=$("$pv" cat "$src/rtos-v11.txt.BIN" --view timeline --columns time | awk 'NR==2{a=$1} NR>1{b=$1} END{print b-a}')
[ "$(sed -n 2p "$tmp/alone.txt")" = "$span" ] ||
  { echo "FAIL: BIN alone -> Text1: TOTAL_TIME $(sed -n 2p "$tmp/alone.txt") != $span"; fail=1; }
# a Text1 timeline to BIN and back to Text1: the same events
"$pv" export "$src/rtos.txt" --format bin -o "$tmp/tb.txt"
[ -f "$tmp/tb.txt.BIN" ] || { echo "FAIL: no tb.txt.BIN"; fail=1; }
cmp <("$pv" cat "$src/rtos.txt" --view timeline --columns index,time,handle,event,value,context,depth) \
    <("$pv" cat "$tmp/tb.txt" --view timeline --columns index,time,handle,event,value,context,depth) ||
  { echo "FAIL: Text1 -> BIN timeline differs"; fail=1; }

# 3. v1.1 -> v1.0 -> v1.1 keeps every field both versions have; the core
#    becomes 0xFF (unknown) after v1.0
"$pv" export "$src/rtos-v11.txt" --format bin --bin-version 1.0 -o "$tmp/c10.txt"
"$pv" export "$tmp/c10.txt" --format bin --bin-version 1.1 -o "$tmp/c11.txt"
python3 - "$src/rtos-v11.txt.BIN" "$tmp/c10.txt.BIN" "$tmp/c11.txt.BIN" <<'PY' || fail=1
import struct, sys
a, b, c = (open(p, 'rb').read() for p in sys.argv[1:])
assert len(a) == len(b) == len(c) and len(a) % 24 == 0, "sizes differ"
for i in range(0, len(a), 24):
    h1, w1, d1, t1 = struct.unpack_from('<IIQq', a, i)
    h0, w0, d0, t0 = struct.unpack_from('<IIQq', b, i)
    h2, w2, d2, t2 = struct.unpack_from('<IIQq', c, i)
    assert (h1, d1, t1) == (h0, d0, t0) == (h2, d2, t2), "record %d: fields differ" % (i // 24)
    assert (w0 >> 24) & 0xF == w1 & 0xF and w0 & 0xFFFFFF == 0, "record %d: v1.0 type" % (i // 24)
    assert w2 & 0xF == w1 & 0xF and (w2 >> 4) & 0xFF == 0xFF, "record %d: v1.1 word %x" % (i // 24, w2)
PY
# (the summary names the record version; v1.0 has no core column)
skip_views="summary timeline" same_views "$src/rtos-v11.txt" "$src/rtos-v11.txt" "$tmp/c10.txt"
cmp <("$pv" cat "$src/rtos-v11.txt" --view timeline --columns index,time,context,handle,name,event,value,depth) \
    <("$pv" cat "$tmp/c10.txt" --view timeline --columns index,time,context,handle,name,event,value,depth) ||
  { echo "FAIL: v1.1 -> v1.0 timeline differs"; fail=1; }

# 4. SQLite: winIDEA and PLIST in the profview schema, AQTime in its own
for f in rtos.txt rtos-ctx.txt rtos-v10.txt seed-example.txt plist-func-timing.txt \
         plist-func-count.txt plist-line-count.txt plist-line-coverage.txt; do
  "$pv" export "$src/$f" --format sqlite -o "$tmp/$f.db"
  [ "$("$pv" info --json "$tmp/$f.db" | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["format"])')" = profview-sqlite ] ||
    { echo "FAIL: $f.db not detected as profview-sqlite"; fail=1; }
  same_views "$src/$f" "$src/$f" "$tmp/$f.db"
  same_details "$src/$f" "$src/$f" "$tmp/$f.db"
done
# a detail of more rows than the export keeps (1 M; 1000 here) is left
# out, and the loaded file says so; the others are kept
"$pv" export "$src/rtos.txt" --test detail-rows=1000 --format sqlite -o "$tmp/capped.db"
"$pv" info "$tmp/capped.db" | grep -q 'note: view timeline: detail call-stack-at was not exported (too many rows' ||
  { echo "FAIL: a detail over the cap is not noted"; fail=1; }
# ... and says so where the detail is asked for: cat --parent and the
# viewer's Details pane ("not exported: ...", not "Nothing of this kind")
set +e
"$pv" cat "$tmp/capped.db" --view call-stack-at --parent 5 >/dev/null 2>"$tmp/capped.err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "'call-stack-at' of row 5 of 'timeline': not exported: " "$tmp/capped.err" ||
  { echo "FAIL: cat --parent of a detail not exported: exit $rc, $(cat "$tmp/capped.err")"; fail=1; }
printf '%s\n' 'Shift-Tab j j j j Tab' >"$tmp/keys"
"$pv" --keys "$tmp/keys" --dump "$tmp/screen" "$tmp/capped.db" --size 120x30
grep -q 'Call stack' "$tmp/screen" && grep -q 'not exported: the export leaves out' "$tmp/screen" ||
  { echo "FAIL: the Details pane does not say the detail was not exported:"; cat "$tmp/screen"; fail=1; }
[ -z "$(sqlite3 "$tmp/capped.db" "SELECT name FROM sqlite_master WHERE name LIKE 'timeline__call_stack_at%'")" ] ||
  { echo "FAIL: a detail over the cap left its tables"; fail=1; }
q="SELECT o.id, d.* FROM routines o, callers(o.id) d ORDER BY o.rowid, d.rowid"
cmp -s <("$pv" sql "$src/rtos.txt" "$q") <("$pv" sql "$tmp/capped.db" "$q") ||
  { echo "FAIL: a detail under the cap is not kept"; fail=1; }
# (winIDEA: area-calls, value-history, call-stack-at, area-statistics,
# call-events, callers, callees; PLIST timing: callers, callees)
[ $compared_details -ge 9 ] || { echo "FAIL: only $compared_details details had rows to compare"; fail=1; }
[ "$(sqlite3 "$tmp/rtos.txt.db" 'SELECT name || version FROM profview_schema')" = profview2 ] ||
  { echo "FAIL: no profview_schema version row"; fail=1; }
for idx in timeline_by_time timeline_groups_by_handle call_trace_by_parent; do
  sqlite3 "$tmp/rtos.txt.db" "SELECT name FROM sqlite_master WHERE type='index'" | grep -qx "$idx" ||
    { echo "FAIL: no index $idx"; fail=1; }
done
# the timeline: narrow rows, the area columns once per area, a SQL view
# joining them back with the view's columns (docs/export.md)
db=$tmp/rtos.txt.db
[ "$(sqlite3 "$db" "SELECT type FROM sqlite_master WHERE name = 'timeline'")" = view ] ||
  { echo "FAIL: timeline is not a SQL view"; fail=1; }
cmp <("$pv" cat "$src/rtos.txt" --view timeline | tail -n +2) \
    <(sqlite3 -separator $'\t' "$db" "SELECT id, \"index\", time, context, core, printf('0x%08X', handle),
        name, event, iif(value IS NULL, NULL, printf('0x%X', value)), depth, type, delta FROM timeline ORDER BY _row") ||
  { echo "FAIL: SELECT * FROM timeline differs from cat --view timeline"; fail=1; }
# events by time use the index; events by area the timeline_by_group table
sqlite3 "$db" "EXPLAIN QUERY PLAN SELECT * FROM timeline WHERE time BETWEEN 1000 AND 2000" |
  grep -q 'USING INDEX timeline_by_time' || { echo "FAIL: a time range does not use timeline_by_time"; fail=1; }
by_area="SELECT _row FROM timeline WHERE _row IN (SELECT _row FROM timeline_by_group WHERE _group =
         (SELECT _group FROM timeline_groups WHERE name = 'CRC_Calc')) ORDER BY _row"
[ -n "$(sqlite3 "$db" "$by_area")" ] &&
cmp <(sqlite3 "$db" "$by_area") <(sqlite3 "$db" "SELECT _row FROM timeline WHERE name = 'CRC_Calc' ORDER BY _row") ||
  { echo "FAIL: timeline_by_group does not list the area's events"; fail=1; }
sqlite3 "$db" "EXPLAIN QUERY PLAN $by_area" | grep -q 'SEARCH timeline_by_group USING PRIMARY KEY' ||
  { echo "FAIL: events by area do not search timeline_by_group"; fail=1; }
for f in aqtime-trace.db aqtime-resource.db aqtime-refcount.db; do
  "$pv" export "$src/$f" --format sqlite -o "$tmp/$f"
  [ "$("$pv" info --json "$tmp/$f" | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["format"])')" = aqtime ] ||
    { echo "FAIL: $f export not detected as AQTime"; fail=1; }
  # the seed's tables, INSTANCES and RELATIONS included, with the same rows
  for t in $(sqlite3 "$src/$f" .tables); do
    cmp -s <(sqlite3 "$src/$f" "SELECT * FROM $t ORDER BY rowid") \
           <(sqlite3 "$tmp/$f" "SELECT * FROM $t ORDER BY rowid") ||
      { echo "FAIL: $f: table $t differs"; fail=1; }
  done
  for inst in 1 2; do same_views "$src/$f" "$src/$f" "$tmp/$f" "$inst"; done
done
# --instance exports one result set
"$pv" export "$src/aqtime-trace.db" --format sqlite --instance 2 -o "$tmp/inst2.db"
[ "$(sqlite3 "$tmp/inst2.db" 'SELECT group_concat(DISTINCT INST_ID) FROM FUNCTION_TRACE_PROFILER_CALL_TRACE')" = 2 ] ||
  { echo "FAIL: --instance 2 exported other result sets"; fail=1; }
same_views "$src/aqtime-trace.db" "$src/aqtime-trace.db" "$tmp/inst2.db" 2

# 5. a filtered view in the profview schema: exactly the rows cat prints
"$pv" export "$src/rtos.txt" --format sqlite --view timeline --filter 'event = E && time < 100us' -o "$tmp/f.db"
cmp <("$pv" cat "$src/rtos.txt" --view timeline --filter 'event = E && time < 100us' | cut -f2-) \
    <("$pv" cat "$tmp/f.db" --view timeline | cut -f2-) || { echo "FAIL: filtered timeline"; fail=1; }

# ... and of a tree: the kept calls with their ancestors, under the same
# parents (the _parent of the export)
"$pv" export "$src/rtos.txt" --format sqlite --view call-trace --filter 'routine ~ /^CRC/' -o "$tmp/t.db"
cmp <("$pv" cat "$src/rtos.txt" --view call-trace --filter 'routine ~ /^CRC/' --format json) \
    <("$pv" cat "$tmp/t.db" --view call-trace --format json) || { echo "FAIL: filtered call tree"; fail=1; }
[ "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM call_trace c JOIN call_trace p ON p._row = c._parent
                           WHERE p.id = c.parent")" = "$(sqlite3 "$tmp/t.db" "SELECT count(*) FROM call_trace WHERE _parent IS NOT NULL")" ] ||
  { echo "FAIL: _parent is not the _row of the parent call"; fail=1; }

# 6. Text1/BIN from an AQTime or PLIST input: a usage error naming what fits
for f in aqtime-trace.db plist-func-timing.txt; do
  set +e
  "$pv" export "$src/$f" --format text1 -o "$tmp/x.txt" 2>"$tmp/err"
  rc=$?
  set -e
  [ $rc -eq 1 ] || { echo "FAIL: $f --format text1: exit $rc, not 1"; fail=1; }
  grep -q 'sqlite' "$tmp/err" || { echo "FAIL: $f: message does not say which format fits"; fail=1; }
  [ ! -e "$tmp/x.txt" ] || { echo "FAIL: $f: a file was written"; fail=1; }
done
exit $fail
