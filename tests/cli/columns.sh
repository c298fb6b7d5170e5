#!/usr/bin/env bash
# The columns that several formats share are declared once
# (include/profview/model.h, PV_COLUMN_*; docs/model.md "Columns"): no
# column array spells one of them out by hand (its id with its type), unless
# the line says it is not the shared column (an id that means something
# else in that view).  First run on planted lines, so that it cannot pass by
# matching nothing.
set -u
root=${PV_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
model=$root/include/profview/model.h
[ -f "$model" ] || { echo "FAIL: no $model"; exit 1; }
# the registry: "id" TYPE per line
registry=$(sed -nE 's/^#define PV_COLUMN_[A-Z_]+ "([a-z_]+)", "[^"]*", (PV_TYPE_[A-Z]+)$/\1 \2/p' "$model")
[ "$(wc -l <<< "$registry")" -ge 10 ] || { echo "FAIL: the registry in model.h has $(wc -l <<< "$registry") columns"; exit 1; }
# by_hand DIR: column declarations that spell a shared column out
by_hand() {
  local id type
  while read -r id type; do
    grep -rnE --include='*.c' --include='*.h' "\{\"$id\", \"[^\"]*\", $type," "$1" | grep -v 'not the shared column'
  done <<< "$registry"
}
tmp=$(mktemp -d /tmp/pv-columns-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/a.c" <<'C'
static const pv_column a[] = {
    {"module", "Module Name", PV_TYPE_STRING, 0},
    {"hits", "Hit Count", PV_TYPE_INT, PV_COL_DESC},
    {"time", "Time with children", PV_TYPE_TIME, 0}, /* not the shared column */
    {"thread", "Thread", PV_TYPE_INT, 0},
    {PV_COLUMN_ROUTINE, PV_COL_NAME},
};
C
found=$(by_hand "$tmp" | wc -l)
[ "$found" = 2 ] || { echo "FAIL: the check finds $found of the 2 planted columns"; by_hand "$tmp"; exit 1; }
if out=$(by_hand "$root/src"); [ -n "$out" ]; then
  echo "FAIL: shared columns spelled out by hand (use PV_COLUMN_*, include/profview/model.h):"
  printf '%s\n' "$out"
  exit 1
fi
echo "PASS: the $(wc -l <<< "$registry") shared columns are declared once"
