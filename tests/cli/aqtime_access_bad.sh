#!/usr/bin/env bash
# Bad Access files (docs/aqtime.md "Access databases"): an Access database
# without AQTime results, a 0-byte .mdb, files cut short (mid-page and at
# every page boundary), a password-protected .accdb, a damaged catalog.
# Each gets one message naming the file and what it is, exit status 2, and
# nothing from libmdb on stderr; a damaged data page is a warning that
# names the table (what libmdb said), the rest loads.
set -euo pipefail
: "${PROFVIEW:?}" "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
command -v sqlite3 >/dev/null || { echo "sqlite3 shell not installed: skipped"; exit 0; }
S=$PV_SOURCE_DIR/sample-data
GEN=$PV_BUILD_DIR/pv_gen_mdb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$tmp"

# refused NAME FILE MESSAGE [ARGS...]: `info FILE` fails with status 2 and
# exactly that one line on stderr, nothing on stdout.
refused() {
  local name=$1 file=$2 msg=$3
  shift 3
  set +e
  timeout 20 "$PROFVIEW" info "$@" "$file" >out 2>err
  local rc=$?
  set -e
  [ $rc -eq 2 ] || bad "$name: status $rc, not 2"
  [ ! -s out ] || bad "$name: output on stdout: $(head -3 out)"
  printf 'profview: error: %s\n' "$msg" >want
  diff -u want err || bad "$name: not the one message"
}

sqlite3 shop.db "CREATE TABLE Orders (id INTEGER, customer INTEGER, total REAL);
CREATE TABLE Customers (id INTEGER, name TEXT);
INSERT INTO Customers VALUES (1, 'Ada');
CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT);"
"$GEN" shop.db shop.mdb
refused "no AQTime tables" shop.mdb \
  "shop.mdb: an Access database with no AQTime results (tables: Customers, INSTANCES, Orders)"
sqlite3 none.db "CREATE TABLE t (a INTEGER); DROP TABLE t;"
"$GEN" none.db none.mdb
refused "no tables" none.mdb "none.mdb: an Access database with no AQTime results (it has no tables)"

: >empty.mdb
refused "0 bytes" empty.mdb "empty.mdb: the file is empty"
refused "0 bytes, forced" empty.mdb "empty.mdb: byte 0: not an Access database: the file is empty" \
  --input-format aqtime-access

M=$S/aqtime-trace.mdb
pages=$(($(stat -c %s "$M") / 4096))
head -c 20000 "$M" >cut.mdb
refused "cut mid-page" cut.mdb \
  "cut.mdb: an Access database cut short: 20000 bytes, not a whole number of 4096-byte pages (the file is truncated)"
# Cut at every page boundary after the catalog's definition: never a load
# that looks whole, never a word from libmdb.
for n in $(seq 3 $((pages - 1))); do
  head -c $((n * 4096)) "$M" >"cut$n.mdb"
  set +e
  timeout 20 "$PROFVIEW" info "cut$n.mdb" >out 2>err
  rc=$?
  set -e
  [ $rc -eq 2 ] || bad "cut at page $n: status $rc"
  [ "$(wc -l <err)" -eq 1 ] || { bad "cut at page $n: not one message"; cat err; }
  grep -Eq "^profview: error: cut$n.mdb: an Access database (cut short|whose catalog)" err ||
    bad "cut at page $n: $(cat err)"
done

"$GEN" --encrypted "$S/aqtime-trace.db" locked.accdb
refused "encrypted .accdb" locked.accdb \
  "locked.accdb: an encrypted Access database (an .accdb protected by a password): profview cannot read it; in Access, remove the password (File > Info > Decrypt Database) and open that copy"

cp "$M" nocat.mdb
dd if=/dev/zero of=nocat.mdb bs=4096 seek=2 count=1 conv=notrunc 2>/dev/null
refused "damaged catalog" nocat.mdb \
  "nocat.mdb: an Access database whose catalog (MSysObjects, page 2) cannot be read: the file is damaged"

# A data page of FUNCTION_TRACE_PROFILER_CALL_STACK (its definition is page
# 14, its rows on page 16: pv_gen_mdb's layout) marked as another table's:
# libmdb's complaint is a warning naming the table; the rest loads.
cp "$M" page.mdb
od -An -tx1 -j $((16 * 4096)) -N8 page.mdb | grep -q '01 01 .. .. 0e 00 00 00' || bad "page 16 is not CALL_STACK's"
printf '\x63' | dd of=page.mdb bs=1 seek=$((16 * 4096 + 4)) conv=notrunc 2>/dev/null
set +e
"$PROFVIEW" info page.mdb >out 2>err
rc=$?
set -e
[ $rc -eq 0 ] || bad "damaged data page: status $rc"
[ ! -s err ] || bad "damaged data page: stderr: $(cat err)"
grep -q "page.mdb: the Access reader (libmdb) says, reading table FUNCTION_TRACE_PROFILER_CALL_STACK: warning: page 16 from map doesn't match" out ||
  bad "damaged data page: no warning naming the table"
grep -q "call-trace  *21 rows" out || bad "damaged data page: the calls do not load"

exit $fail
