#!/usr/bin/env bash
# The generator's text reports (PLIST without /T: every kind and sort order,
# wrapped names, page breaks, two modules, CRLF) load without warnings as
# plist-text, and give the same routines and lines as the /T file of the same
# run, to the report's precision (times in microseconds): routines compared
# as sets (a report is sorted), lines in order, and the summary's figures.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}"
data=$PV_SOURCE_DIR/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # name expected actual
  if ! diff -u "$2" "$3" >"$tmp/diff"; then
    echo "FAIL: $1"; head -30 "$tmp/diff"; fail=1
  else
    echo "ok: $1"
  fi
}
# Times (ns) rounded half up to microseconds, as the report writes them.
round_us='BEGIN { FS = OFS = "\t" } { for (i = 1; i <= NF; i++) if (i in t && $i != "") $i = int(($i + 500) / 1000) * 1000; print }'

reports=0
# report  /T file  routine columns (times last)
while read -r report tfile cols ntimes; do
  r=$data/$report t=$data/$tfile
  reports=$((reports + 1))
  "$PROFVIEW" info "$r" --json >"$tmp/info.json"
  grep -q '"format":"plist-text"' "$tmp/info.json" || { echo "FAIL: $report not detected as plist-text"; fail=1; }
  grep -q '"warning_count":0' "$tmp/info.json" || { echo "FAIL: $report has warnings"; "$PROFVIEW" info "$r"; fail=1; }
  nf=$(awk -F, '{ print NF }' <<<"$cols")
  tcols=""
  for ((i = nf - ntimes + 1; i <= nf; i++)); do tcols="$tcols t[$i];"; done
  awk_prog="BEGIN { $tcols } $round_us"
  "$PROFVIEW" cat "$t" --view routines --columns "$cols" | tail -n +2 | awk "$awk_prog" | LC_ALL=C sort >"$tmp/want"
  "$PROFVIEW" cat "$r" --view routines --columns "$cols" | tail -n +2 | LC_ALL=C sort >"$tmp/got"
  [ -s "$tmp/want" ] || { echo "FAIL: $tfile has no routines"; fail=1; }
  check "$report routines = $tfile routines" "$tmp/want" "$tmp/got"
done <<'EOF'
plist-func-timing.report-time.txt plist-func-timing.txt exe,module,routine,hits,covered,time,time_with_children 2
plist-func-timing.report-name.txt plist-func-timing.txt exe,module,routine,hits,covered,time,time_with_children 2
plist-func-timing.report-counts.txt plist-func-timing.txt exe,module,routine,hits,covered,time,time_with_children 2
plist-func-count.report.txt plist-func-count.txt exe,module,routine,hits,covered 0
plist-func-coverage.report.txt plist-func-coverage.txt exe,module,routine,hits,covered 0
EOF

for base in plist-line-count plist-line-coverage plist-line-modules; do
  r=$data/$base.report.txt
  reports=$((reports + 1))
  "$PROFVIEW" info "$r" --json >"$tmp/info.json"
  grep -q '"warning_count":0' "$tmp/info.json" || { echo "FAIL: $base.report.txt has warnings"; "$PROFVIEW" info "$r"; fail=1; }
  "$PROFVIEW" cat "$data/$base.txt" --view lines --columns exe,source,line,hits,covered >"$tmp/want"
  "$PROFVIEW" cat "$r" --view lines --columns exe,source,line,hits,covered >"$tmp/got"
  check "$base.report.txt lines = $base.txt lines" "$tmp/want" "$tmp/got"
  # every row has its source text, and the generator's tab and empty-text rules hold
  "$PROFVIEW" cat "$r" --view lines --columns text | tail -n +2 | grep -c . >"$tmp/n" || true
  [ "$(cat "$tmp/n")" = "$(($(wc -l <"$tmp/got") - 1))" ] || { echo "FAIL: $base: a counted line without text"; fail=1; }
done
# the tab at the start of a source line is kept (`\t` in cat's escaping)
"$PROFVIEW" cat "$data/plist-line-count.report.txt" --view lines --columns text | grep -q '^\\tif (count > limit) {$' \
  || { echo "FAIL: the source text with a tab is not kept as written"; fail=1; }

