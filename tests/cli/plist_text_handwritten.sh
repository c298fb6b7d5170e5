#!/usr/bin/env bash
# A hand-written PLIST text report in the layout PLIST prints without /T
# (sample-data/plist-text-timing.txt: two modules, a wrapped template name,
# a page break repeating the titles, decorated, `operator` and spaced names,
# a module glued to its name, trailing TAB and spaces), checked figure by
# figure: the header and Program Statistics, each module's statistics and
# every row.  Then a hand-written line report (CRLF, lines without a count).
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
f=$PV_SOURCE_DIR/sample-data/plist-text-timing.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected actual
  if [ "$2" != "$3" ]; then
    echo "FAIL: $1"; diff <(printf '%s\n' "$2") <(printf '%s\n' "$3") | head -30; fail=1
  else
    echo "ok: $1"
  fi
}

"$PROFVIEW" info "$f" >"$tmp/info"
grep -q "format: plist-text" "$tmp/info" || { echo "FAIL: not detected"; cat "$tmp/info"; fail=1; }
grep -q "warnings" "$tmp/info" && { echo "FAIL: warnings"; cat "$tmp/info"; fail=1; }
grep -q "note: a text report carries no attribution stacks" "$tmp/info" || { echo "FAIL: no note"; fail=1; }

# Summary: totals of the Program Statistics (times in ns), then the totals
# of the rows: 6 of 8 functions ran (75.0%), 1234 hits, 1500 ms in them.
check summary "$(cat <<'X'
key	value
format	plist-text
profile	function timing
profile header	Function timing, sorted by time
sort order	time
date	Tue Nov 24 09:15:02 2026
command line date	2026 Nov 24 09:15
command line	"C:\\work\\demo app\\Debug\\app.exe" --frames 60
total functions	8
function coverage	75.0%
overhead calculated	5
overhead average	6
profile kind	function
total time	1500250000
outside time	250000
time in functions	1500000000
call depth	4
total hits	1234
routines	8
routines executed	6
routines never executed	2
routine coverage percent	75.00
routine hits	1234
routine time	1500000000
modules	2
note	a text report carries no attribution stacks: call-trace, stacks, callers and callees need the PLIST /T output of the same run
X
)" "$("$PROFVIEW" cat "$f" --view summary --columns key,value | grep -v '^file	')"

# Module Statistics, as written; `rows` = the table rows read for each.
check modules "$(cat <<'X'
module	time	percent_time	units	hits	coverage_percent	rows
app.exe	1200000000	80	5	1034	80	5
render.dll	300000000	20	3	200	66.7	3
X
)" "$("$PROFVIEW" cat "$f" --view modules --columns module,time,percent_time,units,hits,coverage_percent,rows)"

# Every row: the name as written (wrapped name joined, module split off),
# the module in parentheses, the block's executable, times in ns.
check routines "$(cat <<'X'
routine	module	exe	hits	time	time_with_children	covered	file_line
main	app.obj	app.exe	1	800000000	1200000000	1	28
?Render@CView@@UAEXPAVCDC@@@Z	view.obj	app.exe	900	250500000	350500000	1	29
std::vector<int,std::allocator<int> >::push_back(int const &)	app.obj	app.exe	100	100000000	100000000	1	30
operator new(unsigned int)	app.obj	app.exe	33	49500000	49500000	1	36
Never Called(void)	app.obj	app.exe	0	0	0	0	37
CRenderer::DrawFrame(int, int)	render.obj	render.dll	150	299990000	299990000	1	50
LoadCursorA@8	user32.def	render.dll	50	10000	10000	1	51
_SetCursor@4	user32.def	render.dll	0	0	0	0	52
X
)" "$("$PROFVIEW" cat "$f" --view routines --columns routine,module,exe,hits,time,time_with_children,covered,file_line)"

