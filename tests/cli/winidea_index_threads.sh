#!/usr/bin/env bash
# The winIDEA index built with its helper thread (docs/winidea-model.md
# "Speed") equals the one built on one thread, byte for byte in every
# view's `cat` output and in `info`: on the committed samples and on
# generated timelines of every format, with and without a --from/--to window.
# The test option index-threads=1 indexes on one thread, =2 starts the helper on
# every pass (by default only passes of 1 M events or more have one), and
# index-split=1 indexes the timeline in two halves on two threads
# (docs/winidea-model.md "Speed: the timeline in two halves"; by default
# from 4 M events on) wherever it can.
set -euo pipefail
src=${PV_SOURCE_DIR:?}
pv=${PROFVIEW:?}
gen=${PV_BUILD_DIR:-}/pv_gen_winidea
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
files=()
for name in rtos.txt rtos-ctx.txt rtos-v10.txt rtos-v11.txt seed-example.txt; do
  files+=("$src/sample-data/$name")
done
[ -x "$gen" ] || { echo "FAIL: generator $gen not built"; exit 1; }
for format in text text-ctx bin10 bin11; do
  "$gen" --seed 41 --tasks 5 --events 30000 --format $format -o "$tmp/$format.txt"
  files+=("$tmp/$format.txt")
done
# one large enough for the default (a pass of 1 M events or more)
"$gen" --seed 42 --tasks 5 --events 1100000 --format bin11 -o "$tmp/big.txt"

views="summary contexts statistics routines lines data call-trace timeline flame"
# dump FILE MODE OUT [extra cat options]: every view, info, as MODE (test
# options, words) indexes them
dump() {
  local f=$1 mode=$2 out=$3
  shift 3
  mkdir -p "$out"
  "$pv" info --no-cache $mode "$f" > "$out/info" 2>&1 || true
  for v in $views; do
    "$pv" cat --no-cache $mode "$f" --view "$v" "$@" > "$out/$v" 2>&1 || true
  done
}
check() {
  local name=$1 a=$2 b=$3
  for x in "$a"/*; do
    if ! cmp -s "$x" "$b/$(basename "$x")"; then
      echo "FAIL: $name: $(basename "$x") differs between one thread and two"
      diff "$x" "$b/$(basename "$x")" | head -5
      fail=1
    fi
  done
}
n=0
for f in "${files[@]}"; do
  n=$((n + 1))
  dump "$f" "--test index-threads=1" "$tmp/one-$n"
  dump "$f" "--test index-threads=2" "$tmp/two-$n"
  check "$(basename "$f")" "$tmp/one-$n" "$tmp/two-$n"
  dump "$f" "--test index-threads=1" "$tmp/one-win-$n" --from 1ms --to 3ms
  dump "$f" "--test index-threads=2" "$tmp/two-win-$n" --from 1ms --to 3ms
  check "$(basename "$f") --from 1ms --to 3ms" "$tmp/one-win-$n" "$tmp/two-win-$n"
  dump "$f" "--test index-split=1" "$tmp/split-$n"
  check "$(basename "$f") in two halves" "$tmp/one-$n" "$tmp/split-$n"
  dump "$f" "--test index-split=1" "$tmp/split-win-$n" --from 1ms --to 3ms
  check "$(basename "$f") in two halves --from 1ms --to 3ms" "$tmp/one-win-$n" "$tmp/split-win-$n"
done
# the large one: by default (two threads) and on one thread, every event's
# and call's indexed columns in full
for name in one default split; do
  case $name in
  one) mode="--test index-threads=1" ;;
  default) mode="" ;;
  split) mode="--test index-split=1" ;;
  esac
  out=$tmp/big-$name
  mkdir -p "$out"
  "$pv" info --no-cache $mode "$tmp/big.txt" > "$out/info" 2>&1
  for v in summary contexts statistics routines lines data; do
    "$pv" cat --no-cache $mode "$tmp/big.txt" --view $v > "$out/$v"
  done
  "$pv" cat --no-cache $mode "$tmp/big.txt" --view timeline --columns context,name,depth |
    cksum > "$out/timeline"
  "$pv" cat --no-cache $mode "$tmp/big.txt" --view call-trace \
    --columns parent,routine,depth,thread,time,time_with_children,call_time | cksum > "$out/call-trace"
done
grep -q "1100000 rows" "$tmp/big-one/info" || { echo "FAIL: big.txt not indexed"; fail=1; }
check big.txt "$tmp/big-one" "$tmp/big-default"
check "big.txt in two halves" "$tmp/big-one" "$tmp/big-split"
[ $fail = 0 ] && echo "ok: $n files and a 1.1 M-event BIN, same index on one thread, two, and in two halves"
exit $fail
