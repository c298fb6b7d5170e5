#!/usr/bin/env bash
# Bad PLIST text reports through the CLI: rows and figures that do not read
# are warnings naming the file, the line and the reason (the rest loads,
# exit 0); an unknown profile kind, or a file without a Profile line forced
# with --input-format plist-text, is an error naming the file (exit 2).
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
expect() { # file pattern what
  grep -qF -- "$2" "$1" || { echo "FAIL: $3: no '$2' in:"; cat "$1"; fail=1; }
}

# A logo before the Profile line, a bad time, a bad row, a bad count.
cat >"$tmp/bad.txt" <<'X'
Microsoft (R) Profile Lister

Profile: Function timing, sorted by time
Date:    Tue Nov 24 09:15:02 2026

Program Statistics
------------------
    Total time: 12,5 millisecond
    Call depth: 3

Module Statistics for a.exe
---------------------------
    Functions in module: two

        Func          Func+Child           Hit
        Time   %         Time      %      Count  Function
---------------------------------------------------------
       2.000  50.0        4.000 100.0        3 f(int) (a.obj)
       1.5x0  25.0        1.500  37.5        1 g(void) (a.obj)
       0.500  12.5        0.500  12.5       -1 h (a.obj)
X
rc=0
"$PROFVIEW" info "$tmp/bad.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 0 ] || { echo "FAIL: info exit $rc on a partly bad report"; fail=1; }
expect "$tmp/out" "format: plist-text" "detection after a logo line"
expect "$tmp/out" "warnings: 5" "warning count"
expect "$tmp/out" "bad.txt: line 3: 1 line before the Profile line is not part of the report: skipped" "logo"
expect "$tmp/out" "bad.txt: line 8: Total time: '12,5 millisecond' is not a time in milliseconds" "bad time"
expect "$tmp/out" "bad.txt: line 13: Functions in module: 'two' is not a count" "bad module count"
expect "$tmp/out" "bad.txt: line 19: not a row of a Function timing table (time, %, time with children, %, hit count, function): '1.5x0  25.0        1.500  37.5        1 g(void) (a.obj)'; the line is skipped" "bad row"
expect "$tmp/out" "bad.txt: line 20: not a row of a Function timing table" "negative count"
got=$("$PROFVIEW" cat "$tmp/bad.txt" --view routines --columns routine,module,exe,hits,time)
[ "$got" = "$(printf 'routine\tmodule\texe\thits\ttime\nf(int)\ta.obj\ta.exe\t3\t2000000')" ] \
  || { echo "FAIL: routines: $got"; fail=1; }

# A line report whose count does not read: a warning, the line is left out.
printf 'Profile: Line counting, sorted by line\nSource file: a.c\n    Line  Hit count      %%  Source\n--------------------------------------\n      8:        1x0    0.0  {\n      9:          2    0.0  }\n     10:                    // c\n' >"$tmp/lines.txt"
"$PROFVIEW" info "$tmp/lines.txt" >"$tmp/out" 2>&1
expect "$tmp/out" "warnings: 1" "line report warning count"
expect "$tmp/out" "lines.txt: line 5: '1x0' under the hit count column is not a count and a percentage; the line is read as a line without a count" "bad line count"
got=$("$PROFVIEW" cat "$tmp/lines.txt" --view lines --columns source,line,hits,text)
[ "$got" = "$(printf 'source\tline\thits\ttext\na.c\t9\t2\t}')" ] || { echo "FAIL: lines: $got"; fail=1; }

# An unknown kind: the loader says which kinds it knows.
printf 'Profile: Memory usage, sorted by size\nDate: x\n' >"$tmp/kind.txt"
rc=0
"$PROFVIEW" info "$tmp/kind.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for an unknown kind"; fail=1; }
expect "$tmp/out" "kind.txt: line 1: unknown profile 'Memory usage' (expected Function timing, Function counting, Function coverage, Line counting or Line coverage)" "unknown kind"

# Forced on something else.
printf 'just some text\nnothing else\n' >"$tmp/text.txt"
rc=0
"$PROFVIEW" info --input-format plist-text "$tmp/text.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for a file without a Profile line"; fail=1; }
expect "$tmp/out" "text.txt: line 1: not a PLIST text report: no 'Profile: KIND' line" "forced"

# A text report forced as /T: the message says what reads it.
rc=0
"$PROFVIEW" info --input-format plist "$PV_SOURCE_DIR/sample-data/plist-text-timing.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for a text report read as /T"; fail=1; }
expect "$tmp/out" "plist-text-timing.txt: line 1: no PLIST record (a line starting with a tag 0..10 and a tab) in the file; it is a PLIST text report (PLIST without /T): --input-format plist-text reads it" "forced as /T"

# A header and no table: loads, with a warning.
printf 'Profile: Line coverage, sorted by line\r\nDate: x\r\n' >"$tmp/empty.txt"
rc=0
"$PROFVIEW" info "$tmp/empty.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 0 ] || { echo "FAIL: exit $rc for a report without rows"; fail=1; }
expect "$tmp/out" "empty.txt: line 2: the report has no table rows" "no rows"

# Without a Profile line, detection does not take a report for one.
rc=0
"$PROFVIEW" info "$tmp/text.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for plain text"; fail=1; }
expect "$tmp/out" "PLIST /T or text report" "the list of formats"
[ $fail = 0 ] && echo "ok"
exit $fail
