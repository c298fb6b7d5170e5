#!/usr/bin/env bash
# Bad PLIST input through the CLI: a partial load with warnings naming the
# file, line and field (exit 0), and a file without any PLIST record forced
# with --format plist (exit 2, message naming the file).
set -euo pipefail
: "${PROFVIEW:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
printf '1\t522\tFunction timing\r\n6\ta.exe\ta.obj\tx1\t2\t3\tf(a, b)\r\n42\tfuture\r\n9\t1\t1\t1\t1\r\n' \
  >"$tmp/bad.txt"
rc=0
"$PROFVIEW" info "$tmp/bad.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 0 ] || { echo "FAIL: info exit $rc on a partly bad file"; fail=1; }
grep -q "format: plist" "$tmp/out" || { echo "FAIL: not detected"; fail=1; }
grep -q "warnings: 3" "$tmp/out" || { echo "FAIL: expected 3 warnings"; cat "$tmp/out"; fail=1; }
grep -q "bad.txt: line 4: the stack size is 1 but 0 names" "$tmp/out" \
  || { echo "FAIL: no message for the stack without names"; fail=1; }
grep -q "bad.txt: line 2: field 4 (count) of a 6 record: 'x1'" "$tmp/out" \
  || { echo "FAIL: no message for the bad count"; cat "$tmp/out"; fail=1; }
grep -q "bad.txt: line 3: unknown record tag '42'" "$tmp/out" \
  || { echo "FAIL: no message for the unknown tag"; fail=1; }
grep -q "records  *1 rows" "$tmp/out" || { echo "FAIL: unknown record not kept"; fail=1; }
got=$("$PROFVIEW" cat "$tmp/bad.txt" --view routines --columns routine,hits,time)
[ "$got" = "$(printf 'routine\thits\ttime\nf(a, b)\t\t2000000')" ] \
  || { echo "FAIL: routines: $got"; fail=1; }

printf 'just some text\nnothing else\n' >"$tmp/text.txt"
rc=0
"$PROFVIEW" info --input-format plist "$tmp/text.txt" >"$tmp/out" 2>&1 || rc=$?
[ $rc = 2 ] || { echo "FAIL: exit $rc for a file without records"; fail=1; }
grep -q "text.txt: line 1: no PLIST record" "$tmp/out" || { echo "FAIL: message"; cat "$tmp/out"; fail=1; }
[ $fail = 0 ] && echo "ok"
exit $fail
