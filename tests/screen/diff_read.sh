#!/usr/bin/env bash
# Diffs that can be read (docs/diff.md): column titles that still say which
# is which when cut at 80 columns (the side or the operation first: "a",
# "b", "Δ" ("d" in ASCII), "×" ("x")); `:diff A..B` on a timeline compares
# the statistics of each area over the two windows (checked against `cat
# --view statistics --from/--to` of each window), not events by index;
# references (an event's index, a call's number) are carried, never
# subtracted; and the comparison is a job: in steps with its percentage,
# Esc stops it and the view stays as it was.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
cd "$SAMPLES"

to_routines=$'Shift-Tab\ng j j j j j j j j\nTab'
to_timeline=$'Shift-Tab\ng j j j j j j\nTab'
to_stats=$'Shift-Tab\ng j j j j\nTab'
cols=routine,time_with_children_a,time_with_children_b,time_with_children_delta,time_with_children_ratio,hits_a,hits_b,hits_delta

# report_part SCREEN: the Report pane of a dumped screen (right of the
# Explorer), down to the Details
report_part() {
  awk -F'│' 'NR > 1 && /─ Details/ { exit } NR > 1 { print $2 }' <<<"$1" | sed 's/ *$//'
}

# ---- titles cut at 80 columns, UTF-8 and ASCII (golden)
keys="$to_routines"$'\n:diff 0..100us 100us..200us<Enter>\n:columns '"$cols"'<Enter>'
out=$(pv_screen "$keys" rtos.txt --size 80x24)
expect_screen titles_80x24 "$(report_part "$out")" "$(cat <<'EOF'
Routine          a Hits  b Hits  Δ Hits a Time with… b Tim…
Task_Fast             5       5       0    24.598 us 29.93…
Task_Control          2       2       0     2.223 us 7.552…
Task_Comm             1       1       0     9.063 us 8.295…
Idle_Loop             0       0       0    58.302 us 48.80…
ISR_Timer             2       3       1     5.814 us 5.410…
"Test.c"#Static      12      11      -1    13.881 us 17.23…
Sensor_Read           8      10       2     7.480 us 11.73…
CAN_Process           3       7       4     6.702 us 6.838…
CRC_Calc             19      27       8     7.951 us 10.33…
memcpy_s             12      14       2     3.356 us 5.109…
Idle_Hook           104      95      -9    35.017 us 26.09…

EOF
)"
# scrolled right: the four columns of one measure, cut, still tell apart
out=$(pv_screen "$keys"$'\nl l l l' rtos.txt --size 80x24)
head=$(report_part "$out" | head -1)
expect_contains titles_scrolled "$head" "a Time with… b Time with… Δ Time with… × T"
out=$(pv_screen "$keys"$'\nl l l l' rtos.txt --size 80x24 --ascii)
head=$(awk -F'|' 'NR == 2 { print $2 }' <<<"$out")
expect_contains titles_ascii "$head" "a Time with> b Time with> d Time with> x T"

