#!/usr/bin/env bash
# The first screen of an AQTime database before its large tables are read
# (docs/aqtime.md "First screen"): the viewer opens on the summary with the
# other views "(indexing)" while a thread of the loader reads the rest,
# and once it is done every screen is the one of a load that read
# everything first.  --test aq-defer-rows=0 reads every profiler
# table in the background (the default is tables of 200 000 rows or more);
# --test index-slice keeps the scripted mode from finishing the load
# before the first frame.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
for db in aqtime-trace.db aqtime-resource.db aqtime-refcount.db; do
  need_sample "$db"
done
DB=$SAMPLES/aqtime-trace.db

# 1. The first frame: the summary, the views waiting.
s=$(PV_TEST="--test aq-defer-rows=0 --test index-slice=1" pv_screen "" "$DB" --size 100x30)
expect_contains "the summary shows at once" "$s" "caption           Run 1 - Elapsed Time"
expect_contains "the call trace waits" "$s" "Call Trace (indexing)"
expect_contains "the routines wait" "$s" "Routines (indexing)"
expect_contains "the status bar says so" "$s" "indexing"

# 2. Once loaded, the same screens as a load that read everything first:
#    the call trace (a tree by thread), % to a caller, the routines with t,
#    and the other profilers' views.
TO_TRACE=$'Shift-Tab\nj j\nTab'
TO_ROUTINES=$'Shift-Tab\nj j j\nTab'
same() { # what keys db
  local a b
  a=$(pv_screen "$2" "$SAMPLES/$3" --size 120x40)
  b=$(PV_TEST="--test aq-defer-rows=0" pv_screen "$2" "$SAMPLES/$3" --size 120x40)
  [ "$a" = "$b" ] || { diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") >&2 || true; fail "$1"; }
  expect_absent "$1: no view waits" "$b" "(indexing)"
}
same "call trace" "$TO_TRACE"$'\nj j j j j\n%' aqtime-trace.db
same "routines, t" "$TO_ROUTINES"$'\nj\nt' aqtime-trace.db
same "second result set" $'Shift-Tab\nj j j j j j j j j\nTab\nj j' aqtime-trace.db
same "resource objects" $'Shift-Tab\nj j j j\nTab\nj j' aqtime-resource.db
same "refcount references" $'Shift-Tab\nj j j j j\nTab\nj' aqtime-refcount.db
echo "PASS"
