#!/usr/bin/env bash
# The AQTime samples are what the generator writes: regenerating gives the
# same .expect.tsv bytes and the same tables (`sqlite3 DB .dump`).
set -euo pipefail
: "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
S=$PV_SOURCE_DIR/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$S/regen-aqtime.sh" "$PV_BUILD_DIR" "$tmp"
fail=0
for name in aqtime-trace aqtime-resource aqtime-refcount; do
  if ! cmp -s "$S/$name.expect.tsv" "$tmp/$name.expect.tsv"; then
    echo "FAIL: $name.expect.tsv differs from a fresh generation"
    diff "$S/$name.expect.tsv" "$tmp/$name.expect.tsv" | head -10
    fail=1
  fi
  if command -v sqlite3 >/dev/null; then
    sqlite3 "$S/$name.db" .dump >"$tmp/a.sql"
    sqlite3 "$tmp/$name.db" .dump >"$tmp/b.sql"
    if ! cmp -s "$tmp/a.sql" "$tmp/b.sql"; then
      echo "FAIL: $name.db tables differ from a fresh generation"
      diff "$tmp/a.sql" "$tmp/b.sql" | head -10
      fail=1
    fi
    [ "$(grep -c 'CREATE TABLE' "$tmp/a.sql")" -ge 11 ] || { echo "FAIL: $name.db has too few tables"; fail=1; }
  elif ! cmp -s "$S/$name.db" "$tmp/$name.db"; then
    echo "FAIL: $name.db differs from a fresh generation (no sqlite3 CLI to compare dumps)"
    fail=1
  fi
  size=$(wc -c <"$S/$name.db")
  [ "$size" -lt 204800 ] || { echo "FAIL: $name.db is $size bytes (want < 200 KB)"; fail=1; }
done
exit $fail
