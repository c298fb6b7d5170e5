#!/usr/bin/env bash
# `cat --view flame` and `--format folded` (docs/flame.md) against an
# independent computation from the call trees: every call's path from the
# root (its thread or context first), frames escaped as %XX for `;`, `%`
# and control characters, self and total summed per path.  winIDEA line
# areas are frames inside the function call they run in, named as the area
# (docs/flame.md): those paths are told apart with the `lines` view and
# checked on their own (under a call path, total = self).  Then the
# invariants: winIDEA self summed per area and context = the `net` of the
# `statistics` view, for function and line areas, also over a window;
# AQTime self summed per routine = the `routines` time (each path's time is
# converted from its summed cycles on its own: at most 1 ns per path apart;
# a routine's sandwich is exact, tests/unit/test_aqtime.c).
set -euo pipefail
src=${PV_SOURCE_DIR:?}
pv=${PROFVIEW:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$src/sample-data

# A hand-written timeline whose names hold `;` and `%`.
cat >"$tmp/names.txt" <<'EOF'
* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%
00000000,main,
00000001,a;b,
00000002,50%load,

* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%
00000000,E,,100
00000001,E,,200
00000001,X,,300
00000002,E,,400
00000002,X,,450
00000000,X,,500
EOF

files=("$S/aqtime-trace.db:1" "$S/aqtime-trace.db:2" "$S/plist-func-timing.txt:1"
       "$S/rtos.txt:1" "$S/rtos-ctx.txt:1" "$S/rtos-v10.txt:1" "$S/rtos-v11.txt:1"
       "$S/seed-example.txt:1" "$tmp/names.txt:1")
gen=${PV_BUILD_DIR:-}/pv_gen_winidea
if [ -x "$gen" ]; then
  "$gen" --seed 41 --tasks 5 --events 30000 --format bin11 -o "$tmp/gen.txt" >/dev/null
  files+=("$tmp/gen.txt:1")
fi

# expected.py CALLTRACE.tsv [AQTIME.db INST] -> "stack<TAB>self<TAB>total<TAB>calls"
# per path, sorted.  With an AQTime database the calls' times are its raw
# counter values (COL__S, COL__S_WITH_CHILDREN by ID), summed per path and
# converted once (docs/flame.md "Raw values"): round(cycles * 1e9 /
# frequency), half away from zero, for a time counter (docs/aqtime.md
# "Counters").
cat >"$tmp/expected.py" <<'EOF'
import sys, csv, sqlite3
raw, convert = None, lambda v: v
if len(sys.argv) > 3:
    db = sqlite3.connect(sys.argv[2])
    inst = int(sys.argv[3])
    raw = {str(i): (s, w) for i, s, w in db.execute(
        'SELECT ID, COL__S, COL__S_WITH_CHILDREN FROM FUNCTION_TRACE_PROFILER_CALL_TRACE '
        'WHERE INST_ID = ?', (inst,))}
    name, desc, freq = db.execute('SELECT COUNTER_NAME, COUNTER_DESCRIPTION, COUNTER_FREQUENCY '
                                  'FROM INSTANCES WHERE INST_ID = ?', (inst,)).fetchone()
    timed = (name or '').lower() == 'time' or (desc or '').lower() in (
        'elapsed time', 'user time', 'user+kernel time')
    if timed and freq and int(freq) == freq and freq > 0:
        def convert(c, f=int(freq)):
            q, r = divmod(abs(c) * 10**9, f)
            q += 2 * r >= f
            return q if c >= 0 else -q
def time_of(r, ix, col, k):
    if raw is not None:
        return int(raw[r[ix['id']]][k] or 0)
    return int(r[ix[col]] or 0)
def unescape_tsv(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == '\\' and i + 1 < len(s):
            c = s[i + 1]
            if c == 'x':
                out.append(chr(int(s[i + 2:i + 4], 16))); i += 4; continue
            out.append({'t': '\t', 'n': '\n', 'r': '\r', '\\': '\\'}[c]); i += 2; continue
        out.append(s[i]); i += 1
    return ''.join(out)
def esc(name):
    return ''.join('%%%02X' % ord(c) if c in ';%' or ord(c) < 32 or ord(c) == 127 else c
                   for c in name)
rows = [l.rstrip('\n').split('\t') for l in open(sys.argv[1], encoding='utf-8')]
head, rows = rows[0], rows[1:]
ix = {h: i for i, h in enumerate(head)}
ctx_col = 'context' if 'context' in ix else 'thread'
path_of, acc = {}, {}
for r in rows:
    rid, parent = r[ix['id']], r[ix['parent']]
    if parent and parent in path_of:
        prefix = path_of[parent]
    else:
        c = r[ix[ctx_col]] if ctx_col in ix else ''
        if c == '':
            prefix = ''
        else:
            c = unescape_tsv(c)
            prefix = esc(c if not c.lstrip('-').isdigit() else 'Thread ' + c)
            a = acc.setdefault(prefix, [0, 0, 0])
            a[1] += time_of(r, ix, 'time_with_children', 1)
    name = esc(unescape_tsv(r[ix['routine']]))
    path = prefix + ';' + name if prefix else name
    path_of[rid] = path
    a = acc.setdefault(path, [0, 0, 0])
    a[0] += time_of(r, ix, 'time', 0)
    a[1] += time_of(r, ix, 'time_with_children', 1)
    a[2] += 1
for p in sorted(acc):
    # TSV output escapes backslashes of names
    print('%s\t%d\t%d\t%d' % (p.replace('\\', '\\\\'), convert(acc[p][0]),
                               convert(acc[p][1]), acc[p][2]))
EOF

# lineframes.py FLAME.tsv LINES.tsv|- OUT: splits the `flame` view's rows
# (stack, self, total, calls) into call paths (stdout: stack, self, total,
# calls) and line frames (OUT: stack, self, total).  A line frame is a
# frame named as a line area of the function in the frame above it (the
# `lines` view: name, line, function).
cat >"$tmp/lineframes.py" <<'EOF'
import sys
def unesc(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == '%' and len(s[i + 1:i + 3]) == 2:
            out.append(chr(int(s[i + 1:i + 3], 16))); i += 3; continue
        out.append(s[i]); i += 1
    return ''.join(out)
labels = set()
if sys.argv[2] != '-':
    for l in list(open(sys.argv[2], encoding='utf-8'))[1:]:
        name, line, function = l.rstrip('\n').split('\t')
        labels.add((function, name))
with open(sys.argv[3], 'w') as lines_out:
    for l in list(open(sys.argv[1], encoding='utf-8'))[1:]:
        stack, self_, total, calls = l.rstrip('\n').split('\t')
        frames = [unesc(f) for f in stack.split(';')]
        if len(frames) >= 2 and (frames[-2], frames[-1]) in labels:
            lines_out.write('%s\t%s\t%s\n' % (stack, self_, total))
        else:
            print('%s\t%s\t%s\t%s' % (stack, self_, total, calls))
EOF

fail=0
for spec in "${files[@]}"; do
  f=${spec%:*} inst=${spec##*:}
  name=$(basename "$f"):$inst
  "$pv" cat "$f" --instance "$inst" --view call-trace >"$tmp/ct.tsv"
  case $f in
  *aqtime*.db) python3 "$tmp/expected.py" "$tmp/ct.tsv" "$f" "$inst" >"$tmp/expected.tsv" ;;
  *) python3 "$tmp/expected.py" "$tmp/ct.tsv" >"$tmp/expected.tsv" ;;
  esac
  [ -s "$tmp/expected.tsv" ] || { echo "FAIL: $name: no call paths"; fail=1; continue; }
  # context frames have no calls of their own: compare them without the count
  "$pv" cat "$f" --instance "$inst" --view flame --columns stack,self,total,calls >"$tmp/flame.tsv"
  lines=-
  if "$pv" cat "$f" --instance "$inst" --view lines --columns name,line,function \
      >"$tmp/lines.tsv" 2>/dev/null; then lines=$tmp/lines.tsv; fi
  python3 "$tmp/lineframes.py" "$tmp/flame.tsv" "$lines" "$tmp/lineframes.tsv" | sort >"$tmp/got.tsv"
  # line frames: under a call path, as wide as their self time
  if awk -F'\t' '{ p = $1; sub(/;[^;]*$/, "", p); print p }' "$tmp/lineframes.tsv" | sort -u \
      | comm -23 - <(cut -f1 "$tmp/expected.tsv" | sort) | grep -q .; then
    echo "FAIL: $name: a line frame under no call path"; fail=1
  fi
  awk -F'\t' '$2 != $3 { bad++ } END { exit bad > 0 }' "$tmp/lineframes.tsv" \
    || { echo "FAIL: $name: a line frame's total is not its self time"; fail=1; }
  if ! diff <(cut -f1-3 "$tmp/expected.tsv") <(cut -f1-3 "$tmp/got.tsv") >"$tmp/d"; then
    echo "FAIL: $name: flame paths differ from the call tree"; head "$tmp/d"; fail=1
  fi
  # calls: every path that is a call's path
  join -t $'\t' <(cut -f1,4 "$tmp/expected.tsv") <(cut -f1,4 "$tmp/got.tsv") \
    | awk -F'\t' '$2 != $3 && $2 != 0 { bad++ } END { exit bad > 0 }' \
    || { echo "FAIL: $name: call counts differ"; fail=1; }
  # folded: STACK SELF for the paths with self time, in the view's order
  "$pv" cat "$f" --instance "$inst" --view flame --format folded | sort >"$tmp/folded"
  { awk -F'\t' '$2 > 0 { print $1 " " $2 }' "$tmp/expected.tsv"
    awk -F'\t' '$2 > 0 { print $1 " " $2 }' "$tmp/lineframes.tsv"; } \
    | sed 's/\\\\/\\/g' | sort >"$tmp/folded.expected"
  if ! diff "$tmp/folded.expected" "$tmp/folded" >"$tmp/d"; then
    echo "FAIL: $name: folded output differs"; head "$tmp/d"; fail=1
  fi
  # depth = number of frames - 1; parent = the row of the path without its last frame
  "$pv" cat "$f" --instance "$inst" --view flame --columns id,parent,stack,depth | tail -n +2 \
    | awk -F'\t' '{ stack[$1] = $3; n = split($3, parts, ";");
                    if ($4 != n - 1) bad++;
                    if ($2 != "") { p = stack[$2]; if (index($3, p ";") != 1) bad++ }
                    else if (n != 1) bad++ }
                  END { exit bad > 0 }' \
    || { echo "FAIL: $name: depth or parent do not follow the stack"; fail=1; }
  echo "ok: $name ($(wc -l <"$tmp/got.tsv") call paths, $(wc -l <"$tmp/lineframes.tsv") line frames)"
done

# The escaping: `;` and `%` inside names
got=$("$pv" cat "$tmp/names.txt" --view flame --format folded)
want=$'Unknown;main 400\nUnknown;main;50%25load 50\nUnknown;main;a%3Bb 100'
[ "$got" = "$want" ] || { echo "FAIL: escaping:"; echo "$got"; fail=1; }

# winIDEA: self summed per (area, context) over the paths that end in it =
# net, for function areas (by name) and line areas (by their function and
# text, matched to statistics rows through the `lines` view's handle; two
# lines of one function with the same text are one frame, their nets
# summed); over a window, the pairs with time in it.
cat >"$tmp/invariant.py" <<'EOF'
import sys
def unesc(s):
    out, i = [], 0
    while i < len(s):
        if s[i] == '%' and len(s[i + 1:i + 3]) == 2:
            out.append(chr(int(s[i + 1:i + 3], 16))); i += 3; continue
        out.append(s[i]); i += 1
    return ''.join(out)
def rows(path):
    return [l.rstrip('\n').split('\t') for l in list(open(path, encoding='utf-8'))[1:]]
window = sys.argv[4] == 'window'
line_of = {}  # handle -> (function, label)
for handle, name, line, function in rows(sys.argv[3]):
    line_of[handle] = (function, name)
labels = set(line_of.values())
flame = {}
for stack, routine, context, self_, depth in rows(sys.argv[1]):
    if depth == '0':
        continue
    frames = [unesc(f) for f in stack.split(';')]
    if len(frames) >= 2 and (frames[-2], frames[-1]) in labels:
        key = ('line', frames[-2], frames[-1], context)
    else:
        key = ('function', routine, context)
    flame[key] = flame.get(key, 0) + int(self_)
stats = {}
for handle, type_, name, context, net in rows(sys.argv[2]):
    if context == 'Neutral':
        continue
    if type_ == 'function':
        stats[('function', name, context)] = int(net)
    elif type_ == 'line':
        key = ('line',) + line_of[handle] + (context,)
        stats[key] = stats.get(key, 0) + int(net)
keys = set(flame) | set(stats)
if window:
    keys = {k for k in keys if flame.get(k, 0) or stats.get(k, 0)}
bad = [k for k in sorted(keys) if flame.get(k) != stats.get(k)]
for k in bad[:10]:
    print('  %s: flame %s, statistics %s' % ('|'.join(k), flame.get(k), stats.get(k)))
n_line = sum(1 for k in keys if k[0] == 'line')
print('%d function and %d line (area, context) pairs' % (len(keys) - n_line, n_line))
sys.exit(1 if bad or n_line == 0 else 0)
EOF
for f in "$S/rtos.txt" "$S/rtos-ctx.txt" "$S/rtos-v11.txt" ${gen:+"$tmp/gen.txt"}; do
  [ -f "$f" ] || continue
  for range in all window; do
    win=()
    [ $range = window ] && win=(--from 20us --to 60us)
    "$pv" cat "$f" "${win[@]}" --view flame --columns stack,routine,context,self,depth >"$tmp/fl.tsv"
    "$pv" cat "$f" "${win[@]}" --view statistics --columns handle,type,name,context,net >"$tmp/st.tsv"
    "$pv" cat "$f" --view lines --columns handle,name,line,function >"$tmp/ln.tsv"
    if out=$(python3 "$tmp/invariant.py" "$tmp/fl.tsv" "$tmp/st.tsv" "$tmp/ln.tsv" $range); then
      echo "ok: $(basename "$f") ($range): self = net for $out"
    else
      echo "FAIL: $(basename "$f") ($range): self per area and context != statistics net"
      echo "$out"; fail=1
    fi
  done
done

# AQTime: self summed per routine and module = routines time (1 ns per path of rounding)
for inst in 1 2; do
  "$pv" cat "$S/aqtime-trace.db" --instance $inst --view flame --filter 'depth > 0' \
    --columns routine,module,self,calls | tail -n +2 \
    | awk -F'\t' '{ s[$1 "\t" $2] += $3; c[$1 "\t" $2] += $4 }
                  END { for (k in s) print k "\t" s[k] "\t" c[k] }' | sort >"$tmp/a"
  "$pv" cat "$S/aqtime-trace.db" --instance $inst --view routines --filter 'hits > 0' \
    --columns routine,module,time | tail -n +2 | sort >"$tmp/b"
  join -t $'\t' <(awk -F'\t' '{ print $1 "|" $2 "\t" $3 "\t" $4 }' "$tmp/a" | sort) \
               <(awk -F'\t' '{ print $1 "|" $2 "\t" $3 }' "$tmp/b" | sort) >"$tmp/j"
  [ "$(wc -l <"$tmp/j")" = "$(wc -l <"$tmp/b")" ] \
    || { echo "FAIL: aqtime $inst: routines without flame paths"; fail=1; }
  awk -F'\t' '{ d = $2 - $4; if (d < 0) d = -d; if (d > $3) { print; bad++ } } END { exit bad > 0 }' \
    "$tmp/j" || { echo "FAIL: aqtime $inst: self sums != routines time"; fail=1; }
  echo "ok: aqtime instance $inst: self sums = routines time for $(wc -l <"$tmp/j") routines"
done

# --context and --filter select flame rows as for other views
n=$("$pv" cat "$S/rtos.txt" --view flame --context ID_TASK_FAST | tail -n +2 | cut -f5 | sort -u)
[ "$n" = "ID_TASK_FAST" ] || { echo "FAIL: --context: $n"; fail=1; }
n=$("$pv" cat "$S/aqtime-trace.db" --view flame --context 5332 --format folded | wc -l)
[ "$n" = 2 ] || { echo "FAIL: --context of a thread id: $n lines"; fail=1; }
"$pv" cat "$S/rtos.txt" --view flame --filter 'stack ~ "CRC_Calc$"' --format folded >"$tmp/crc"
grep -qv 'CRC_Calc [0-9]*$' "$tmp/crc" && { echo "FAIL: --filter kept other paths"; fail=1; }
[ -s "$tmp/crc" ] || { echo "FAIL: --filter kept nothing"; fail=1; }

# errors: no call tree; folded of a view without stacks
rc=0; "$pv" cat "$S/plist-line-count.txt" --view flame >/dev/null 2>"$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q 'no call tree' "$tmp/err" || { echo "FAIL: flame without a call tree: rc $rc"; fail=1; }
rc=0; "$pv" cat "$S/rtos.txt" --view routines --format folded >/dev/null 2>"$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q 'stack and self' "$tmp/err" || { echo "FAIL: folded of routines: rc $rc"; fail=1; }

[ $fail = 0 ] && echo "flame_folded: all ok"
exit $fail