# The module figures agree with the rows (a check of the file itself).
"$PROFVIEW" sql "$f" "SELECT exe, sum(time), sum(hits), count(*), sum(covered) FROM routines GROUP BY exe ORDER BY exe" >"$tmp/sums"
check "module sums" "$(printf 'exe\tsum(time)\tsum(hits)\tcount(*)\tsum(covered)\napp.exe\t1200000000\t1034\t5\t4\nrender.dll\t300000000\t200\t3\t2')" "$(cat "$tmp/sums")"

# No call-trace, stacks or callers in a text report.
for v in call-trace stacks; do
  rc=0; "$PROFVIEW" cat "$f" --view "$v" >/dev/null 2>&1 || rc=$?
  [ $rc != 0 ] || { echo "FAIL: a text report has a $v view"; fail=1; }
done

# A line counting report by hand: CRLF, a BOM, two modules, two source
# files in the first, lines without a count (left out), a source text with
# colons and `%`.
printf '\xef\xbb\xbfProfile: Line counting, sorted by line\r\nDate:    Tue Nov 24 10:00:00 2026\r\n\r\nProgram Statistics\r\n------------------\r\n    Command line at 2026 Nov 24 10:00: "t.exe"\r\n    Total lines: 5\r\n    Total hits: 2009\r\n    Line coverage: 80.0%%\r\n\r\nModule Statistics for t.exe\r\n---------------------------\r\n    Lines in module: 4\r\n    Hits in module: 2004\r\n    Module line coverage: 75.0%%\r\n\r\nSource file: c:\\t\\a b.cpp\r\n\r\n    Line  Hit count      %%  Source\r\n--------------------------------------\r\n      8:          1    0.0  {\r\n      9:                        long lX;\r\n     11:       1000   49.9      lX = 57L;\r\n     12:          0    0.0      x = a ? b : c; // 50%% off\r\n\r\nSource file: c:\\t\\b.cpp\r\n\r\n    Line  Hit count      %%  Source\r\n--------------------------------------\r\n      3:       1003   49.9  }\r\n\r\nModule Statistics for u.dll\r\n---------------------------\r\n    Lines in module: 1\r\n    Hits in module: 5\r\n    Module line coverage: 100.0%%\r\n\r\nSource file: u.c\r\n\r\n    Line  Hit count      %%  Source\r\n--------------------------------------\r\n      7:          5    0.2  return 0;\r\n' >"$tmp/lines.txt"
"$PROFVIEW" info "$tmp/lines.txt" >"$tmp/info"
grep -q "format: plist-text" "$tmp/info" && ! grep -q warnings "$tmp/info" || { echo "FAIL: line report"; cat "$tmp/info"; fail=1; }
check "line rows" "$(printf 'exe\tsource\tline\thits\tcovered\ttext\nt.exe\tc:\\\\t\\\\a b.cpp\t8\t1\t1\t{\nt.exe\tc:\\\\t\\\\a b.cpp\t11\t1000\t1\t    lX = 57L;\nt.exe\tc:\\\\t\\\\a b.cpp\t12\t0\t0\t    x = a ? b : c; // 50%% off\nt.exe\tc:\\\\t\\\\b.cpp\t3\t1003\t1\t}\nu.dll\tu.c\t7\t5\t1\treturn 0;')" \
  "$("$PROFVIEW" cat "$tmp/lines.txt" --view lines --columns exe,source,line,hits,covered,text)"
check "line summary" "$(printf 'total lines\t5\nline coverage\t80.0%%\ntotal hits\t2009\nlines\t5\nlines executed\t4\nline hits\t2009')" \
  "$("$PROFVIEW" cat "$tmp/lines.txt" --view summary --columns key,value | grep -E '^(total lines|line coverage|total hits|lines|lines executed|line hits)'$'\t')"
check "line modules" "$(printf 'module\tunits\thits\tcoverage_percent\trows\nt.exe\t4\t2004\t75\t4\nu.dll\t1\t5\t100\t1')" \
  "$("$PROFVIEW" cat "$tmp/lines.txt" --view modules --columns module,units,hits,coverage_percent,rows)"
exit $fail
