#!/usr/bin/env bash
# An input that changes while profview reads it (docs/input.md "Files that
# change"): a BIN truncated while `info` indexes it, and one overwritten in
# place (another recording of the same size) while `cat` reads it: a
# message naming the file and exit 2, never SIGBUS (exit 135) and never
# rows that mix the two.  The change is made as soon as profview has the
# file mapped (polled); a machine fast enough to finish first is tried
# again, up to five times.
set -euo pipefail
source "$(dirname "$0")/../lib/wait.bash"
pv=${PROFVIEW:?}
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
"$gen" --seed 3 --events 3000000 --format bin11 -o "$tmp/a.txt" >/dev/null
"$gen" --seed 4 --events 3000000 --format bin11 -o "$tmp/b.txt" >/dev/null
cmp -s "$tmp/a.txt.BIN" "$tmp/b.txt.BIN" && { echo "FAIL: setup: the two recordings are equal"; exit 1; }

# mapped_or_gone PID: PID has run.BIN mapped, or has ended
mapped_or_gone() {
  grep -q "run.BIN" "/proc/$1/maps" 2>/dev/null || ! kill -0 "$1" 2>/dev/null
}

# change WHAT COMMAND...: run COMMAND on $tmp/run.BIN, make the change when
# it has the file mapped; prints the exit status
change() {
  local what=$1
  shift
  cp "$tmp/a.txt.BIN" "$tmp/run.BIN"
  "$@" >"$tmp/out" 2>"$tmp/err" &
  local pid=$!
  pv_until 10 0.001 -- mapped_or_gone "$pid" || true
  case "$what" in
    truncate) truncate -s 4096 "$tmp/run.BIN" ;;
    overwrite) dd if="$tmp/b.txt.BIN" of="$tmp/run.BIN" conv=notrunc status=none ;;
  esac
  local rc=0
  wait "$pid" || rc=$?
  echo "$rc"
}

for what in truncate overwrite; do
  seen=0
  for try in 1 2 3 4 5; do
    if [ $what = truncate ]; then
      rc=$(change $what "$pv" info --no-cache "$tmp/run.BIN")
    else
      rc=$(change $what "$pv" cat --no-cache "$tmp/run.BIN" --view timeline --columns id,time,name)
    fi
    case $rc in
      0) continue ;; # done before the change: try again
      2) grep -q 'run.BIN changed on disk while it was open' "$tmp/err" ||
           { echo "FAIL: $what: exit 2 without the message: $(head -3 "$tmp/err")"; fail=1; }
         seen=1
         break ;;
      *) echo "FAIL: $what: exit $rc ($(head -3 "$tmp/err"))"; fail=1; break ;;
    esac
  done
  [ $seen = 1 ] || [ $fail = 1 ] || { echo "FAIL: $what: never caught in five tries"; fail=1; }
  echo "ok: $what: try $try, exit $rc"
done
exit $fail
