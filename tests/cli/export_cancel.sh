#!/usr/bin/env bash
# Ctrl-C (SIGINT) during an export: profview stops, says so, exits 2 and
# leaves nothing behind, not even its temporary file (docs/export.md).
set -euo pipefail
source "$(dirname "$0")/../lib/wait.bash"
pv=${PROFVIEW:?}
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
"$gen" --seed 5 --tasks 3 --events 3000000 --format bin11 -o "$tmp/big.txt" >/dev/null
mkdir "$tmp/out"
dir_has_files() { [ -n "$(ls -A "$1")" ]; }
for fmt in sqlite text1; do
  "$pv" export "$tmp/big.txt" --format $fmt -o "$tmp/out/x" 2>"$tmp/err" &
  pid=$!
  # wait for the temporary file: the export is writing (not there: the
  # export was over first, said below)
  pv_until 30 -- dir_has_files "$tmp/out" || true
  kill -INT "$pid" 2>/dev/null || true
  set +e
  wait "$pid"
  rc=$?
  set -e
  if [ $rc -eq 0 ]; then
    echo "note: the $fmt export finished before the signal; nothing to check"
    rm -f "$tmp/out/"*
    continue
  fi
  [ $rc -eq 2 ] || { echo "FAIL: $fmt: exit $rc after SIGINT, not 2"; exit 1; }
  grep -q 'export cancelled; nothing written' "$tmp/err" || { echo "FAIL: $fmt: $(cat "$tmp/err")"; exit 1; }
  [ -z "$(ls -A "$tmp/out")" ] || { echo "FAIL: $fmt: left behind: $(ls -A "$tmp/out")"; exit 1; }
  echo "ok: $fmt cancelled, nothing left"
done
