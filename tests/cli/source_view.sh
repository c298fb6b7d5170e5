#!/usr/bin/env bash
# The source beside the numbers (docs/source.md): `cat --view source
# --parent ID` of an AQTime routine and line, a PLIST line report with and
# without its files, and winIDEA line and function areas, against source
# trees written here (Windows separators in the profiles, other case on
# disk, files deeper than the profile's path, a file that is missing).
# Every figure in the gutter is checked against the profile's own view.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
data=$PV_SOURCE_DIR/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/config HOME=$tmp/home
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# lines FILE N: a source file of N numbered lines
lines() { mkdir -p "$(dirname "$1")"; for i in $(seq 1 "$2"); do echo "$(basename "$1") line $i"; done > "$1"; }

# col TSV NAME: the column's number in the header of TSV
col() { head -1 "$1" | tr '\t' '\n' | grep -nx "$2" | cut -d: -f1; }
# cell TSV KEYCOL KEY COL: the cell of COL in the row whose KEYCOL is KEY
cell() { awk -F'\t' -v k="$(col "$1" "$2")" -v key="$3" -v c="$(col "$1" "$4")" 'NR > 1 && $k == key { print $c; exit }' "$1"; }

# ---- AQTime: routine 100 is `main` in src\unit0.cpp at line 10
db=$data/aqtime-trace.db
"$PROFVIEW" cat "$db" --view routines >"$tmp/routines.tsv"
src=$(cell "$tmp/routines.tsv" id 100 source)
[ "$src" = 'src\\unit0.cpp' ] || bad "aqtime routine 100's source is '$src'"
lines "$tmp/tree/Project/SRC/Unit0.CPP" 200
"$PROFVIEW" cat "$db" --view source --parent 100 --source-path "$tmp/tree" >"$tmp/src.tsv"
[ "$(head -1 "$tmp/src.tsv")" = $'line\ttext\troutine\thits\ttime\ttime_with_children' ] ||
  bad "aqtime source columns: $(head -1 "$tmp/src.tsv")"
[ "$(awk -F'\t' 'NR > 1 && $2 != ""' "$tmp/src.tsv" | wc -l)" = 200 ] || bad "aqtime source: not the 200 lines of the file"
[ "$(cell "$tmp/src.tsv" line 10 text)" = "Unit0.CPP line 10" ] || bad "aqtime source: line 10 is not the file's"
# every routine of src\unit0.cpp at its line, with its own figures
n=0
while IFS=$'\t' read -r id routine line hits time twc; do
  n=$((n + 1))
  got="$(cell "$tmp/src.tsv" line "$line" routine)|$(cell "$tmp/src.tsv" line "$line" hits)|$(cell "$tmp/src.tsv" line "$line" time)|$(cell "$tmp/src.tsv" line "$line" time_with_children)"
  [ "$got" = "$routine|$hits|$time|$twc" ] || bad "aqtime gutter at line $line: '$got', routine $id says '$routine|$hits|$time|$twc'"
done < <("$PROFVIEW" cat "$db" --view routines --columns id,routine,line,hits,time,time_with_children \
  --filter 'source = "src\\unit0.cpp"' | tail -n +2)
[ "$n" -ge 2 ] || bad "aqtime: only $n routines in src\\unit0.cpp"
[ "$fail" = 0 ] && ok "aqtime routine: the file found by its tail in another case, $n routines in the gutter"

# an AQTime line: the routine each line belongs to
"$PROFVIEW" cat "$db" --view lines >"$tmp/alines.tsv"
lid=$(awk -F'\t' 'NR > 1 && $2 == "main" { print $1; exit }' "$tmp/alines.tsv")
"$PROFVIEW" cat "$db" --view source --of lines --parent "$lid" --source-path "$tmp/tree" >"$tmp/lsrc.tsv"
want=$(awk -F'\t' 'NR > 1 && $2 == "main" { print $4 }' "$tmp/alines.tsv" | sort -n | tr '\n' ' ')
got=$(awk -F'\t' 'NR > 1 && $3 == "main" { print $1 }' "$tmp/lsrc.tsv" | sort -n | tr '\n' ' ')
[ -n "$want" ] && [ "$want" = "$got" ] && ok "aqtime line: main's lines ($want) marked" ||
  bad "aqtime line: main's lines are '$want', the gutter marks '$got'"
# two views offer `source` and both have a row 1: --of says which
if "$PROFVIEW" cat "$db" --view source --parent 100 --of nosuch 2>"$tmp/err" >/dev/null; then
  bad "--of a view without the detail succeeded"
fi

# a missing file says where it looked, exit 2
lines "$tmp/other/readme.txt" 3
set +e
"$PROFVIEW" cat "$db" --view source --parent 101 --source-path "$tmp/tree" --source-path "$tmp/other" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
if [ "$rc" = 2 ] && grep -q 'unit1.cpp: not found under .*/tree, .*/other' "$tmp/err"; then
  ok "a missing file: exit 2 and where it looked"
else
  bad "a missing file: exit $rc, '$(cat "$tmp/err")'"
fi

# ---- PLIST line report without its files: the report's own text, with
# the lines that have no count; with the file: the file's text
rep=$data/plist-line-count.report.txt
"$PROFVIEW" cat "$rep" --view lines >"$tmp/plines.tsv"
"$PROFVIEW" cat "$rep" --view source --parent 1 >"$tmp/p1.tsv"
first=$(cell "$tmp/plines.tsv" id 1 line)
[ "$(cell "$tmp/p1.tsv" line 3 text)" = "    // nothing to run here" ] ||
  bad "plist without files: line 3 (no count) is '$(cell "$tmp/p1.tsv" line 3 text)'"
