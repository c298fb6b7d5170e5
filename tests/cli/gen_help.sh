#!/usr/bin/env bash
# Every generator answers --help: its usage on stdout, status 0, and writes
# nothing (pv_gen_aqtime and pv_gen_plist once took it for an output
# directory); an unknown option is a usage error (1) on stderr.
set -euo pipefail
: "${PV_BUILD_DIR:?}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$tmp"
for g in pv_gen_winidea pv_gen_aqtime pv_gen_plist; do
  set +e
  "$PV_BUILD_DIR/$g" --help >out 2>err
  rc=$?
  "$PV_BUILD_DIR/$g" --no-such-option >out2 2>err2
  rc2=$?
  set -e
  [ $rc -eq 0 ] || { echo "FAIL: $g --help: status $rc"; cat err; fail=1; }
  grep -q "^usage: $g" out || { echo "FAIL: $g --help: no usage on stdout"; cat out err; fail=1; }
  [ ! -s err ] || { echo "FAIL: $g --help wrote on stderr"; cat err; fail=1; }
  [ $rc2 -eq 1 ] || { echo "FAIL: $g --no-such-option: status $rc2, expected 1"; fail=1; }
  grep -q "usage: $g" err2 || { echo "FAIL: $g --no-such-option: no usage on stderr"; fail=1; }
  left=$(ls -A | grep -v -x -e out -e err -e out2 -e err2 || true)
  [ -z "$left" ] || { echo "FAIL: $g --help or a bad option wrote files: $left"; fail=1; }
done
exit $fail
