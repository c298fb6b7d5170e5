#!/usr/bin/env bash
# profview's statistics recomputed from the timeline (FORMATS.md §3) equal
# the statistics the generator wrote from its own bookkeeping, for every
# generated sample, column by column.  (`statistics` vs `statistics-exported`;
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
for name in rtos.txt rtos-ctx.txt rtos-v10.txt rtos-v11.txt; do
  f=$src/sample-data/$name
  # rows the file carries: non-blank lines of its STATISTICS sections
  carried=$(tr -d '\r' < "$f" | awk '/^\* /{ s = ($2 ~ /^STATISTICS/) ; next } s && NF { n++ } END { print n + 0 }')
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
