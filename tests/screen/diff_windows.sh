#!/usr/bin/env bash
# The viewer's diff of two time windows of one timeline (docs/diff.md):
# `:diff FROM..TO FROM..TO` and `:diff A..B` (the window between the markers
# against the window of the same length before it).  The counts of matched
# and unmatched rows on screen are checked against `profview diff` of the
# same windows (--from/--to, --from-b/--to-b), an independent path through
# the command line; then the diff is a view like any other (filter), and the
# refusals.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
need_sample aqtime-trace.db
cd "$SAMPLES"

# cli_counts ARGS...: "N rows in both, N only in a, N only in b" from profview diff
cli_counts() {
  "$PROFVIEW" diff rtos.txt rtos.txt --view statistics "$@" --columns match | tail -n +2 \
    | awk '{ n[$1]++ } END { printf "%d rows in both, %d only in a, %d only in b", n["both"], n["a"], n["b"] }'
}

# Statistics is the 5th Explorer line; the timeline the 7th.
to_stats=$'Shift-Tab\ng j j j j\nTab'
to_timeline=$'Shift-Tab\ng j j j j j j\nTab'

# two windows named by times
out=$(pv_screen "$to_stats"$'\n:diff 0..100us 100us..200us<Enter>' rtos.txt --size 150x30)
expect_contains windows_report "$out" "─ Report: Diff of Statistics"
expect_contains windows_header "$out" "a Count  b Count  Δ Count"
want=$(cli_counts --to 100us --from-b 100us --to-b 200us)
expect_contains windows_counts "$out" "diff of 0..100.000 us (a) with 100.000 us..200.000 us (b): $want"

# A..B: markers set on timeline rows (their times), against the window before
keys="$to_timeline"$'\n:goto 100us<Enter>\nm\n:goto 200us<Enter>\nM\n'"$to_stats"$'\n:diff A..B<Enter>'
out=$(pv_screen "$keys" rtos.txt --size 120x30)
msg=$(printf '%s\n' "$out" | grep -o 'diff of .* (a) with .* (b)') || fail "no window diff message: $out"
# the four ends in ns: "224 ns", "100.161 us" (3 decimals: exact to the ns)
read -r a_lo a_hi b_lo b_hi < <(python3 -c '
import re, sys
units = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}
ends = re.findall(r"([0-9]+(?:\.[0-9]+)?) (ns|us|ms|s)\b", sys.argv[1])
print(" ".join(str(round(float(v) * units[u])) for v, u in ends))' "$msg")
# the window before: as long as A..B, ending at A
[ "$a_hi" = "$b_lo" ] && [ $((a_hi - a_lo)) = $((b_hi - b_lo)) ] \
  || fail "A..B: the first window is not the one of the same length before it: $msg"
want=$(cli_counts --from "${a_lo}ns" --to "${a_hi}ns" --from-b "${b_lo}ns" --to-b "${b_hi}ns")
expect_contains markers_counts "$out" "$msg: $want"
expect_contains markers_status "$out" "B-A"

# the diff is a view like any other: filtered on its match column
out=$(pv_screen "$to_stats"$'\n:diff 0..100us 100us..200us<Enter>\n:filter match = "b"<Enter>' \
  rtos.txt --size 120x30)
n_b=$("$PROFVIEW" diff rtos.txt rtos.txt --view statistics --to 100us --from-b 100us --to-b 200us \
  --filter 'match = "b"' | tail -n +2 | wc -l)
expect_contains windows_filtered "$out" "filter: match = \"b\" ($n_b)"
expect_absent windows_filtered_rows "$(printf '%s\n' "$out" | sed -n '3,20p')" "│both "

# refused: a marker not set, a file without a time axis, a graph shown
out=$(pv_screen "$to_stats"$'\n:diff A..B<Enter>' rtos.txt --size 120x30)
expect_contains refused_no_marker "$out" "that marker is not set"
out=$(pv_screen $'Tab\n:diff 0..1ms 1ms..2ms<Enter>' aqtime-trace.db --size 120x30)
expect_contains refused_no_time_axis "$out" "this file has no time axis to cut into windows"
out=$(pv_screen "$to_stats"$'\nF\n:diff 0..100us 100us..200us<Enter>' rtos.txt --size 120x30)
expect_contains refused_graph "$out" "leave the graph first"

# ... sorted and exported like any view: `:sort net_delta:desc` then `:copy
# FILE` writes the rows as TSV, the same rows in the same order as
# `profview diff --sort net_delta:desc` of the same windows
out=$(pv_screen "$to_stats"$'\n:diff 0..100us 100us..200us<Enter>\n:sort net_delta:desc<Enter>\n:copy '"$TMP/diff.tsv"'<Enter>' \
  rtos.txt --size 120x30)
expect_contains windows_copied "$out" "to $TMP/diff.tsv"
cols=match,handle,type,name,value,context,count_a,count_b,net_a,net_b,net_delta,net_ratio
python3 - "$TMP/diff.tsv" "$cols" >"$TMP/got" <<'PY'
import sys
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1], encoding='utf-8')]
ix = [rows[0].index(c) for c in sys.argv[2].split(',')]
for r in rows:
    print('\t'.join(r[i] for i in ix))
PY
"$PROFVIEW" diff rtos.txt rtos.txt --view statistics --to 100us --from-b 100us --to-b 200us \
  --sort net_delta:desc --columns "$cols" >"$TMP/want"
if cmp -s "$TMP/want" "$TMP/got"; then
  echo "ok: windows_sorted_exported ($(($(wc -l <"$TMP/got") - 1)) rows)"
else
  diff "$TMP/want" "$TMP/got" | head >&2; fail "the sorted diff copied from the viewer differs from profview diff"
fi
