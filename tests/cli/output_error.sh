#!/usr/bin/env bash
# A failed write on standard output is an output error (docs/cli.md): status
# 3 and a message naming the reason, for every command that writes to stdout
# (streamed and selected `cat`, `info`, `info --json`, `--help`); an input
# error with nothing to write stays status 2; the same commands succeed (0)
# when the output can be written.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
[ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
rtos=$src/sample-data/rtos.txt

expect() { # status name args...
  local want=$1 name=$2
  shift 2
  set +e
  "$pv" "$@" >/dev/full 2>"$tmp/err"
  local rc=$?
  "$pv" "$@" >"$tmp/out" 2>/dev/null
  local ok=$?
  set -e
  if [ $rc -ne "$want" ]; then
    echo "FAIL: $name: status $rc to /dev/full, expected $want"
    cat "$tmp/err"
    fail=1
  fi
  if [ "$want" -eq 3 ]; then
    grep -q "^profview: cannot write the output: No space left on device$" "$tmp/err" ||
      { echo "FAIL: $name: no message"; cat "$tmp/err"; fail=1; }
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: $name: the message is not said once"; fail=1; }
    [ $ok -eq 0 ] || { echo "FAIL: $name: status $ok to a file"; fail=1; }
  fi
}

expect 3 "cat (streamed)" cat "$rtos" --view timeline
expect 3 "cat (small view, one buffer)" cat "$rtos" --view contexts
expect 3 "cat --sort" cat "$rtos" --view timeline --sort time:desc
expect 3 "cat --format json" cat "$rtos" --view routines --format json
expect 3 "info" info "$rtos"
expect 3 "info --json" info --json "$rtos"
expect 3 "--help" --help
expect 3 "--version" --version
expect 2 "a missing file" info "$tmp/missing.txt"
# Both: a missing file and an output that cannot be written: the output is
# incomplete, which status 3 says.
set +e
"$pv" info "$tmp/missing.txt" "$rtos" >/dev/full 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 3 ] || { echo "FAIL: input and output error: status $rc"; fail=1; }
grep -q "missing.txt: cannot open" "$tmp/err" || { echo "FAIL: input error not reported"; fail=1; }
grep -q "cannot write the output" "$tmp/err" || { echo "FAIL: output error not reported"; fail=1; }
exit $fail
