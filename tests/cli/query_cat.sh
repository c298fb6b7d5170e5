#!/usr/bin/env bash
# `profview cat --filter EXPR --sort SPEC` end to end on the committed
# samples (docs/filter.md, §6).  Every expected output is derived here with
# awk/sort from the unfiltered, unsorted `cat` of the same view, so the test
# checks the filter and the sort, not the loaders.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
plist=$src/sample-data/plist-func-timing.txt
rtos=$src/sample-data/rtos.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

check() { # name expected-file actual-file
  if ! cmp -s "$2" "$3"; then
    echo "FAIL: $1"
    diff "$2" "$3" | head -20
    fail=1
  fi
}

# Prints the given columns (by id) of a TSV with a header, header included,
# for the rows where the awk condition `cond` (over named fields f["id"]) holds.
select_rows() { # file cond columns
  awk -F'\t' -v cols="$3" '
    NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; n = split(cols, want, ",")
              for (k = 1; k <= n; k++) printf "%s%s", (k > 1 ? "\t" : ""), want[k]; print ""; next }
    { for (name in idx) f[name] = $(idx[name])
      if ('"$2"') { for (k = 1; k <= n; k++) printf "%s%s", (k > 1 ? "\t" : ""), f[want[k]]; print "" } }' "$1"
}

"$pv" cat "$plist" --view routines >"$tmp/routines.tsv"
"$pv" cat "$plist" --view call-trace >"$tmp/calls.tsv"
"$pv" cat "$rtos" --view timeline >"$tmp/timeline.tsv"
[ "$(wc -l <"$tmp/routines.tsv")" -gt 5 ] || { echo "FAIL: sample routines too small"; exit 1; }
[ "$(wc -l <"$tmp/timeline.tsv")" -gt 1000 ] || { echo "FAIL: sample timeline too small"; exit 1; }

# 1. numbers, units and && (time is integer ns in the output)
select_rows "$tmp/routines.tsv" 'f["hits"] > 50 && f["time"] > 100000000' id,routine,hits >"$tmp/exp"
"$pv" cat "$plist" --view routines --filter 'hits > 50 && time > 100ms' --columns id,routine,hits >"$tmp/out"
check "hits > 50 && time > 100ms" "$tmp/exp" "$tmp/out"
[ "$(wc -l <"$tmp/out")" -ge 2 ] || { echo "FAIL: filter 1 selects no row; pick another threshold"; fail=1; }

select_rows "$tmp/routines.tsv" 'f["hits"] >= 1000 || f["time_with_children"] < 2500000' id >"$tmp/exp"
"$pv" cat "$plist" --view routines --filter 'hits >= 1k or time_with_children < 2.5ms' --columns id >"$tmp/out"
check "k and ms units, or" "$tmp/exp" "$tmp/out"

# 2. regex, like, bare text (case-insensitive), negation
select_rows "$tmp/routines.tsv" 'f["routine"] ~ /^[A-Z_]+$/' id,routine >"$tmp/exp"
"$pv" cat "$plist" --view routines --filter 'routine ~ /^[A-Z_]+$/' --columns id,routine >"$tmp/out"
check "regex" "$tmp/exp" "$tmp/out"

select_rows "$tmp/routines.tsv" 'index(tolower(f["routine"]), "matmul") > 0' id >"$tmp/exp"
"$pv" cat "$plist" --view routines --filter MatMul --columns id >"$tmp/out"
check "bare text" "$tmp/exp" "$tmp/out"

select_rows "$tmp/routines.tsv" '!(f["routine"] ~ /@/) && f["hits"] > 0' id >"$tmp/exp"
"$pv" cat "$plist" --view routines --filter 'not routine like "*@*" && hits > 0' --columns id >"$tmp/out"
check "not like" "$tmp/exp" "$tmp/out"

# 3. sort: stable multi-key, then --limit after --filter and --sort
{ head -1 "$tmp/routines.tsv" | cut -f1,6; tail -n +2 "$tmp/routines.tsv" | cut -f1,6 | sort -s -t$'\t' -k2,2nr; } >"$tmp/exp"
[ "$(head -1 "$tmp/exp")" = "$(printf 'id\thits')" ] || { echo "FAIL: routines columns moved"; fail=1; }
"$pv" cat "$plist" --view routines --sort hits:desc --columns id,hits >"$tmp/out"
check "sort hits:desc (stable)" "$tmp/exp" "$tmp/out"

