#!/usr/bin/env python3
"""Writes tests/screen/scripted_views.sh: the cases below with the screens
profview draws for them now.  Run from the source tree after a change that
moves pixels on purpose:  python3 tests/screen/regen-golden.py [BUILD_DIR]
then READ the diff of scripted_views.sh screen by screen before committing:
a golden screen is only a test if a person checked it once."""
import subprocess, os, sys
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
B = os.path.abspath(os.path.join(sys.argv[1] if len(sys.argv) > 1 else "build", "profview"))
cases = [
 ("table_details", "plist-func-timing.txt", "80x24", [], "Shift-Tab j Tab j", "Routines table: the selected routine's callers in Details"),
 ("tree_collapse", "plist-func-timing.txt", "80x24", [], "Shift-Tab j j Tab j j Space", "Call-trace tree: a node collapsed with Space"),
 ("details_tabs", "plist-func-timing.txt", "80x24", [], "Shift-Tab j Tab j Tab Right", "Details focused, Right switches to the Callees tab"),
 ("help", "plist-func-timing.txt", "80x24", [], "?", "The help screen: the live key table"),
 ("filter_error_caret", "plist-func-timing.txt", "80x24", [], "Shift-Tab j Tab\n:filter hits>50<Enter>\n:filter hits>>3<Enter>", "A bad filter: the caret message, and the previous filter stays"),
 ("filter_and_sort", "plist-func-timing.txt", "80x24", [], "Shift-Tab j Tab\nf\nhits>50 && time>70ms<Enter>\nS j j Enter", "Filter with f, sort chosen with S (ascending module)"),
 ("zoom", "plist-func-timing.txt", "80x24", [], "Shift-Tab j Tab z", "z zooms the focused pane"),
 ("hscroll", "plist-func-timing.txt", "80x24", [], "Shift-Tab j Tab l l", "l scrolls the columns"),
 ("timeline_call_stack", "rtos.txt", "100x30", [], "Shift-Tab\nj j j j\nTab j j", "winIDEA timeline: the call stack at the selected event"),
 ("timeline_lanes", "rtos.txt", "100x40", [], "Shift-Tab\nj j j j\nTab\n:goto #1500<Enter>\nj j j", "winIDEA timeline: the lane strip (a lane per context, the cursor column at the selected event)"),
 ("timeline_lanes_ascii", "rtos.txt", "100x40", ["--ascii"], "Shift-Tab\nj j j j\nTab\n:goto #1500<Enter>\nj j j", "The lane strip in ASCII: # for events, | for the cursor"),
 ("call_trace_events_ascii", "rtos.txt", "100x30", ["--ascii"], "Shift-Tab\nj j j j j\nTab\nj j j Enter", "winIDEA call trace in ASCII, grouped by context: Enter collapses a call, Details shows its events"),
 ("call_trace_drill_ascii", "rtos.txt", "100x30", ["--ascii"], "Shift-Tab\nj j j j j\nTab\nj j Enter", "Enter on a leaf call drills down: its events become the Report"),
 ("aqtime_objects_refcount_tree", "aqtime-refcount.db", "100x30", [], "Shift-Tab j j Tab j j\nTab Right Right", "AQTime reference counts: the object's ref-count call tree tab (a tree in Details)"),
 ("aqtime_second_result_set", "aqtime-trace.db", "100x30", [], "Shift-Tab\nG k k k\nTab", "AQTime function trace, second result set: the call trace grouped by thread, its lane strip a lane per thread over the rows' order"),
 ("aqtime_trace_lanes_ascii", "aqtime-trace.db", "100x30", ["--ascii"], "Shift-Tab\nj j\nTab\nj j j j j j j", "AQTime call trace in ASCII: the lane strip (a lane per thread over the rows' order, the cursor column at the selected call)"),
]
parts = ['''#!/usr/bin/env bash
# Golden screens of the viewer, driven by the scripted-keys mode (tig's
# habit: keys, a fixed screen size, the exact screen).  One case per pane and
# view kind: table, tree, details tabs, help, filter error with its caret,
# filter and sort, zoom, horizontal scroll, a winIDEA timeline and call
# trace and AQTime databases (other formats, same generic rendering), ASCII
# line drawing.  Written by regen-golden.py; every screen was read by a person.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
need_sample rtos.txt
need_sample aqtime-refcount.db
need_sample aqtime-trace.db
cd "$SAMPLES"  # the summary view shows the path as given
''']
for name, f, size, extra, keys, what in cases:
    env = dict(os.environ, LC_ALL="C.UTF-8", XDG_CONFIG_HOME="/nonexistent")
    keyfile = os.path.abspath("build/.regen-keys")
    open(keyfile, "w").write(keys + "\n")
    out = subprocess.run([B, f, "--keys", keyfile, "--size", size, "--dump", "-"] + extra,
                         env=env, capture_output=True, text=True, cwd="sample-data").stdout
    out = out.rstrip("\n")
    ex = " ".join(extra)
    k = keys.replace("\n", "\\n")
    parts.append(f'''
# {what}
expected=$(cat <<'SCREEN'
{out}
SCREEN
)
expect_screen {name} "$(pv_screen $'{k}' {f} --size {size}{(' '+ex) if ex else ''})" "$expected"
''')
parts.append('''
# <Dump> writes intermediate screens; Backspace returns from a drill-down.
s=$(pv_screen $'Shift-Tab j Tab j\\n<Dump>\\nEnter\\n<Dump>\\nBackspace' plist-func-timing.txt --size 80x24)
[ "$(printf '%s\\n' "$s" | grep -c '^----$')" = 2 ] || fail "two <Dump> separators expected"
first=$(awk '/^----$/ { f = 1 } !f { print }' <<<"$s")
last=$(printf '%s\\n' "$s" | awk 'f == 2 { print } /^----$/ { f++ }')
expect_contains "drill-down shows the callers as the report" "$(printf '%s\\n' "$s" | awk 'f == 1 { print } /^----$/ { f++ }')" "Report: Callers of "
expect_screen back_returns "$last" "$first"

# Every view of every sample (every format, every result set) opens and
# draws: walk the Explorer with a <Dump> per item, then look for each view
# id of `profview info` in a status bar.
for f in *.txt *.db; do
  ids=$("$PROFVIEW" info --json "$f" | grep -o '"id":"[a-z-]*"' | cut -d'"' -f4 | sort -u)
  items=$("$PROFVIEW" info --json "$f" | grep -o '"id":' | wc -l)
  keys=$'Shift-Tab\n<Dump>'
  for ((i = 0; i < items + 2; i++)); do keys="$keys"$'\nj\n<Dump>'; done
  s=$(pv_screen "$keys" "$f" --size 90x26)
  for id in $ids; do
    case "$s" in *"│ $id │"*) ;; *) fail "$f: view $id never shown" ;; esac
  done
done
echo "ok: every view of every sample draws"
echo PASS
''')
open("tests/screen/scripted_views.sh","w").write("".join(parts))
