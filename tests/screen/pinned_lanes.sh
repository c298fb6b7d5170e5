#!/usr/bin/env bash
# Pinned area lanes, the axis, zoom and pan (docs/tui.md "Lane strip"),
# checked against `profview cat --view timeline`: the hand-written recording
# data/two-contexts.txt (shared with timeline_jumps.sh)
# (two contexts, nested calls, a suspension, a counter, a state variable
# with named states); for every screen the test reads the span from the
# strip's title and computes each pinned lane independently from cat's
# rows: per context the function's own events (active from E or R to S or
# X, suspended from S to R), the ns of each state in each bucket
# [t0 + ceil(b*span/W), t0 + ceil((b+1)*span/W)), span = t1 - t0 + 1, and
# the cell of each bucket (UTF-8 eighths, ASCII #/-); values as sparkline
# levels of the bucket's peak, state names written where the state starts.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
mkdir -p "$XDG_CONFIG_HOME/profview"
echo "time_unit: ns" > "$XDG_CONFIG_HOME/profview/config.yaml"
# the recording (shared with timeline_jumps.sh)
cp "$(dirname "$0")/data/two-contexts.txt" "$TMP/hand.txt"
REC=$TMP/hand.txt
"$PROFVIEW" cat "$REC" --view timeline > "$TMP/timeline.tsv"
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
# pin leaf (row 4), work (row 3), counter (row 2), Mode (row 12)
PIN=$'\n:goto #4<Enter>\np\n:goto #3<Enter>\np\n:goto #2<Enter>\np\n:goto #12<Enter>\np'

