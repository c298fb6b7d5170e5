#!/usr/bin/env bash
# trace-json from the viewer (docs/tui.md "Export", docs/export.md "Trace
# Event Format"): :export of the call trace, and the dialog's trace-json
# with the call trace's filter, write what `profview export --format
# trace-json` writes for the same selection; markers A and B go in as
# instants.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
TO_CALLS=$'Shift-Tab\nj j j j j\nTab'

# 1. :export trace-json from the call trace: the whole result set
screen=$(pv_screen "$TO_CALLS"$'\n:export trace-json '"$TMP/all.json"$'\nEnter' --size 120x30 "$RTOS")
expect_contains ":export reported" "$screen" "to $TMP/all.json (trace-json)"
"$PROFVIEW" export "$RTOS" --format trace-json -o "$TMP/cli.json"
cmp "$TMP/all.json" "$TMP/cli.json" || fail ":export trace-json differs from profview export"
echo "ok: :export trace-json equals the command line's"

# 2. the dialog: a filter on the call trace, the format moved to
#    trace-json (Down to Format, Right Right from Text1), its own extension
keys="$TO_CALLS"$'\nf\nroutine = "CRC_Calc"\nEnter\ne\nDown Right Right Up\n<Dump>\nCtrl-U\n'"$TMP/crc.json"$'\nEnter'
screen=$(pv_screen "$keys" --size 120x30 "$RTOS")
first=$(sed -n '1,/^----$/p' "$TMP/screen")
expect_contains "trace-json chosen" "$first" "[trace-json]"
expect_contains "the filter preselected" "$first" 'Filter  [x] routine = "CRC_Calc"'
expect_contains "the path follows the format" "$first" "-export.json"
expect_contains "export reported" "$screen" "to $TMP/crc.json (trace-json)"
"$PROFVIEW" export "$RTOS" --format trace-json --filter 'routine = "CRC_Calc"' -o "$TMP/cli-crc.json"
cmp "$TMP/crc.json" "$TMP/cli-crc.json" || fail "the dialog's filtered trace-json differs from profview export --filter"
echo "ok: the dialog's filtered trace-json equals the command line's"

# 3. markers A and B on the timeline: instants at their times
"$PROFVIEW" cat "$RTOS" --view timeline --columns time > "$TMP/times.tsv"
a=$(sed -n 12p "$TMP/times.tsv")
b=$(sed -n 32p "$TMP/times.tsv")
keys=$'Shift-Tab\nj j j j\nTab\nj j j j j j j j j j\nm\n:goto #31<Enter>\nM\n:export trace-json '"$TMP/win.json"$'\nEnter'
screen=$(pv_screen "$keys" --size 120x30 "$RTOS")
expect_contains "windowed export reported" "$screen" "between A and B"
python3 - "$TMP/win.json" "$a" "$b" <<'PY' || fail "the markers are not instants at their times"
import decimal, json, sys
d = json.load(open(sys.argv[1]), parse_float=decimal.Decimal)
inst = {e["name"]: int(e["ts"] * 1000) for e in d["traceEvents"] if e["ph"] == "i"}
a, b = int(sys.argv[2]), int(sys.argv[3])
assert inst == {"marker A": a, "marker B": b}, inst
calls = [e for e in d["traceEvents"] if e["ph"] == "X" and e["cat"] == "call"]
assert calls, "no call"
for e in calls:  # every call written meets the window
    ts, end = int(e["ts"] * 1000), int((e["ts"] + e["dur"]) * 1000)
    assert ts <= b and end >= a, (e, a, b)
PY
echo "ok: markers as instants, calls of the window"
