#!/usr/bin/env bash
# Export safety (docs/export.md): no overwrite without --force, never the
# input, a read-only directory, a full disk (RLIMIT_FSIZE, and a small
# tmpfs where a user namespace allows one): exit 3 (an output error, as
# --help says) with a message, and no file (not even a temporary one) left
# behind; -o - is refused (exit 1) and writes no file named -.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
fail=0

expect() { # label exit-code message-regex command...
  local label=$1 want=$2 re=$3
  shift 3
  set +e
  "$@" 2>"$tmp/err"
  local rc=$?
  set -e
  [ $rc -eq "$want" ] || { echo "FAIL: $label: exit $rc, not $want ($(cat "$tmp/err"))"; fail=1; }
  grep -Eq "$re" "$tmp/err" || { echo "FAIL: $label: message '$(cat "$tmp/err")' lacks /$re/"; fail=1; }
}

no_leftovers() { # label dir expected-file-count
  local n
  n=$(find "$2" -mindepth 1 -maxdepth 1 | wc -l)
  [ "$n" -eq "$3" ] || { echo "FAIL: $1: $n files in $2, expected $3:"; ls -la "$2"; fail=1; }
}

# 1. an existing OUT is kept unless --force
mkdir "$tmp/out"
echo precious >"$tmp/out/a.db"
expect "no --force" 3 'a\.db: exists; not replaced \(use --force' \
  "$pv" export "$src/rtos.txt" --format sqlite -o "$tmp/out/a.db"
[ "$(cat "$tmp/out/a.db")" = precious ] || { echo "FAIL: OUT overwritten without --force"; fail=1; }
no_leftovers "no --force" "$tmp/out" 1
"$pv" export "$src/rtos.txt" --format sqlite -o "$tmp/out/a.db" --force
[ "$(sqlite3 "$tmp/out/a.db" 'SELECT version FROM profview_schema')" = 2 ] ||
  { echo "FAIL: --force did not replace OUT"; fail=1; }
no_leftovers "--force" "$tmp/out" 1
# OUT.BIN exists: the BIN export refuses as a whole, writing neither file
echo precious >"$tmp/out/m.txt.BIN"
expect "BIN exists" 3 'm\.txt\.BIN: exists' "$pv" export "$src/rtos-v10.txt" --format bin -o "$tmp/out/m.txt"
[ ! -e "$tmp/out/m.txt" ] || { echo "FAIL: m.txt written although m.txt.BIN was refused"; fail=1; }
no_leftovers "BIN exists" "$tmp/out" 2

# 2. never the input, not even with --force (nor the BIN beside it)
cp "$src/rtos-v10.txt" "$src/rtos-v10.txt.BIN" "$tmp/"
sum=$(cat "$tmp/rtos-v10.txt" "$tmp/rtos-v10.txt.BIN" | md5sum)
expect "input as OUT" 3 'is a file this export reads' \
  "$pv" export "$tmp/rtos-v10.txt" --format text1 -o "$tmp/rtos-v10.txt" --force
expect "input BIN as OUT.BIN" 3 'is a file this export reads' \
  "$pv" export "$tmp/rtos-v10.txt" --format bin -o "$tmp/rtos-v10.txt" --force
[ "$(cat "$tmp/rtos-v10.txt" "$tmp/rtos-v10.txt.BIN" | md5sum)" = "$sum" ] ||
  { echo "FAIL: the input was written"; fail=1; }
ln -s "$tmp/rtos-v10.txt" "$tmp/link.txt"
expect "input through a symlink" 3 'is a file this export reads' \
  "$pv" export "$tmp/rtos-v10.txt" --format sqlite -o "$tmp/link.txt" --force

# 3. a read-only directory (as an unprivileged user when run as root)
mkdir "$tmp/ro"
chmod 555 "$tmp/ro"
unpriv=()
if [ "$(id -u)" -eq 0 ]; then unpriv=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
cp "$src/rtos.txt" "$tmp/in.txt"
chmod 644 "$tmp/in.txt"
for fmt in text1 bin sqlite; do
  expect "read-only dir ($fmt)" 3 'ro/x: cannot create a file in its directory: Permission denied' \
    "${unpriv[@]}" "$pv" export "$tmp/in.txt" --format $fmt -o "$tmp/ro/x"
done
no_leftovers "read-only dir" "$tmp/ro" 0