# check NAME SCREEN ASCII(0/1) WANT_T0 WANT_T1 [MARK_A MARK_B] (times in ns)
check() {
  local name=$1 screen=$2 ascii=$3 want0=$4 want1=$5 ma=${6:-} mb=${7:-}
  printf '%s\n' "$screen" > "$TMP/s"
  python3 - "$TMP/s" "$TMP/timeline.tsv" "$ascii" "$want0" "$want1" "$ma" "$mb" <<'PY' || { cat "$TMP/s" >&2; fail "$name"; }
import re, sys
screen, tsv, ascii_, want0, want1, ma, mb = sys.argv[1:8]
ascii_ = ascii_ == "1"
lines = open(screen, encoding="utf-8").read().split("\n")
bar = "|" if ascii_ else "\u2502"
rows = [l.split("\t") for l in open(tsv, encoding="utf-8").read().split("\n")[1:] if l]
ev = [dict(time=int(r[2]), ctx=r[3], name=r[6], kind=r[7], value=int(r[8], 16) if r[8] else None) for r in rows]
title_i = next(i for i, l in enumerate(lines) if re.search(r"[-\u2500] Lanes ", l))
m = re.search(r"Lanes (\d+)(?: ns)?\.\.(\d+) ns", lines[title_i])
t0, t1 = int(m.group(1)), int(m.group(2))
if want0 and (t0, t1) != (int(want0), int(want1)):
    sys.exit(f"span {t0}..{t1}, want {want0}..{want1}")
strip = []
for l in lines[title_i + 1:]:
    if re.search(r"[-\u2500] Details", l): break
    strip.append(l[l.index(bar) + 1:])
span = t1 - t0 + 1
names = ["T1", "T2", "leaf", "work", "counter", "Mode"]
label = max(len(n) for n in names)
W = len(lines[title_i][lines[title_i].index(bar) + 1:]) - label - 2
def start(b): return t0 + -(-b * span // W)
def bucket(t): return min((t - t0) * W // span, W - 1)
sel = int(re.findall(r" row (\d+)/\d+ ", "\n".join(lines))[-1]) - 1
cursor = bucket(ev[sel]["time"]) if t0 <= ev[sel]["time"] <= t1 else None
marks = {bucket(int(t)): c for t, c in ((mb, "B"), (ma, "A")) if t and t0 <= int(t) <= t1}
def activity(fn):
    # per context the function's own events (docs/formats.md §3
    # activations): active from E or R to S or X, suspended from S to R
    st, steps = {}, []
    for e in ev:
        if e["ctx"] == "" or e["name"] != fn: continue
        d, s = st.get(e["ctx"], (0, 0))
        if e["kind"] == "E": d, s = d + 1, 2
        elif e["kind"] == "S": s = 1 if d else s
        elif e["kind"] == "R": s = 2 if d else s
        elif e["kind"] == "X": d -= 1; s = 2 if d else 0
        st[e["ctx"]] = (d, s)
        steps.append((e["time"], dict((c, v[1]) for c, v in st.items())))
    cells = []
    for b in range(W):
        a0, a1 = start(b), start(b + 1)
        act = sus = 0
        for i, (t, states) in enumerate(steps):
            nt = steps[i + 1][0] if i + 1 < len(steps) else t
            lo, hi = max(t, a0), min(nt, a1)
            if hi <= lo: continue
            s = max(states.values())
            act += (hi - lo) if s == 2 else 0
            sus += (hi - lo) if s == 1 else 0
        width = a1 - a0
        if act <= 0 or sus > act: ch = ("-" if ascii_ else "\u2591") if sus > 0 else " "
        elif ascii_: ch = "#"
        else:
            e8 = max(1, min(8, (act * 8 + width // 2) // width))
            ch = "\u2588" if e8 == 8 else chr(0x2590 - e8)
        cells.append(ch)
    return cells
def values(vname, states):
    w = [(e["time"], e["value"]) for e in ev if e["name"] == vname and e["kind"] == "W"]
    vals = [v for _, v in w]
    lo, hi = min(vals), max(vals)
    cells, b = [], 0
    while b < W:
        a0, a1 = start(b), start(b + 1)
        before = [v for t, v in w if t < a1]
        inside = [v for t, v in w if a0 <= t < a1]
        at0 = [v for t, v in w if t < a0]
        if not before: cells.append(" "); b += 1; continue
        if states:
            if len(inside) > 1: cells.append("*"); b += 1; continue
            if len(inside) == 1 or b == 0:
                name = states[before[-1]]
                run = 1
                while b + run < W and not [1 for t, _ in w if start(b + run) <= t < start(b + run + 1)]: run += 1
                for ch in name[:run]: cells.append(ch)
                b += min(len(name), run); continue
            cells.append("-" if ascii_ else "\u2500"); b += 1; continue
        peak = max(inside + at0[-1:])
        lvl = 0 if hi <= lo else max(0, min(7, int((peak - lo) / (hi - lo) * 7 + 0.5)))
        cells.append("_.-~=+*#"[lvl] if ascii_ else chr(0x2581 + lvl)); b += 1
    return cells
want = {"leaf": activity("leaf"), "work": activity("work"),
        "counter": values("counter", None), "Mode": values("Mode", {0: "IDLE", 1: "RUN"})}
for k, name in enumerate(["leaf", "work", "counter", "Mode"]):
    got = strip[2 + k]
    if not got.startswith(" " + name): sys.exit(f"lane {2 + k} is not {name}: {got!r}")
    cells = want[name]
    for col, c in marks.items():
        if cells[col] == " ": cells[col] = c
    if cursor is not None and cells[cursor] == " ": cells[cursor] = "|" if ascii_ else "\u2502"
    exp = (" " + name.ljust(label) + " " + "".join(cells)).rstrip()
    if got.rstrip() != exp:
        sys.exit(f"lane {name}:\n got  {got.rstrip()!r}\n want {exp!r}")
# the axis: each tick's label is its time, at its bucket
axis = strip[6][label + 2:]
ticks = [(mm.start(), int(mm.group(1))) for mm in re.finditer(r"[|\u2534](\d+)(?:ns)?", axis)]
if len(ticks) < 2: sys.exit(f"axis without ticks: {axis!r}")
import math
step = 0
for (_, a), (_, b) in zip(ticks, ticks[1:]): step = math.gcd(step, b - a)
for col, t in ticks:
    if bucket(t) != col or t % step or not t0 <= t <= t1:
        sys.exit(f"tick {t} at column {col}, want {bucket(t)} (step {step})")
if cursor is not None and axis[cursor] != "^": sys.exit(f"no cursor ^ at {cursor}: {axis!r}")
for col, c in marks.items():
    if col != cursor and axis[col] != c: sys.exit(f"no marker {c} at {col}: {axis!r}")
print(f"span {t0}..{t1} W {W}")
PY
  echo "ok: $name"
}

for mode in utf8 ascii; do
  opt=(); a=0
  [ $mode = ascii ] && { opt=(--ascii); a=1; }
  s=$(pv_screen "$TO_TIMELINE$PIN"$'\n=' "$REC" --size 100x40 "${opt[@]}")
  check "$mode: pinned lanes over the whole recording" "$s" $a 0 1500
  expect_contains "$mode: pinning says so" "$(pv_screen "$TO_TIMELINE$PIN" "$REC" --size 100x40 "${opt[@]}")" "pinned (p again unpins)"
  expect_absent "$mode: the next key clears the message" "$s" "pinned (p again unpins)"
done

# zoom in twice around the cursor (row 11, 1000 ns): span/2 each time,
# keeping 1000 ns where it was: 0..1500 -> 500..1250 -> 750..1125
s=$(pv_screen "$TO_TIMELINE$PIN"$'\n=\n+\n+' "$REC" --size 100x40)
check "zoom in around the cursor" "$s" 0 750 1125
# zoom out from there: back to 500..1250
s=$(pv_screen "$TO_TIMELINE$PIN"$'\n=\n+\n+\n-' "$REC" --size 100x40 --ascii)
check "zoom out" "$s" 1 500 1250
# pan right by half the width (375), clamped at the end: 750..1500; left twice: 0..750
s=$(pv_screen "$TO_TIMELINE$PIN"$'\n=\n+\n}' "$REC" --size 100x40 --ascii)
check "pan right" "$s" 1 750 1500
s=$(pv_screen "$TO_TIMELINE$PIN"$'\n=\n+\n{\n{' "$REC" --size 100x40 --ascii)
check "pan left, clamped at the start" "$s" 1 0 750
# markers A (row 3, 100 ns) and B (row 10, 800 ns): Z shows A..B
s=$(pv_screen "$TO_TIMELINE$PIN"$'\n:goto #3<Enter>\nm\n:goto #10<Enter>\nM\nZ' "$REC" --size 100x40)
check "zoom to A..B" "$s" 0 100 800 100 800
# the list follows the cursor: a zoomed span moves to centre a row outside it
s=$(pv_screen "$TO_TIMELINE$PIN"$'\n:goto #3<Enter>\nm\n:goto #10<Enter>\nM\nZ\n:goto #17<Enter>' "$REC" --size 100x40 --ascii)
check "the span follows the cursor (clamped at the end)" "$s" 1 800 1500 100 800

# Built between key presses (docs/tui.md "Lane strip"): with 4 units of work
# per key (--test index-slice, tests only) the index and then the
# pinned lane take several keys; meanwhile the lane and the status bar show
# the progress, and then the same lane as built at once.
IDX_TO_TIMELINE=$'Shift-Tab\nj\nTab'   # while indexing the timeline is the next view
WAIT=$(printf 'j\nk\n%.0s' $(seq 1 20))
s=$(PV_TEST="--test index-slice=4" pv_screen "$IDX_TO_TIMELINE"$'\n'"$WAIT"$'\n:goto #3<Enter>\np' "$REC" --size 100x30)
expect_contains "pinned at once" "$s" "pinned (p again unpins)"
expect_contains "the lane shows its progress" "$s" "work building the lane..."
expect_contains "so does the status bar" "$s" "lane work "
built=$(pv_screen "$TO_TIMELINE"$'\n:goto #3<Enter>\np' "$REC" --size 100x30 | grep '│ work ')
s=$(PV_TEST="--test index-slice=4" pv_screen "$IDX_TO_TIMELINE"$'\n'"$WAIT"$'\n:goto #3<Enter>\np\n'"$WAIT" "$REC" --size 100x30)
expect_absent "later the progress is gone" "$s" "building the lane"
expect_contains "and the lane is the one built at once" "$s" "$built"
s=$(PV_TEST="--test index-slice=4" pv_screen "$IDX_TO_TIMELINE"$'\n'"$WAIT"$'\n:goto #3<Enter>\np\nCtrl-C' "$REC" --size 100x30)
expect_contains "Ctrl-C stops building it" "$s" "stopped building the pinned lane (unpinned)"
expect_absent "and unpins it" "$s" "building the lane"