# ---- :diff A..B on the timeline: the statistics of each area
keys="$to_timeline"$'\n:goto 100us<Enter>\nm\n:goto 200us<Enter>\nM\n:diff A..B<Enter>'
out=$(pv_screen "$keys" rtos.txt --size 120x30)
expect_contains windows_statistics "$out" "─ Report: Diff of Statistics"
msg=$(printf '%s\n' "$out" | grep -o 'diff of .* (a) with .* (b)') || fail "no window diff message: $out"
read -r a_lo a_hi b_lo b_hi < <(python3 -c '
import re, sys
units = {"ns": 1, "us": 1000, "ms": 10**6, "s": 10**9}
ends = re.findall(r"([0-9]+(?:\.[0-9]+)?) (ns|us|ms|s)\b", sys.argv[1])
print(" ".join(str(round(float(v) * units[u])) for v, u in ends))' "$msg")
out=$(pv_screen "$keys"$'\n:copy '"$TMP/d.tsv"'<Enter>' rtos.txt --size 120x30)
expect_contains windows_copied "$out" "to $TMP/d.tsv"
"$PROFVIEW" cat rtos.txt --view statistics --from "${a_lo}ns" --to "${a_hi}ns" >"$TMP/sa"
"$PROFVIEW" cat rtos.txt --view statistics --from "${b_lo}ns" --to "${b_hi}ns" >"$TMP/sb"
python3 - "$TMP/d.tsv" "$TMP/sa" "$TMP/sb" <<'PY' || fail "the window diff is not the statistics of each window"
import sys
def rows(p):
    lines = [l.rstrip('\n').split('\t') for l in open(p, encoding='utf-8')]
    return [dict(zip(lines[0], r)) for r in lines[1:]]
d, sa, sb = rows(sys.argv[1]), rows(sys.argv[2]), rows(sys.argv[3])
key = ('handle', 'type', 'name', 'value', 'context')
ka = {tuple(r[k] for k in key): r for r in sa}
kb = {tuple(r[k] for k in key): r for r in sb}
measures = ('count', 'net', 'gross', 'net_max')
if not d or 'index_a' in d[0] or 'index_delta' in d[0]:
    sys.exit('the diff compares events, not areas: %r' % list(d[0])[:12])
seen, changed = set(), 0
for r in d:
    k = tuple(r[c] for c in key)
    seen.add(k)
    a, b = ka.get(k), kb.get(k)
    want = 'both' if a and b else 'a' if a else 'b'
    if r['match'] != want:
        sys.exit('%r: match %s, want %s' % (k, r['match'], want))
    for m in measures:
        if r[m + '_a'] != (a[m] if a else '') or r[m + '_b'] != (b[m] if b else ''):
            sys.exit('%r %s: %s/%s, the windows say %s/%s' % (k, m, r[m + '_a'], r[m + '_b'],
                     a and a[m], b and b[m]))
        if a and b and a[m] and b[m]:
            if r[m + '_delta'] != str(int(b[m]) - int(a[m])):
                sys.exit('%r %s_delta %s' % (k, m, r[m + '_delta']))
            changed += a[m] != b[m]
if seen != set(ka) | set(kb):
    sys.exit('areas: %d in the diff, %d in the windows' % (len(seen), len(set(ka) | set(kb))))
if not changed:
    sys.exit('no measure differs between the windows: the test would prove nothing')
print('ok: %d areas, their count, net, gross and net_max are the windows\' (%d differ)'
      % (len(d), changed))
PY
# the diff goes back to the timeline
out=$(pv_screen "$keys"$'\nq' rtos.txt --size 120x30)
expect_contains windows_back "$out" "─ Report: Timeline"

# ---- references carried, not subtracted (the command line's diff of events)
head=$("$PROFVIEW" diff rtos.txt rtos.txt --view timeline --to 100us --from-b 100us --to-b 200us --limit 1 |
  head -1 | tr '\t' '\n')
for c in index_a index_b time_delta; do
  grep -qx "$c" <<<"$head" || fail "timeline diff: no column $c"
done
for c in index_delta index_ratio depth_delta; do
  grep -qx "$c" <<<"$head" && fail "timeline diff: the reference $c is subtracted"
done
head=$("$PROFVIEW" diff rtos.txt rtos.txt --view call-trace --limit 1 | head -1 | tr '\t' '\n')
grep -qx call_no_a <<<"$head" && ! grep -qx call_no_delta <<<"$head" && grep -qx time_delta <<<"$head" ||
  fail "call-trace diff: call_no is subtracted or missing: $(tr '\n' ' ' <<<"$head")"
echo "ok: references carried (index, depth, call_no), measures subtracted (time)"

# ---- the comparison as a job: in steps (work-slice: one step of 20 rows
# a key), Esc stops it and the view stays as it was
PV_TEST="--test work-slice=20"
keys="$to_stats"$'\n:diff 0..100us 100us..200us<Enter>\nCtrl-L'
out=$(pv_screen "$keys" rtos.txt --size 120x30)
expect_contains job_progress "$out" "Comparing... "
expect_contains job_progress_stops "$out" "% (Esc stops)"
out=$(pv_screen "$keys"$'\nCtrl-L\nEsc' rtos.txt --size 120x30)
expect_contains job_stopped "$out" "comparison stopped: the view stays as it was"
expect_contains job_view_stays "$out" "─ Report: Statistics "
expect_absent job_no_diff "$out" "Diff of"
out=$(pv_screen "$keys"$'\nCtrl-L\nCtrl-C\nj' rtos.txt --size 120x30)
expect_contains job_ctrl_c "$out" "row 2/83"
out=$(pv_screen "$keys"$'\n'"$(printf 'Ctrl-L %.0s' {1..60})" rtos.txt --size 120x30)
expect_contains job_finishes "$out" "─ Report: Diff of Statistics"
# the same for two result sets of one file (:diff N)
need_sample aqtime-trace.db
PV_TEST="--test work-slice=5"
out=$(pv_screen $'Shift-Tab\nj j j\nTab\n:diff 2<Enter>' aqtime-trace.db --size 100x24)
expect_contains job_sets_progress "$out" "Comparing... "
out=$(pv_screen $'Shift-Tab\nj j j\nTab\n:diff 2<Enter>\nEsc' aqtime-trace.db --size 100x24)
expect_contains job_sets_stopped "$out" "comparison stopped: the view stays as it was"
expect_contains job_sets_view_stays "$out" "─ Report: Routines "
out=$(pv_screen $'Shift-Tab\nj j j\nTab\n:diff 2<Enter>\n'"$(printf 'Ctrl-L %.0s' {1..30})" \
  aqtime-trace.db --size 100x24)
expect_contains job_sets_finishes "$out" "diff with result set 2: "
exit 0
