#!/usr/bin/env bash
# The mouse on the lane strip (docs/tui.md "Lane strip"), through the
# scripted keys' <Click X Y> / <WheelUp X Y> / <WheelDown X Y> (the events a
# terminal's mouse reports, fed to the same handler): a click on a lane
# selects the first row at or after the time of the column clicked, the
# wheel zooms in / out around that time.  Where the lanes are is read from
# the screen (the axis line), and every expected row and span is computed
# here from `profview cat --view timeline` and the bucket arithmetic of
# docs/tui.md (bucket b starts at t0 + ceil(b * span / W), span = t1 - t0 + 1;
# a zoom by f around time `at` gives [at - (at - t0) * f, that + (t1 - t0) * f],
# kept within the recording).  tests/screen/lanes_terminal.sh sends the
# same through a real terminal (tmux).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
mkdir -p "$XDG_CONFIG_HOME/profview"
echo "time_unit: ns" > "$XDG_CONFIG_HOME/profview/config.yaml"
cp "$(dirname "$0")/data/two-contexts.txt" "$TMP/hand.txt"
REC=$TMP/hand.txt
"$PROFVIEW" cat "$REC" --view timeline > "$TMP/timeline.tsv"
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'

# the geometry of the lanes, fitted to the whole recording
pv_screen "$TO_TIMELINE"$'\n=' "$REC" --size 100x40 > "$TMP/fit"
read -r X Y W T0 T1 < <(python3 - "$TMP/fit" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
title = next(i for i, l in enumerate(lines) if "Lanes " in l)
m = re.search(r"Lanes (\d+)(?: ns)?\.\.(\d+) ns", lines[title])
t0, t1 = int(m.group(1)), int(m.group(2))
lane = title + 1                      # the first lane (T1)
axis = next(i for i in range(lane, len(lines)) if "┴" in lines[i] or "^" in lines[i])
bar = lines[axis].index("│")
x = bar + 1 + len(lines[axis][bar + 1:]) - len(lines[axis][bar + 1:].lstrip())
w = len(lines[axis].rstrip()) - x
print(x, lane, w, t0, t1)
PY
)
[ "$T0" = 0 ] && [ "$T1" = 1500 ] || fail "fit: span $T0..$T1, want 0..1500"
echo "ok: lanes at column $X, line $Y, $W columns, $T0..$T1 ns"

start() { python3 -c "import sys; b,t0,t1,w=map(int,sys.argv[1:]); s=t1-t0+1; print(t0 + (b*s + w - 1)//w)" "$1" "$T0" "$T1" "$W"; }
row_at() { awk -F'\t' -v t="$1" 'NR > 1 && $3 >= t { print NR - 1; exit }' "$TMP/timeline.tsv"; }
selected() { grep -o ' row [0-9]*/' <<<"$1" | tail -1 | tr -dc 0-9; }

# clicks: the cursor goes to the first row at or after the column's time
for b in 1 $((W / 3)) $((W / 2)) $((W * 4 / 5)); do
  t=$(start "$b"); want=$(row_at "$t")
  s=$(pv_screen "$TO_TIMELINE"$'\n=\n'"<Click $((X + b)) $Y>" "$REC" --size 100x40)
  [ "$(selected "$s")" = "$want" ] || { printf '%s\n' "$s" >&2; fail "click on column $b ($t ns): row $(selected "$s"), want $want"; }
  echo "ok: a click on column $b ($t ns) selects row $want"
done
# a click on the second lane (T2) works the same
b=$((W / 2)); t=$(start "$b")
s=$(pv_screen "$TO_TIMELINE"$'\n=\n'"<Click $((X + b)) $((Y + 1))>" "$REC" --size 100x40)
[ "$(selected "$s")" = "$(row_at "$t")" ] || fail "click on the T2 lane"
echo "ok: a click on another lane"
# a click left of the lanes (on the labels) does not move the cursor
s=$(pv_screen "$TO_TIMELINE"$'\n=\nj j\n'"<Click $((X - 2)) $Y>" "$REC" --size 100x40)
[ "$(selected "$s")" = 3 ] || fail "a click on a label moved the cursor"
echo "ok: a click beside the lanes does nothing there"

# the wheel: up zooms in by 2 around the column's time, down zooms out
zoom() { python3 -c '
import sys
at, t0, t1, f, f0, f1 = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), 0, 1500
w = int((t1 - t0) * f); n0 = at - int((at - t0) * f); n1 = n0 + w
if w >= f1 - f0: n0, n1 = f0, f1
elif n0 < f0: n0, n1 = f0, f0 + w
elif n1 > f1: n0, n1 = f1 - w, f1
print(n0, n1)' "$@"; }
for b in $((W / 4)) $((W / 2)) $((W - 3)); do
  at=$(start "$b")
  read -r z0 z1 < <(zoom "$at" "$T0" "$T1" 0.5)
  s=$(pv_screen "$TO_TIMELINE"$'\n=\n'"<WheelUp $((X + b)) $Y>" "$REC" --size 100x40)
  title=$(grep -o 'Lanes [0-9]*[ a-z]*\.\.[0-9]* ns' <<<"$s")
  want="Lanes $z0 ns..$z1 ns"; [ "$z0" = 0 ] && want="Lanes 0..$z1 ns"
  [ "$title" = "$want" ] || { printf '%s\n' "$s" >&2; fail "wheel up on column $b ($at ns): '$title', want '$want'"; }
  echo "ok: the wheel up on column $b zooms in to $z0..$z1"
done
# up twice, then down once: the span of one zoom in
b=$((W / 2)); at=$(start "$b")
read -r z0 z1 < <(zoom "$at" "$T0" "$T1" 0.5)
s=$(pv_screen "$TO_TIMELINE"$'\n=\n'"<WheelUp $((X + b)) $Y>" "$REC" --size 100x40)
printf '%s\n' "$s" > "$TMP/z1"
s2=$(pv_screen "$TO_TIMELINE"$'\n=\n'"<WheelUp $((X + b)) $Y>"$'\n'"<WheelDown $((X + b)) $Y>" "$REC" --size 100x40)
expect_contains "the wheel down zooms back out" "$s2" "Lanes 0..1500 ns"
# the wheel outside the lanes scrolls the list instead: the span stays
s=$(pv_screen "$TO_TIMELINE"$'\n=\n'"<WheelUp $((X + b)) 3>" "$REC" --size 100x40)
expect_contains "the wheel over the list leaves the lanes" "$s" "Lanes 0..1500 ns"