m=0
while IFS=$'\t' read -r line hits; do
  m=$((m + 1))
  [ "$(cell "$tmp/p1.tsv" line "$line" hits)" = "$hits" ] || bad "plist gutter at line $line: $(cell "$tmp/p1.tsv" line "$line" hits), the lines view says $hits"
done < <("$PROFVIEW" cat "$rep" --view lines --columns line,hits --filter 'source = "main.c"' | tail -n +2)
[ "$m" -ge 5 ] && ok "plist without files: the report's text and the $m counted lines of main.c" ||
  bad "plist: only $m lines of main.c"
lines "$tmp/plist/sub/dir/MAIN.c" 90
"$PROFVIEW" cat "$rep" --view source --parent 1 --source-path "$tmp/plist" >"$tmp/p2.tsv"
[ "$(cell "$tmp/p2.tsv" line "$first" text)" = "MAIN.c line $first" ] &&
  [ "$(($(wc -l <"$tmp/p2.tsv") - 1))" -ge 90 ] &&
  ok "plist with the file (found deeper than its path, another case): the file's text" ||
  bad "plist with the file: line $first is '$(cell "$tmp/p2.tsv" line "$first" text)'"
# the config's source_paths
mkdir -p "$tmp/config/profview"
printf 'source_paths:\n  - %s/nothing\n  - %s/plist\n' "$tmp" "$tmp" >"$tmp/config/profview/config.yaml"
"$PROFVIEW" cat "$rep" --view source --parent 1 >"$tmp/p3.tsv"
cmp -s "$tmp/p2.tsv" "$tmp/p3.tsv" && ok "the config's source_paths" || bad "the config's source_paths are not searched"
rm "$tmp/config/profview/config.yaml"

# ---- winIDEA: the rtos sample with %FILE% on its line areas (Windows
# paths), one file on disk and one missing
awk '
  /^\* HANDLE\(Functions\)/ { print "* HANDLE(Functions) %HANDLE%,%VALUE%,%FILE%,%NAME%"; fn = 1; next }
  /^\*/ { fn = 0 }
  fn && /^[01]/ {
    h = substr($0, 1, 8); rest = substr($0, 10)
    v = rest; sub(/.*,/, "", v); name = rest; sub(/,[^,]*$/, "", name)
    f = ""; if (h ~ /^1/) f = (v >= 350 && v < 400) ? "C:\\Work\\App\\test.c" : "C:\\Work\\App\\Src\\Tasks.C"
    print h "," v "," f "," name; next }
  { print }' "$data/rtos.txt" >"$tmp/rtos.txt"
lines "$tmp/wtree/app/src/tasks.c" 500
"$PROFVIEW" cat "$tmp/rtos.txt" --view lines >"$tmp/wlines.tsv"
lid=$(awk -F'\t' 'NR > 1 && $4 == 111 { print $1; exit }' "$tmp/wlines.tsv")
"$PROFVIEW" cat "$tmp/rtos.txt" --view source --parent "$lid" --source-path "$tmp/wtree" >"$tmp/w1.tsv"
"$PROFVIEW" cat "$tmp/rtos.txt" --view statistics >"$tmp/wstats.tsv"
k=0
while IFS=$'\t' read -r id line hits; do
  k=$((k + 1))
  [ "$(cell "$tmp/w1.tsv" line "$line" hits)" = "$hits" ] || bad "winidea gutter at line $line: $(cell "$tmp/w1.tsv" line "$line" hits), lines says $hits"
done < <(awk -F'\t' -v l="$(col "$tmp/wlines.tsv" line)" -v h="$(col "$tmp/wlines.tsv" hits)" -v f="$(col "$tmp/wlines.tsv" file)" \
  'NR > 1 && $f ~ /Tasks/ { print $1 "\t" $l "\t" $h }' "$tmp/wlines.tsv")
[ "$(cell "$tmp/w1.tsv" line 111 text)" = "tasks.c line 111" ] && [ "$k" -ge 8 ] &&
  ok "winidea line area: the file by its tail, the $k line areas' hits" ||
  bad "winidea line area: line 111 is '$(cell "$tmp/w1.tsv" line 111 text)', $k areas"
# a function area: its file at its first line area
"$PROFVIEW" cat "$tmp/rtos.txt" --view routines >"$tmp/wr.tsv"
rid=$(cell "$tmp/wr.tsv" routine Task_Control id)
"$PROFVIEW" cat "$tmp/rtos.txt" --view source --parent "$rid" --of routines --source-path "$tmp/wtree" >"$tmp/w2.tsv"
cmp -s "$tmp/w1.tsv" "$tmp/w2.tsv" && ok "winidea function area: its file" || bad "winidea function area's source differs from its line's"
# the missing file (test.c): the line areas' own names, by line
lid=$(awk -F'\t' 'NR > 1 && $4 == 351 { print $1; exit }' "$tmp/wlines.tsv")
"$PROFVIEW" cat "$tmp/rtos.txt" --view source --parent "$lid" --source-path "$tmp/wtree" >"$tmp/w3.tsv"
[ "$(cell "$tmp/w3.tsv" line 351 text)" = "s_eMode = MODE_RUN;" ] &&
  ok "winidea without the file: the line areas' names" || bad "winidea without the file: '$(cat "$tmp/w3.tsv")'"

[ "$fail" = 0 ] && echo "PASS: source view" || exit 1
