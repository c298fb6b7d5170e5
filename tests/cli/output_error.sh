#!/usr/bin/env bash
# A failed write on standard output is an output error (docs/cli.md): status
# 3 and a message naming the reason, for every command that writes to stdout
# (streamed and selected `cat`, `info`, `info --json`, `--help`); an input
# error with nothing to write stays status 2; the same commands succeed (0)
# when the output can be written.  A reader that closes the pipe early
# (`profview cat ... | head`, with SIGPIPE ignored as a shell or a service
# may leave it) ends the command quietly with 0; `sql` too.  And the small
# contracts of the command line: `profview` alone prints a short usage (not
# the whole help), a window whose --from is after its --to is a usage error.
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

# A closed pipe: quiet, status 0, whatever the command and format (the
# output is bigger than a pipe's buffer, so the write does fail).
big=$tmp/big.txt
"$PV_BUILD_DIR/pv_gen_winidea" --seed 2 --tasks 3 --events 20000 --format text -o "$big" >/dev/null
closed() { # name args...: profview's status and stderr with its stdout's reader gone
  local name=$1
  shift
  # the reader exits at once; profview writes into a pipe with no reader
  set +e
  (trap '' PIPE; exec "$pv" "$@" 2>"$tmp/err") | true
  local rc=${PIPESTATUS[0]}
  set -e
  [ "$rc" -eq 0 ] || { echo "FAIL: $name into a closed pipe: status $rc, expected 0"; cat "$tmp/err"; fail=1; }
  [ ! -s "$tmp/err" ] || { echo "FAIL: $name into a closed pipe said something:"; cat "$tmp/err"; fail=1; }
}
closed "cat (streamed)" cat "$big" --view timeline
closed "cat --sort" cat "$big" --view timeline --sort time:desc
closed "cat --format json" cat "$big" --view timeline --format json
closed "sql" sql "$big" "SELECT * FROM timeline"
# sql into a full disk is an output error (3), not an input error
set +e
"$pv" sql "$big" "SELECT * FROM timeline" >/dev/full 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 3 ] || { echo "FAIL: sql to /dev/full: status $rc, expected 3"; cat "$tmp/err"; fail=1; }

# profview alone: a short usage on stderr, status 1
set +e
"$pv" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || { echo "FAIL: profview alone: status $rc, expected 1"; fail=1; }
[ ! -s "$tmp/out" ] || { echo "FAIL: profview alone wrote on stdout"; fail=1; }
grep -q "^usage: profview .*FILE" "$tmp/err" || { echo "FAIL: profview alone: no usage line"; cat "$tmp/err"; fail=1; }
grep -q "profview --help" "$tmp/err" || { echo "FAIL: profview alone: does not point to --help"; fail=1; }
for c in info cat sql diff export; do
  grep -q "profview $c " "$tmp/err" || { echo "FAIL: profview alone: no '$c' in the usage"; fail=1; }
done
[ "$(wc -l <"$tmp/err")" -le 10 ] || { echo "FAIL: profview alone printed $(wc -l <"$tmp/err") lines (the whole help?)"; fail=1; }

# --from after --to: a usage error naming both, for every command that takes a window
for cmd in "cat $rtos --view timeline" "info $rtos" "export $rtos --format text1 -o $tmp/w.txt"; do
  set +e
  # shellcheck disable=SC2086
  "$pv" $cmd --from 10 --to 5 >"$tmp/out" 2>"$tmp/err"
  rc=$?
  set -e
  [ $rc -eq 1 ] || { echo "FAIL: $cmd --from 10 --to 5: status $rc, expected 1"; fail=1; }
  grep -q -- "--from 10 is after --to 5" "$tmp/err" ||
    { echo "FAIL: $cmd --from 10 --to 5: no message"; cat "$tmp/err"; fail=1; }
done
[ ! -e "$tmp/w.txt" ] || { echo "FAIL: an export with an empty window wrote its file"; fail=1; }
set +e
"$pv" diff "$rtos" "$rtos" --view statistics --from-b 10 --to-b 5 >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] || { echo "FAIL: diff --from-b 10 --to-b 5: status $rc, expected 1"; cat "$tmp/err"; fail=1; }
exit $fail
