#!/usr/bin/env bash
# `profview diff A B --view ID` (docs/diff.md): a file with itself (every
# row matched, deltas 0, ratios 1 or empty where a is 0); two generated runs
# with known differences (generator runs with other seeds and task counts:
# contexts only in one of them), checked against an independent join of the
# two `cat` outputs; two result sets of one file (--instance/--instance-b);
# the diff filtered and sorted like any view; errors.
set -euo pipefail
src=${PV_SOURCE_DIR:?}
pv=${PROFVIEW:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$src/sample-data
fail=0

# 1. a file with itself
for spec in rtos.txt:statistics rtos.txt:routines rtos.txt:flame aqtime-trace.db:routines \
            aqtime-resource.db:classes plist-func-timing.txt:routines plist-func-timing.txt:flame; do
  f=$S/${spec%%:*} view=${spec##*:}
  "$pv" diff "$f" "$f" --view "$view" --format json >"$tmp/self.json"
  rows=$("$pv" cat "$f" --view "$view" | tail -n +2 | wc -l)
  python3 - "$tmp/self.json" "$rows" "$spec" <<'EOF' || fail=1
import json, sys
rows = json.load(open(sys.argv[1]))
want = int(sys.argv[2])
bad = []
if len(rows) != want:
    bad.append('%d rows, the view has %d' % (len(rows), want))
deltas = 0
for r in rows:
    if r['match'] != 'both':
        bad.append('row %s unmatched' % r['id'])
    for k, v in r.items():
        if k.endswith('_delta'):
            deltas += 1
            base = k[:-6]
            a, ratio = r[base + '_a'], r[base + '_ratio']
            if a in ('', None):  # absent on both sides: no delta
                if v not in ('', None) or ratio not in ('', None):
                    bad.append('%s = %r without values' % (k, v))
                continue
            if v in ('', None) or float(v) != 0:
                bad.append('%s = %r' % (k, v))
            if a not in ('', None) and float(a) != 0 and float(ratio) != 1:
                bad.append('%s = %r' % (base + '_ratio', ratio))
            if a not in ('', None) and float(a) == 0 and ratio not in ('', None):
                bad.append('%s = %r with a = 0' % (base + '_ratio', ratio))
if not deltas:
    bad.append('no delta columns')
if bad:
    print('FAIL: %s: %s' % (sys.argv[3], '; '.join(bad[:5])))
    sys.exit(1)
print('ok: %s with itself: %d rows, %d deltas all 0' % (sys.argv[3], len(rows), deltas))
EOF
done

# 2. two generated runs with known differences
gen=${PV_BUILD_DIR:-}/pv_gen_winidea
if [ -x "$gen" ]; then
  A=$tmp/a.txt B=$tmp/b.txt
  "$gen" --seed 7 --tasks 3 --events 20000 --format text -o "$A" >/dev/null
  "$gen" --seed 8 --tasks 4 --events 20000 --format text -o "$B" >/dev/null
  cols=handle,type,name,value,context,count,net
  "$pv" cat "$A" --view statistics --columns $cols >"$tmp/sa"
  "$pv" cat "$B" --view statistics --columns $cols >"$tmp/sb"
  "$pv" diff "$A" "$B" --view statistics \
    --columns match,handle,type,name,value,context,count_a,count_b,count_delta,count_ratio,net_a,net_b,net_delta,net_ratio \
    >"$tmp/d"
  python3 - "$tmp/sa" "$tmp/sb" "$tmp/d" <<'EOF' || fail=1
import sys
def load(p):
    lines = [l.rstrip('\n').split('\t') for l in open(p)]
    return lines[0], lines[1:]
_, a = load(sys.argv[1]); _, b = load(sys.argv[2]); head, d = load(sys.argv[3])
key = lambda r: tuple(r[:5])
ia = {key(r): r for r in a}; ib = {key(r): r for r in b}
want = {}
for k in set(ia) | set(ib):
    ra, rb = ia.get(k), ib.get(k)
    row = ['both' if ra and rb else 'a' if ra else 'b'] + list(k)
    for c in (5, 6):
        va = ra[c] if ra else ''
        vb = rb[c] if rb else ''
        delta = str(int(vb) - int(va)) if ra and rb else ''
        ratio = ''
        if ra and rb and int(va) != 0:
            ratio = repr(int(vb) / int(va))
            if ratio.endswith('.0'):
                ratio = ratio[:-2]
        row += [va, vb, delta, ratio]
    want[k] = row
got = {tuple(r[1:6]): r for r in d}
bad = [k for k in want if got.get(k) != want[k]] + [k for k in got if k not in want]
counts = {m: sum(1 for r in d if r[0] == m) for m in ('both', 'a', 'b')}
if bad or len(d) != len(want):
    for k in bad[:5]:
        print('want', want.get(k), '\ngot ', got.get(k))
    print('FAIL: generated runs: %d rows differ' % len(bad)); sys.exit(1)
if not (counts['a'] and counts['b'] and counts['both']):
    print('FAIL: generated runs should have rows on both sides and unmatched rows: %r' % counts)
    sys.exit(1)
# rows of a first, in a's order, then the rows only in b
order = [tuple(r[:5]) for r in a] + [tuple(r[:5]) for r in b if tuple(r[:5]) not in ia]
if [tuple(r[1:6]) for r in d] != order:
    print('FAIL: generated runs: row order'); sys.exit(1)
print('ok: generated runs: %d matched, %d only in a, %d only in b' %
      (counts['both'], counts['a'], counts['b']))
EOF

  # filtered and sorted like any view: the regressions of net time, worst first
  "$pv" diff "$A" "$B" --view statistics --filter 'net_delta > 0 and type = "function"' \
    --sort net_delta:desc --columns name,context,net_delta | tail -n +2 >"$tmp/got"
  awk -F'\t' 'NR > 1 && $1 == "both" && $3 == "function" && $13 > 0 { print $4 "\t" $6 "\t" $13 }' \
    "$tmp/d" | sort >"$tmp/want"
  if [ -s "$tmp/want" ] && cmp -s <(sort "$tmp/got") "$tmp/want" &&
     awk -F'\t' 'NR > 1 && $3 > prev { bad++ } { prev = $3 } END { exit bad > 0 }' "$tmp/got"; then
    echo "ok: diff filtered and sorted ($(wc -l <"$tmp/got") regressions)"
  else
    echo "FAIL: diff --filter/--sort"; diff "$tmp/want" "$tmp/got" | head; fail=1
  fi
  # --context selects by the key column; csv output
  n=$("$pv" diff "$A" "$B" --view flame --context Neutral --format csv | tail -n +2 | wc -l)
  [ "$n" = 0 ] || { echo "FAIL: flame has no Neutral context"; fail=1; }
  # the call paths of a are all in b (b has one task more); line frames
  # (docs/flame.md) come and go with the random steps, so they are left out
  "$pv" cat "$A" --view lines --columns name | tail -n +2 | sort -u >"$tmp/line_names"
  "$pv" diff "$A" "$B" --view flame --columns match,stack | tail -n +2 \
    | awk -F'\t' 'NR == FNR { gsub(/%/, "%25"); gsub(/;/, "%3B"); line[$0] = 1; next }
                  { n = split($2, f, ";") } !(f[n] in line) { print $1 }' "$tmp/line_names" - \
    | sort -u | tr '\n' ' ' | grep -qx 'b both ' \
    || { echo "FAIL: flame diff: call paths only in b (its extra task) and in both expected"; fail=1; }
fi

# 3. two result sets of one file: unmatched rows on either side (other modules)
"$pv" diff "$S/aqtime-trace.db" "$S/aqtime-trace.db" --instance 1 --instance-b 2 --view routines \
  --columns match,routine,module,hits_a,hits_b >"$tmp/i"
"$pv" cat "$S/aqtime-trace.db" --instance 1 --view routines --columns routine,module,hits >"$tmp/r1"
"$pv" cat "$S/aqtime-trace.db" --instance 2 --view routines --columns routine,module,hits >"$tmp/r2"
python3 - "$tmp/r1" "$tmp/r2" "$tmp/i" <<'EOF' || fail=1
import sys
rd = lambda p: [l.rstrip('\n').split('\t') for l in open(p)][1:]
r1, r2, d = rd(sys.argv[1]), rd(sys.argv[2]), rd(sys.argv[3])
k1 = {(r[0], r[1]): r[2] for r in r1}; k2 = {(r[0], r[1]): r[2] for r in r2}
for r in d:
    k = (r[1], r[2])
    want = 'both' if k in k1 and k in k2 else 'a' if k in k1 else 'b'
    if r[0] != want or r[3] != k1.get(k, '') or r[4] != k2.get(k, ''):
        print('FAIL: instances: row', r); sys.exit(1)
if len(d) != len(set(k1) | set(k2)):
    print('FAIL: instances: %d rows' % len(d)); sys.exit(1)
print('ok: two result sets of one file: %d rows' % len(d))
EOF

# 4. two windows of one timeline: --from/--to cut A, --from-b/--to-b cut B
"$pv" diff "$S/rtos.txt" "$S/rtos.txt" --view statistics --to 100us --from-b 100us --to-b 1s \
  --filter 'match = "both"' --columns handle,value,context,net_a,net_b | tail -n +2 | sort >"$tmp/w"
"$pv" cat "$S/rtos.txt" --view statistics --to 100us --columns handle,value,context,net | tail -n +2 \
  | sort >"$tmp/w1"
"$pv" cat "$S/rtos.txt" --view statistics --from 100us --to 1s --columns handle,value,context,net \
  | tail -n +2 | sort >"$tmp/w2"
join -t $'\t' <(awk -F'\t' '{ print $1 "|" $2 "|" $3 "\t" $4 }' "$tmp/w1" | sort) \
               <(awk -F'\t' '{ print $1 "|" $2 "|" $3 "\t" $4 }' "$tmp/w2" | sort) \
  | tr '|' '\t' | sort >"$tmp/wj"
if [ -s "$tmp/w" ] && cmp -s "$tmp/w" "$tmp/wj" && awk -F'\t' '$4 != $5 { d++ } END { exit !d }' "$tmp/w"; then
  echo "ok: two windows of one timeline ($(wc -l <"$tmp/w") rows in both)"
else
  echo "FAIL: --from-b/--to-b"; diff "$tmp/wj" "$tmp/w" | head; fail=1
fi

# 5. errors
rc=0; "$pv" diff "$S/rtos.txt" --view routines >/dev/null 2>&1 || rc=$?
[ $rc = 1 ] || { echo "FAIL: diff of one file: rc $rc"; fail=1; }
rc=0; "$pv" diff "$S/rtos.txt" "$S/rtos.txt" >/dev/null 2>&1 || rc=$?
[ $rc = 1 ] || { echo "FAIL: diff without --view: rc $rc"; fail=1; }
rc=0; "$pv" diff "$S/rtos.txt" "$S/rtos.txt" --view nope >/dev/null 2>&1 || rc=$?
[ $rc = 1 ] || { echo "FAIL: diff of an unknown view: rc $rc"; fail=1; }
rc=0; "$pv" diff "$S/rtos.txt" "$S/aqtime-trace.db" --view statistics >/dev/null 2>"$tmp/err" || rc=$?
[ $rc = 1 ] || { echo "FAIL: diff of a view B lacks: rc $rc"; fail=1; }
rc=0; "$pv" diff "$S/rtos.txt" "$S/missing.txt" --view routines >/dev/null 2>"$tmp/err" || rc=$?
[ $rc = 2 ] && grep -q 'missing.txt' "$tmp/err" || { echo "FAIL: diff of a missing file: rc $rc"; fail=1; }

[ $fail = 0 ] && echo "diff_views: all ok"
exit $fail
