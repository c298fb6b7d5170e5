#!/usr/bin/env bash
# The Trace Event Format export (docs/export.md "Trace Event Format"):
# generated timelines (Text1 and BIN) with every selection, AQTime and
# PLIST call trees (placed by their siblings' times), hostile names; each
# file read by a JSON reader and checked against `profview cat`
# (trace_json_check.py: one X event per call on its context's track, ts/dur
# exact, nesting of calls and line activations, counters equal to the
# value histories, markers).
set -euo pipefail
pv=${PROFVIEW:?}
: "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
src=$PV_SOURCE_DIR/sample-data
check=$PV_SOURCE_DIR/tests/cli/trace_json_check.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# export FILE OUT [EXPORT-ARGS...] -- [CHECK-ARGS...] [-- CAT-ARGS]
run() {
  local file=$1 out=$2
  shift 2
  local exp=()
  while [ $# -gt 0 ] && [ "$1" != -- ]; do exp+=("$1"); shift; done
  [ $# -gt 0 ] && shift
  if ! "$pv" export "$file" --format trace-json -o "$out" "${exp[@]}"; then
    echo "FAIL: export $file ${exp[*]}"; fail=1; return
  fi
  python3 "$check" "$pv" "$out" "$file" "$@" || { echo "FAIL: ^ export $file ${exp[*]}"; fail=1; }
}

"$PV_BUILD_DIR/pv_gen_winidea" --seed 3 --events 4000 --format text-ctx -o "$tmp/ctx.txt"
"$PV_BUILD_DIR/pv_gen_winidea" --seed 7 --events 4000 --format text -o "$tmp/text.txt"
"$PV_BUILD_DIR/pv_gen_winidea" --seed 10 --events 4000 --tasks 3 --format bin11 -o "$tmp/bin.txt"
"$PV_BUILD_DIR/pv_gen_aqtime" --scale trace 3000 "$tmp/trace.db"

# 1. timelines, whole and with each selection
for f in ctx text bin; do
  in=$tmp/$f.txt
  run "$in" "$tmp/$f.json" -- --lines
  ctx=$("$pv" cat "$in" --view contexts --columns name | sed -n 3p)
  run "$in" "$tmp/$f-ctx.json" --context "$ctx" -- --lines -- --context "$ctx"
  run "$in" "$tmp/$f-filter.json" --filter 'routine = "CRC_Calc"' -- -- --filter 'routine = "CRC_Calc"'
  run "$in" "$tmp/$f-areas.json" --areas 'Task_*' -- -- --areas 'Task_*'
  run "$in" "$tmp/$f-window.json" --from 20us --to 90us -- --lines --markers 20000 90000 -- --from 20us --to 90us
  run "$in" "$tmp/$f-all.json" --from 20us --to 300us --context "$ctx" --filter 'depth >= 1' \
    -- --markers 20000 300000 -- --from 20us --to 300us --context "$ctx" --filter 'depth >= 1'
done

# 2. call traces without a clock: every result set, one, a thread
run "$src/aqtime-trace.db" "$tmp/aq.json" -- --placed
run "$src/aqtime-trace.db" "$tmp/aq2.json" --instance 2 -- --placed -- --instance 2
run "$tmp/trace.db" "$tmp/gen-aq.json" -- --placed
thread=$("$pv" cat "$tmp/trace.db" --view threads --columns thread | sed -n 3p)
run "$tmp/trace.db" "$tmp/gen-aq-thread.json" --context "$thread" -- --placed -- --context "$thread"
run "$src/plist-func-timing.txt" "$tmp/plist.json" -- --placed
# a window has no meaning on places: no markers
"$pv" export "$src/aqtime-trace.db" --format trace-json --from 1ms --to 2ms -o "$tmp/aq-win.json"
! grep -q '"ph":"i"' "$tmp/aq-win.json" || { echo "FAIL: markers on a trace without a clock"; fail=1; }
# ... and the file says how its calls were placed
grep -q '"none: the call trace has no clock; each call is placed by the cumulative time_with_children' "$tmp/aq.json" ||
  { echo "FAIL: an AQTime trace's metadata does not say how its calls are placed"; fail=1; }
grep -q '"recorded: ts is each call' "$tmp/ctx.json" ||
  { echo "FAIL: a timeline's metadata does not say its clock"; fail=1; }

# 3. hostile names (C0, DEL, C1, invalid UTF-8, quote, backslash, U+2028)
#    in a routine, a context and a variable: the file is valid JSON (the
#    checker's reader is strict) and the names read back as escaped
python3 - "$src/rtos-ctx.txt" "$tmp/hostile.txt" <<'EOF'
import sys
s = open(sys.argv[1], "rb").read()
s = s.replace(b"CRC_Calc", b"CRC\x01\x7f\xc2\x85\xff\\\"x")
s = s.replace(b"ID_TASK_FAST", b"ID\x02FAST\xe2\x80\xa8").replace(b"iCounter", b"iC\x1b[31m")
open(sys.argv[2], "wb").write(s)
EOF
run "$tmp/hostile.txt" "$tmp/hostile.json" -- --lines
python3 - "$tmp/hostile.json" <<'EOF' || fail=1
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
names = {e["name"] for e in d["traceEvents"]}
tracks = {e["args"]["name"] for e in d["traceEvents"] if e["name"] == "thread_name"}
for want, where in (("CRC\x01\x7f\x85\xff\\\"x", names), ("iC\x1b[31m", names),
                    ("ID\x02FAST\u2028", tracks)):
    if want not in where:
        print("FAIL: hostile name %r not read back" % want)
        sys.exit(1)
EOF

# 4. refused: a file without calls or timeline, another view, the input's
#    partner as the output; nothing written
set +e
"$pv" export "$src/aqtime-resource.db" --format trace-json -o "$tmp/no.json" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q 'trace-json writes calls and timelines' "$tmp/err" && [ ! -e "$tmp/no.json" ] ||
  { echo "FAIL: a resource profile: exit $rc, $(cat "$tmp/err")"; fail=1; }
set +e
"$pv" export "$tmp/ctx.txt" --format trace-json --view routines -o "$tmp/no.json" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 1 ] && grep -q 'trace-json writes the call trace' "$tmp/err" && [ ! -e "$tmp/no.json" ] ||
  { echo "FAIL: --view routines: exit $rc, $(cat "$tmp/err")"; fail=1; }
cp "$tmp/bin.txt.BIN" "$tmp/bin.before"
set +e
"$pv" export "$tmp/bin.txt" --format trace-json --force -o "$tmp/bin.txt.BIN" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -eq 3 ] && cmp -s "$tmp/bin.before" "$tmp/bin.txt.BIN" ||
  { echo "FAIL: -o the input's .BIN: exit $rc, $(cat "$tmp/err")"; fail=1; }

exit $fail