select_rows "$tmp/routines.tsv" 'f["time"] > 50000000' module,time,id >"$tmp/sel"
{ head -1 "$tmp/sel"; tail -n +2 "$tmp/sel" | sort -s -t$'\t' -k1,1 -k2,2nr | head -3; } >"$tmp/exp"
"$pv" cat "$plist" --view routines --filter 'time > 50ms' --sort 'module,time:desc' --limit 3 \
  --columns module,time,id >"$tmp/out"
check "filter, sort module,time:desc, limit 3" "$tmp/exp" "$tmp/out"

# 4. timeline: grouped columns (name, handle), per-event columns, --context first
select_rows "$tmp/timeline.tsv" 'f["name"] == "memcpy_s" && f["event"] == "E"' id,time >"$tmp/exp"
"$pv" cat "$rtos" --view timeline --filter 'name = memcpy_s && event = E' --columns id,time >"$tmp/out"
check "timeline name and event" "$tmp/exp" "$tmp/out"
[ "$(wc -l <"$tmp/out")" -ge 3 ] || { echo "FAIL: no memcpy_s entries in the sample"; fail=1; }

handle=$(awk -F'\t' 'NR == 3 { print $6 }' "$tmp/timeline.tsv")
select_rows "$tmp/timeline.tsv" 'f["handle"] == "'"$handle"'"' id >"$tmp/exp"
"$pv" cat "$rtos" --view timeline --filter "handle = $handle" --columns id >"$tmp/out"
check "handle = $handle" "$tmp/exp" "$tmp/out"
"$pv" cat "$rtos" --view timeline --filter "handle = ${handle#0x}" --columns id >"$tmp/out"
check "handle without 0x" "$tmp/exp" "$tmp/out"

select_rows "$tmp/timeline.tsv" 'f["time"] >= 100000 && f["time"] < 300000 && f["context"] == "ID_TASK_COMM"' id >"$tmp/exp"
"$pv" cat "$rtos" --view timeline --context ID_TASK_COMM --filter 'time >= 100us && time < 0.3ms' \
  --columns id >"$tmp/out"
check "--context then --filter" "$tmp/exp" "$tmp/out"
[ "$(wc -l <"$tmp/out")" -ge 10 ] || { echo "FAIL: time window selects too few rows"; fail=1; }

# 5. tree: matching rows and their ancestors, in pre-order
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; print "id\troutine"; next }
  { n++; id[n] = $(idx["id"]); par[$(idx["id"])] = $(idx["parent"]); name[n] = $(idx["routine"])
    if ($(idx["routine"]) == "_MATMUL@12") hit[$(idx["id"])] = 1 }
  END { for (k in hit) for (p = k; p != ""; p = par[p]) keep[p] = 1
        for (i = 1; i <= n; i++) if (keep[id[i]]) print id[i] "\t" name[i] }' "$tmp/calls.tsv" >"$tmp/exp"
"$pv" cat "$plist" --view call-trace --filter 'routine = "_MATMUL@12"' --columns id,routine >"$tmp/out"
check "tree keeps ancestors" "$tmp/exp" "$tmp/out"

# 6. tree sort: siblings by hits descending (stable), shape kept (pre-order)
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
  function emit(p,   k, j, t, c, m) {
    m = nkid[p]
    for (k = 2; k <= m; k++) {            # stable insertion sort, hits descending
      t = kid[p, k]
      for (j = k - 1; j >= 1 && hits[kid[p, j]] < hits[t]; j--) kid[p, j + 1] = kid[p, j]
      kid[p, j + 1] = t
    }
    for (k = 1; k <= m; k++) { c = kid[p, k]; print c "\t" par[c]; emit(c) }
  }
  { i = $(idx["id"]); par[i] = $(idx["parent"]); hits[i] = $(idx["hits"]) + 0
    kid[par[i], ++nkid[par[i]]] = i }
  END { print "id\tparent"; emit("") }' "$tmp/calls.tsv" >"$tmp/exp"
