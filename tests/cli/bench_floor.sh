#!/usr/bin/env bash
# bench/bench_floor.c, the bare pass that bench/run.sh uses as the unit of
# the index's speed bar (docs/quality.md), does the pairing work profview
# does: on generated BIN v1.0 and v1.1 timelines of several seeds and task
# counts, its closed calls and the frames it leaves open add up to profview's
# hits of every routine and line; with --keep it keeps each of those calls.  (A floor that skipped the per-context stacks, or read half the
# records, would make the ratio meaningless; timings are never asserted.)
set -euo pipefail
: "${PROFVIEW:?}" "${PV_BUILD_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
floor=$PV_BUILD_DIR/bench_floor gen=$PV_BUILD_DIR/pv_gen_winidea
fail=0
for spec in "1 5 bin11" "7 8 bin11" "3 2 bin10" "11 1 bin11"; do
  read -r seed tasks format <<<"$spec"
  f=$tmp/g$seed.txt
  "$gen" --seed "$seed" --tasks "$tasks" --events 60000 --format "$format" -o "$f" >/dev/null
  opt=()
  [ "$format" = bin10 ] && opt=(--v10)
  out=$("$floor" "$f.BIN" "${opt[@]}")
  calls=$(printf '%s\n' "$out" | sed -n 's/^calls \([0-9]*\) .* open \([0-9]*\) .*/\1 + \2/p')
  calls=$((calls))
  r=$("$PROFVIEW" cat "$f" --view routines --format tsv |
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hits") c = i; next } { s += $c } END { print s + 0 }')
  l=$("$PROFVIEW" cat "$f" --view lines --format tsv |
    awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "hits") c = i; next } { s += $c } END { print s + 0 }')
  if [ -z "$calls" ] || [ "$calls" -ne $((r + l)) ] || [ "$calls" -eq 0 ]; then
    echo "FAIL: seed $seed, $tasks tasks, $format: bench_floor counted '${calls}' calls, profview $r routine + $l line hits"
    fail=1
  fi
  # --keep does the same pass and keeps every call it pairs: the closed and
  # the open ones (bench/README.md "The floor that keeps the index")
  kept=$("$floor" "$f.BIN" "${opt[@]}" --keep)
  if [ "${kept#kept * check * }" != "$out" ] ||
    [ "$(printf '%s\n' "$kept" | sed -n 's/^kept \([0-9]*\) .*/\1/p')" != "$calls" ]; then
    echo "FAIL: seed $seed, $tasks tasks, $format: bench_floor --keep said '$kept', without it '$out'"
    fail=1
  fi
done
"$floor" 2>/dev/null && { echo "FAIL: bench_floor without a file succeeded"; fail=1; }
exit $fail
