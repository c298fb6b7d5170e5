#!/usr/bin/env bash
# profview's statistics recomputed from the timeline (docs/formats.md §3) equal
# the statistics the generator wrote from its own bookkeeping, for every
# generated sample (committed, and fresh larger ones of every format),
# column by column; and every generated sample loads
# without warnings.  (`statistics` vs `statistics-exported`;
# the files carry no Neutral rows, so those are left out of `statistics`.)
set -euo pipefail
src=${PV_SOURCE_DIR:?}
pv=${PROFVIEW:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cols=handle,value,context,count,net,net_min,net_max,net_avg,gross,gross_min,gross_max
cols=$cols,gross_avg,call,call_min,call_max,call_avg,period_min,period_max,period_avg
cols=$cols,outside,outside_min,outside_max,outside_avg
fail=0
# the committed samples, and larger runs of every format with 1 and 8 tasks
files=()
for name in rtos.txt rtos-ctx.txt rtos-v10.txt rtos-v11.txt; do
  files+=("$src/sample-data/$name")
done
gen=${PV_BUILD_DIR:-}/pv_gen_winidea
if [ -x "$gen" ]; then
  mkdir "$tmp/gen"
  for tasks in 1 8; do
    for format in text text-ctx bin10 bin11; do
      "$gen" --seed $((30 + tasks)) --tasks $tasks --events 40000 --format $format \
        -o "$tmp/gen/$format-$tasks.txt"
      files+=("$tmp/gen/$format-$tasks.txt")
    done
  done
else
  echo "FAIL: generator $gen not built"
  fail=1
fi
for f in "${files[@]}"; do
  name=$(basename "$f")
  # rows the file carries: non-blank lines of its STATISTICS sections
  carried=$(tr -d '\r' < "$f" | awk '/^\* /{ s = ($2 ~ /^STATISTICS/) ; next } s && NF { n++ } END { print n + 0 }')
  # a generated sample is well-formed: it loads without a single warning
  if "$pv" info --json "$f" > "$tmp/info.json" 2> "$tmp/err"; then
    grep -q '"warning_count":0,' "$tmp/info.json" ||
      { echo "FAIL: $name: loads with warnings: $(head -c 400 "$tmp/info.json")"; fail=1; }
  else
    echo "FAIL: $name: info: $(head -3 "$tmp/err")"
    fail=1
  fi
  if ! "$pv" cat "$f" --view statistics-exported --columns "$cols" > "$tmp/exported.tsv" 2> "$tmp/err"; then
    echo "FAIL: $name: cat --view statistics-exported: $(head -3 "$tmp/err")"
    fail=1
    continue
  fi
  if ! "$pv" cat "$f" --view statistics --columns "$cols" > "$tmp/computed.tsv" 2> "$tmp/err"; then
    echo "FAIL: $name: cat --view statistics: $(head -3 "$tmp/err")"
    fail=1
    continue
  fi
  tail -n +2 "$tmp/exported.tsv" | sort > "$tmp/e"
  if grep -q "$(printf '\tNeutral\t')" "$tmp/e"; then
    tail -n +2 "$tmp/computed.tsv" | sort > "$tmp/c"
  else
    tail -n +2 "$tmp/computed.tsv" | awk -F'\t' '$3 != "Neutral"' | sort > "$tmp/c"
  fi
  rows=$(wc -l < "$tmp/e")
  if [ "$rows" -ne "$carried" ]; then
    echo "FAIL: $name: statistics-exported has $rows rows, the file carries $carried"
    fail=1
  fi
  if ! diff "$tmp/e" "$tmp/c" > "$tmp/diff"; then
    echo "FAIL: $name: recomputed statistics differ from the file's (< file, > profview):"
    head -20 "$tmp/diff"
    fail=1
  else
    echo "ok: $name: $rows rows equal"
  fi
done
exit $fail
