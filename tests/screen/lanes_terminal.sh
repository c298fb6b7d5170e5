#!/usr/bin/env bash
# The lane strip in a real terminal (tmux, xterm-256color, UTF-8): each
# context is coloured like its lane (docs/tui.md "Lane strip": the lane-N
# roles, cycled by the context's index) in the strip and in the event list,
# in every theme, and the mouse (SGR reports as a terminal sends them) zooms
# with the wheel and moves the cursor with a click.  The colours are read
# from `capture-pane -e` (SGR attributes kept) and decoded here.
source "$(dirname "$0")/lib.bash"
mkdir -p "$XDG_CONFIG_HOME/profview"
echo "time_unit: ns" > "$XDG_CONFIG_HOME/profview/config.yaml"
cp "$(dirname "$0")/data/two-contexts.txt" "$TMP/hand.txt"
REC=$TMP/hand.txt
"$PROFVIEW" cat "$REC" --view timeline > "$TMP/timeline.tsv"

# styles.py SCREEN: for the contexts T1 and T2, the style (fg, bg, attrs) of
# their name on the lane strip's label and of their cells in the event list
# (rows other than the selected one); fails when a context's cells disagree.
cat > "$TMP/styles.py" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
def cells(line):
    st = {"fg": None, "bg": None, "a": frozenset()}
    out = []
    for tok in re.split(r"(\x1b\[[0-9;]*m)", line):
        if tok.startswith("\x1b["):
            ps = [int(p) if p else 0 for p in tok[2:-1].split(";")] or [0]
            i = 0
            while i < len(ps):
                p = ps[i]
                if p == 0: st = {"fg": None, "bg": None, "a": frozenset()}
                elif p in (1, 2, 4, 7): st = dict(st, a=st["a"] | {p})
                elif p == 22: st = dict(st, a=st["a"] - {1, 2})
                elif p == 24: st = dict(st, a=st["a"] - {4})
                elif p == 27: st = dict(st, a=st["a"] - {7})
                elif 30 <= p <= 37 or 90 <= p <= 97: st = dict(st, fg=p)
                elif p == 39: st = dict(st, fg=None)
                elif 40 <= p <= 47 or 100 <= p <= 107: st = dict(st, bg=p)
                elif p == 49: st = dict(st, bg=None)
                elif p in (38, 48) and i + 2 < len(ps) and ps[i + 1] == 5:
                    st = dict(st, **{"fg" if p == 38 else "bg": (p, ps[i + 2])}); i += 2
                i += 1
        else:
            out += [(ch, (st["fg"], st["bg"], st["a"])) for ch in tok]
    return out
lines = [cells(l) for l in text.split("\n")]
def s(row): return "".join(c for c, _ in row)
def sel(st): return st[1] is not None or 7 in st[2]  # the cursor, the selected row
res = {}
for ctx in ("T1", "T2"):
    lane = [r for r in lines if re.match(r"^.*│ " + ctx + r" +[│█ ]", s(r)) and "█" in s(r)]
    if not lane: sys.exit(f"no lane {ctx}: " + "\n".join(s(r) for r in lines))
    i = s(lane[0]).index("│ " + ctx) + 2
    label = lane[0][i][1]
    block = next(st for ch, st in lane[0][i + 2:] if ch == "█" and not sel(st))
    listed = []
    for r in lines:
        m = re.search(r" ns " + ctx + " ", s(r))
        if m and not sel(r[m.start() + 4][1]):
            listed.append(r[m.start() + 4][1])
    if not listed: sys.exit(f"no row of {ctx} in the list")
    if any(x != label for x in listed + [block]):
        sys.exit(f"{ctx}: label {label}, lane {block}, list {set(listed)}")
    res[ctx] = label
print(res["T1"], "|", res["T2"])
PY

for theme in default light high-contrast monochrome; do
  pv_tmux_start 110 40 xterm-256color C.UTF-8 "$PROFVIEW --theme $theme $REC"
  pv_tmux_wait "Report: Summary"
  pv_tmux_keys BTab j j j j Tab
  pv_tmux_wait "Lanes 0.."
  tmux -L "$PV_TMUX_SOCKET" capture-pane -e -p -t 0 > "$TMP/colours"
  got=$(python3 "$TMP/styles.py" "$TMP/colours") || { cat "$TMP/colours" >&2; fail "$theme: a context's colour differs between its lane and the list"; }
  t1=${got% | *} t2=${got#* | }
  [ "$t1" != "$t2" ] || fail "$theme: T1 and T2 look the same ($t1)"
  case $theme in
    monochrome) case "$t1$t2" in *"(None, None"*) ;; *) fail "monochrome: colours used ($got)" ;; esac ;;
    *) case "$t1" in "(None,"*) fail "$theme: T1 has no colour ($t1)" ;; esac ;;
  esac
  echo "ok: $theme: each context as its lane ($got)"
  pv_tmux_stop
done

# NO_COLOR: no colour; the lanes and the list still read (attributes only)
pv_tmux_start 110 40 xterm-256color C.UTF-8 "env NO_COLOR=1 $PROFVIEW $REC"
pv_tmux_wait "Report: Summary"
pv_tmux_keys BTab j j j j Tab
pv_tmux_wait "Lanes 0.."
colours=$(tmux -L "$PV_TMUX_SOCKET" capture-pane -e -p -t 0)
if printf '%s' "$colours" | grep -q $'\e\[[0-9;]*\(3[0-7]\|9[0-7]\|38;5\)'; then fail "NO_COLOR: colour codes on screen"; fi
echo "ok: NO_COLOR: lanes and contexts without colour"
pv_tmux_stop

# The mouse: SGR reports (1-based column;line) as xterm sends them.
pv_tmux_start 100 40 xterm-256color C.UTF-8 "$PROFVIEW $REC"
pv_tmux_wait "Report: Summary"
pv_tmux_keys BTab j j j j Tab =
pv_tmux_wait "Lanes 0..1500 ns"
read -r X Y W < <(pv_tmux_screen | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
title = next(i for i, l in enumerate(lines) if "Lanes " in l)
axis = next(i for i in range(title + 1, len(lines)) if "┴" in lines[i])
bar = lines[axis].index("│")
x = bar + 1 + len(lines[axis][bar + 1:]) - len(lines[axis][bar + 1:].lstrip())
print(x, title + 1, len(lines[axis].rstrip()) - x)')
mouse() { tmux -L "$PV_TMUX_SOCKET" send-keys -t 0 -l "$(printf '\033[<%d;%d;%dM' "$1" "$2" "$3")"; }
b=$((W / 2))
at=$(python3 -c "b,w=$b,$W; print((b*1501 + w - 1)//w)")
row=$(awk -F'\t' -v t="$at" 'NR > 1 && $3 >= t { print NR - 1; exit }' "$TMP/timeline.tsv")
mouse 0 $((X + b + 1)) $((Y + 1))
pv_tmux_wait "row $row/19"
echo "ok: a click on the lane at $at ns selects row $row"
read -r z0 z1 < <(python3 -c "at=$at; w=750; n0=at-int(at*0.5); n1=n0+w; n0,n1=(n0,n1) if n1<=1500 else (750,1500); print(n0, n1)")
mouse 64 $((X + b + 1)) $((Y + 1))
pv_tmux_wait "Lanes $z0 ns..$z1 ns"
echo "ok: the wheel up zooms in around $at ns: $z0..$z1"
mouse 65 $((X + b + 1)) $((Y + 1))
pv_tmux_wait "Lanes 0..1500 ns"
echo "ok: the wheel down zooms out"
pv_tmux_stop