# 4. a full disk: RLIMIT_FSIZE (files over 16 KB cannot be written)
mkdir "$tmp/full"
for fmt in text1 bin sqlite; do
  expect "RLIMIT_FSIZE ($fmt)" 3 'full/x(\.BIN)?: .*(File too large|disk|full|I/O)' \
    bash -c 'ulimit -f 16; exec "$@"' _ "$pv" export "$src/rtos-ctx.txt" --format $fmt -o "$tmp/full/x"
  no_leftovers "RLIMIT_FSIZE ($fmt)" "$tmp/full" 0
done
# ... and a small tmpfs, where a user namespace may mount one
if unshare -rm true 2>/dev/null; then
  mkdir "$tmp/tmpfs"
  for fmt in text1 sqlite; do
    expect "full tmpfs ($fmt)" 3 'tmpfs/x: .*(No space left on device|disk|full)' \
      unshare -rm bash -c 'mount -t tmpfs -o size=32k tmpfs "$1" && "$2" export "$3" --format "$4" -o "$1/x"; rc=$?; n=$(ls -A "$1" | wc -l); [ "$n" -eq 0 ] || { echo "left: $(ls -A "$1")" >&2; exit 9; }; exit $rc' \
      _ "$tmp/tmpfs" "$pv" "$src/rtos-ctx.txt" "$fmt"
  done
else
  echo "note: no user namespace here: the tmpfs variant is skipped (RLIMIT_FSIZE covers a full disk)"
fi
# 5. an existing OUT that is not a regular file is never replaced, even
#    with --force (a rename would turn a FIFO or a device node into a file)
mkdir "$tmp/nodes"
mkfifo "$tmp/nodes/fifo"
for fmt in text1 sqlite; do
  expect "FIFO --force ($fmt)" 3 'nodes/fifo: is not a regular file .*not replaced, even with --force' \
    timeout 20 "$pv" export "$src/rtos.txt" --format $fmt -o "$tmp/nodes/fifo" --force
  [ -p "$tmp/nodes/fifo" ] || { echo "FAIL: the FIFO was replaced ($fmt)"; fail=1; }
done
ln -s /dev/null "$tmp/nodes/null"
expect "link to /dev/null --force" 3 'nodes/null: is not a regular file' \
  "$pv" export "$src/rtos.txt" --format sqlite -o "$tmp/nodes/null" --force
[ -c /dev/null ] && [ -L "$tmp/nodes/null" ] || { echo "FAIL: /dev/null or its link was replaced"; fail=1; }
no_leftovers "nodes" "$tmp/nodes" 2

# 6. temporary files of ours (named .NAME.profview-tmp-XXXXXX) older than a
#    day, left by a killed export, are removed at the next export into that
#    directory; a fresh one (an export running now) and other files stay
mkdir "$tmp/stale"
touch -d '2 days ago' "$tmp/stale/.old.db.profview-tmp-abcdef" "$tmp/stale/.keep.db.pv-abcdef"
touch "$tmp/stale/.new.db.profview-tmp-ghijkl"
"$pv" export "$src/rtos.txt" --format sqlite -o "$tmp/stale/a.db"
[ ! -e "$tmp/stale/.old.db.profview-tmp-abcdef" ] || { echo "FAIL: a stale temporary file was kept"; fail=1; }
[ -e "$tmp/stale/.new.db.profview-tmp-ghijkl" ] && [ -e "$tmp/stale/.keep.db.pv-abcdef" ] ||
  { echo "FAIL: a fresh temporary file or another file was removed"; fail=1; }
if [ "$(id -u)" -eq 0 ]; then # another user's is theirs
  touch -d '2 days ago' "$tmp/stale/.other.db.profview-tmp-mnopqr"
  chown 65534:65534 "$tmp/stale/.other.db.profview-tmp-mnopqr"
  "$pv" export "$src/rtos.txt" --format text1 -o "$tmp/stale/b.txt"
  [ -e "$tmp/stale/.other.db.profview-tmp-mnopqr" ] || { echo "FAIL: another user's file was removed"; fail=1; }
fi

# 7. -o -: refused, with a message; no file named -
cd "$tmp"
expect "-o -" 1 'export writes a file, not standard output: -o - is refused' \
  "$pv" export "$src/rtos.txt" --format text1 -o -
cd - >/dev/null
[ ! -e "$tmp/-" ] || { echo "FAIL: -o - wrote a file named -"; fail=1; }
exit $fail