"$pv" cat "$plist" --view call-trace --sort hits:desc --columns id,parent >"$tmp/out"
check "tree sort keeps shape" "$tmp/exp" "$tmp/out"
[ "$(wc -l <"$tmp/out")" -eq "$(wc -l <"$tmp/calls.tsv")" ] || { echo "FAIL: tree sort lost rows"; fail=1; }

# 7. an empty filter keeps everything
"$pv" cat "$plist" --view routines --filter '  ' >"$tmp/out"
check "empty filter" "$tmp/routines.tsv" "$tmp/out"

# 8. AQTime: a tree of several threads in result set 2, names with a tab
# (written \t by cat, and matched by "\t" in a filter), '<' inside a quoted value
aq=$src/sample-data/aqtime-trace.db
if [ -f "$aq" ]; then
  "$pv" cat "$aq" --instance 2 --view call-trace >"$tmp/aqcalls.tsv"
  awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; print "id\troutine"; next }
    { n++; id[n] = $(idx["id"]); par[$(idx["id"])] = $(idx["parent"]); name[n] = $(idx["routine"])
      if ($(idx["routine"]) == "render\\tframe" && $(idx["thread"]) == 7002) hit[$(idx["id"])] = 1 }
    END { for (k in hit) for (p = k; p != ""; p = par[p]) keep[p] = 1
          for (i = 1; i <= n; i++) if (keep[id[i]]) print id[i] "\t" name[i] }' "$tmp/aqcalls.tsv" >"$tmp/exp"
  "$pv" cat "$aq" --instance 2 --view call-trace --filter 'routine = "render\tframe" && thread = 7002' \
    --columns id,routine >"$tmp/out"
  check "AQTime tree filter, tab in a name" "$tmp/exp" "$tmp/out"
  [ "$(wc -l <"$tmp/out")" -ge 3 ] || { echo "FAIL: AQTime filter selects too few rows"; fail=1; }
fi
aqr=$src/sample-data/aqtime-resource.db
if [ -f "$aqr" ]; then
  "$pv" cat "$aqr" --view objects >"$tmp/objects.tsv"
  select_rows "$tmp/objects.tsv" 'f["class"] == "HANDLE<Event>" || f["size"] >= 400' size,id,class >"$tmp/sel"
  { head -1 "$tmp/sel"; tail -n +2 "$tmp/sel" | sort -s -t$'\t' -k1,1nr; } >"$tmp/exp"
  "$pv" cat "$aqr" --view objects --filter 'class = "HANDLE<Event>" || size >= 400' --sort size:desc \
    --columns size,id,class >"$tmp/out"
  check "AQTime objects, quoted '<', sort size:desc" "$tmp/exp" "$tmp/out"
  [ "$(wc -l <"$tmp/out")" -ge 3 ] || { echo "FAIL: AQTime objects filter selects too few rows"; fail=1; }
fi

# 9. errors: usage error (exit 1), the expression, a caret, the message
expect_error() { # name expected-stderr args...
  local name=$1 want=$2 rc=0
  shift 2
  "$pv" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
  if [ "$rc" -ne 1 ]; then echo "FAIL: $name: exit $rc, expected 1"; fail=1; fi
  printf '%s\n' "$want" >"$tmp/want"
  check "$name (stderr)" "$tmp/want" "$tmp/err"
  [ -s "$tmp/out" ] && { echo "FAIL: $name wrote rows"; fail=1; }
  return 0
}
expect_error "missing value" "profview: bad --filter:
hits > 
       ^
expected a value after '>' at column 8" cat "$plist" --view routines --filter 'hits > '
expect_error "unbalanced parenthesis" "profview: bad --filter:
hits > 1)
        ^
unexpected ')' at column 9" cat "$plist" --view routines --filter 'hits > 1)'
expect_error "type mismatch" "profview: bad --filter:
routine > 5us
          ^
column 'routine' is a string; '5us' is a time (quote it to compare text) at column 11" \
  cat "$plist" --view routines --filter 'routine > 5us'
expect_error "bad sort" "profview: bad --sort:
hits:desc,nope
          ^
unknown column 'nope' at column 11; columns: id, routine, module, exe, source, hits, time, time_with_children, percent_time, percent_hits, avg_time, avg_time_with_children, covered, file_line" \
  cat "$plist" --view routines --sort 'hits:desc,nope'

exit $fail
