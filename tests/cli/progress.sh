#!/usr/bin/env bash
# The progress bar of `info` and `cat` (docs/cli.md, "Progress"): on stderr
# when stderr is a terminal (here a pseudo-terminal made by `script`), with
# the amount done, the total, the rate and the ETA in human units, erased
# before the output; nothing when stderr is redirected; nothing before the
# rate is known (a small file loads before the bar's first half second).
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
command -v script > /dev/null || { echo "SKIP: script (util-linux) is not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$gen" --seed 5 --tasks 4 --events 400000 --format text -o "$tmp/big.txt"

# in_pty CMD: runs CMD with stdin, stdout and stderr on a pseudo-terminal.
in_pty() { script -qfec "$1" /dev/null < /dev/null; }

# The bar's first half second is for measuring the rate; the test shows it
# from the first report (the test option progress-delay-ms=0).
now="--test progress-delay-ms=0"
in_pty "$pv info $now $tmp/big.txt" > "$tmp/pty.out"
grep -aqE 'profview: reading Text1 \[[#-]{20}\] +[0-9]+%  [0-9.]+ (kB|MB) of 8\.8 MB  [0-9.]+ (kB|MB|GB)/s  ETA [0-9]+:[0-9]{2}' "$tmp/pty.out" ||
  { bad "no progress bar on a terminal:"; cat -v "$tmp/pty.out" | head -3; }
# erased (CR, erase to the end of line) before the output starts
grep -aq $'\r\e\\[K'"$tmp/big.txt" "$tmp/pty.out" || bad "the bar is not erased before the output"
in_pty "$pv cat $now $tmp/big.txt --view contexts" > "$tmp/pty.out"
grep -aq 'profview: reading Text1 \[' "$tmp/pty.out" || bad "no progress bar for cat"
grep -aq 'ID_TASK_FAST' "$tmp/pty.out" || bad "cat printed no rows"
# A stream is read before it is parsed: its bytes show (no total is known).
in_pty "cat $tmp/big.txt | $pv info $now -" > "$tmp/pty.out"
grep -aqE 'profview: reading input  [0-9.]+ (kB|MB)  [0-9.]+ (kB|MB|GB)/s' "$tmp/pty.out" ||
  { bad "no progress while a pipe is read:"; cat -v "$tmp/pty.out" | head -3; }
echo "ok: progress on a terminal, erased before the output"

# Redirected stderr: nothing but the output.
"$pv" info $now "$tmp/big.txt" > "$tmp/out" 2> "$tmp/err"
[ ! -s "$tmp/err" ] || { bad "stderr not a terminal, yet: $(head -c 200 "$tmp/err" | cat -v)"; }
grep -q 'format: winidea-text1' "$tmp/out" || bad "info printed nothing"
in_pty "$pv info $now $tmp/big.txt 2> $tmp/err2" > /dev/null
[ ! -s "$tmp/err2" ] || bad "stderr redirected from a terminal session, yet: $(head -c 200 "$tmp/err2" | cat -v)"
echo "ok: no progress when stderr is redirected"

# Without the test knob: nothing before the rate is known (half a second).
in_pty "$pv info $src/sample-data/rtos.txt" > "$tmp/pty.out"
grep -aq 'profview: reading' "$tmp/pty.out" && bad "a progress bar for a file that loads at once"
echo "ok: no bar before its rate is known"
exit $fail