# The summary: the figures both forms carry, the same.
for pair in plist-func-timing.report-time.txt:plist-func-timing.txt \
            plist-func-count.report.txt:plist-func-count.txt \
            plist-func-coverage.report.txt:plist-func-coverage.txt \
            plist-line-count.report.txt:plist-line-count.txt \
            plist-line-coverage.report.txt:plist-line-coverage.txt \
            plist-line-modules.report.txt:plist-line-modules.txt; do
  r=$data/${pair%%:*} t=$data/${pair##*:}
  keys='^(profile|profile kind|call depth|total hits|routines|routines executed|routines never executed|routine hits|lines|lines executed|lines never executed|line hits)'$'\t'
  # (a report leaves out what its kind does not print: line reports have
  # no call depth, coverage reports no total hits)
  "$PROFVIEW" cat "$r" --view summary --columns key,value | grep -E "$keys" | LC_ALL=C sort >"$tmp/got"
  "$PROFVIEW" cat "$t" --view summary --columns key,value | grep -E "$keys" | LC_ALL=C sort \
    | awk -F'\t' 'NR == FNR { have[$1] = 1; next } $1 in have' "$tmp/got" - >"$tmp/want"
  [ "$(wc -l <"$tmp/got")" -ge 6 ] || { echo "FAIL: ${pair%%:*}: only $(wc -l <"$tmp/got") summary figures"; fail=1; }
  check "${pair%%:*} summary = ${pair##*:} summary" "$tmp/want" "$tmp/got"
  # `units` of /T is `total functions` / `total lines` of the report
  u=$("$PROFVIEW" cat "$t" --view summary --columns key,value | awk -F'\t' '$1 == "units" { print $2 }')
  ru=$("$PROFVIEW" cat "$r" --view summary --columns key,value | awk -F'\t' '$1 == "total functions" || $1 == "total lines" { print $2 }')
  [ -n "$u" ] && [ "$u" = "$ru" ] || { echo "FAIL: ${pair%%:*}: total $ru, /T units $u"; fail=1; }
done

# Two modules: the module statistics match the routines of each.
r=$data/plist-func-coverage.report.txt
"$PROFVIEW" cat "$r" --view modules --columns module,units,rows >"$tmp/got"
"$PROFVIEW" cat "$data/plist-func-coverage.txt" --view routines --columns exe | tail -n +2 \
  | awk '{ n[$0]++; if (!($0 in o)) { o[$0] = ++k; name[k] = $0 } } END { print "module\tunits\trows"; for (i = 1; i <= k; i++) print name[i] "\t" n[name[i]] "\t" n[name[i]] }' >"$tmp/want"
check "plist-func-coverage.report.txt modules" "$tmp/want" "$tmp/got"
[ "$(wc -l <"$tmp/got")" = 3 ] || { echo "FAIL: expected two modules"; fail=1; }

r=$data/plist-line-modules.report.txt
"$PROFVIEW" cat "$r" --view modules --columns module,units,rows >"$tmp/got"
"$PROFVIEW" cat "$data/plist-line-modules.txt" --view lines --columns exe | tail -n +2 \
  | awk '{ n[$0]++; if (!($0 in o)) { o[$0] = ++k; name[k] = $0 } } END { print "module\tunits\trows"; for (i = 1; i <= k; i++) print name[i] "\t" n[name[i]] "\t" n[name[i]] }' >"$tmp/want"
check "plist-line-modules.report.txt modules" "$tmp/want" "$tmp/got"
[ "$(wc -l <"$tmp/got")" = 3 ] || { echo "FAIL: expected two line modules"; fail=1; }

# The generator put wrapped names, page breaks and CRLF in these reports.
grep -q $'\f' "$data/plist-func-timing.report-time.txt" || { echo "FAIL: no page break in the sample"; fail=1; }
grep -q $'\r$' "$data/plist-func-timing.report-time.txt" || { echo "FAIL: no CRLF in the sample"; fail=1; }
grep -qE '^ {40,}[^ ]' "$data/plist-func-timing.report-time.txt" || { echo "FAIL: no wrapped name in the sample"; fail=1; }

[ "$reports" = 8 ] || { echo "FAIL: $reports reports compared"; fail=1; }
exit $fail
