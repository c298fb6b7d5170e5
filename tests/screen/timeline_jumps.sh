#!/usr/bin/env bash
# The timeline's event list and jumps (docs/tui.md "Jumps"), on the
# hand-written recording data/two-contexts.txt (shared with
# pinned_lanes.sh), against `profview cat --view timeline`: names
# indented by the event's depth, the delta column; ) ( to the next /
# previous call of the routine, L H and :goto longest / shortest (by the
# calls' gross times computed here from the entries and exits), relative
# :goto, Enter from an event to its call in the call trace.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
mkdir -p "$XDG_CONFIG_HOME/profview"
echo "time_unit: ns" > "$XDG_CONFIG_HOME/profview/config.yaml"
# the recording (shared with pinned_lanes.sh)
cp "$(dirname "$0")/data/two-contexts.txt" "$TMP/hand.txt"
REC=$TMP/hand.txt
"$PROFVIEW" cat "$REC" --view timeline > "$TMP/timeline.tsv"
TO_TIMELINE=$'Shift-Tab\nj j j j\nTab'
# the selected row (1-based) from the status bar
selected() { grep -o ' row [0-9]*/' <<<"$1" | tail -1 | tr -dc 0-9; }
# expect_row NAME KEYS ROW: after KEYS the cursor is on ROW (1-based)
expect_row() {
  local s
  s=$(pv_screen "$TO_TIMELINE"$'\n'"$2" "$REC" --size 110x30)
  [ "$(selected "$s")" = "$3" ] || { printf '%s\n' "$s" >&2; fail "$1: row $(selected "$s"), want $3"; }
  echo "ok: $1"
}

# the calls of work from cat: entry row, gross time; next/prev/longest/shortest
python3 - "$TMP/timeline.tsv" > "$TMP/calls" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]).readlines()[1:]]
stacks, calls = {}, []
for r in rows:
    if r[10] != "function": continue
    st = stacks.setdefault(r[3], [])
    if r[7] == "E": st.append(r)
    elif r[7] == "X":
        e = st.pop()
        if e[6] == "work": calls.append((int(e[1]) + 1, int(r[2]) - int(e[2])))
calls.sort()
longest = max(calls, key=lambda c: c[1])[0]
shortest = min(calls, key=lambda c: c[1])[0]
print(" ".join(str(c[0]) for c in calls), longest, shortest)
PY
read -r c1 c2 c3 longest shortest < "$TMP/calls"
expect_row ") to the next call of work" ":goto #$c1<Enter>"$'\n)' "$c2"
expect_row ") twice" ":goto #$c1<Enter>"$'\n) )' "$c3"
expect_row "( to the previous call" ":goto #$c3<Enter>"$'\n('" " "$c2"
expect_row "L: the longest call" ":goto #$c3<Enter>"$'\nL' "$longest"
expect_row "H: the shortest call" ":goto #$c1<Enter>"$'\nH' "$shortest"
expect_row ":goto longest" ":goto #$c3<Enter>"$'\n:goto longest<Enter>' "$longest"
expect_row ":goto shortest" ":goto #$c1<Enter>"$'\n:goto shortest<Enter>' "$shortest"
s=$(pv_screen "$TO_TIMELINE"$'\n'":goto #$c3<Enter>"$'\n)' "$REC" --size 110x30)
expect_contains ") after the last call says so" "$s" "no later call of this area"

# relative :goto: the first row at or after the selected row's time +- d
row_at() { awk -F'\t' -v t="$1" 'NR > 1 && $3 >= t { print NR - 1; exit }' "$TMP/timeline.tsv"; }
t3=$(awk -F'\t' 'NR == 4 { print $3 }' "$TMP/timeline.tsv")
expect_row ":goto +250ns" $':goto #3<Enter>\n:goto +250ns<Enter>' "$(row_at $((t3 + 250)))"
expect_row ":goto +0.6us" $':goto #3<Enter>\n:goto +0.6us<Enter>' "$(row_at $((t3 + 600)))"
t10=$(awk -F'\t' 'NR == 11 { print $3 }' "$TMP/timeline.tsv")
expect_row ":goto -450ns" $':goto #10<Enter>\n:goto -450ns<Enter>' "$(row_at $((t10 - 450)))"

# Enter on an event: its call in the call trace (leaf's exit, row 6)
s=$(pv_screen "$TO_TIMELINE"$'\n:goto #6<Enter>\nEnter' "$REC" --size 110x30)
expect_contains "Enter opens the call trace" "$s" "Report: Call trace"
# the call trace grouped by context: T1 > main > work > leaf is row 4
sel=$(selected "$s")
line=$(awk '/Call no/ { h = NR } h && NR == h + '"$sel"' { print }' <<<"$s")
case "$line" in *" leaf "*) ;; *) printf '%s\n' "$s" >&2; fail "Enter: row $sel of the call trace is not leaf's call: $line" ;; esac
echo "ok: Enter selects the event's call"

# the list: each event's name indented by 2 x its depth; the delta column
s=$(pv_screen "$TO_TIMELINE" "$REC" --size 110x30)
printf '%s\n' "$s" > "$TMP/s"
python3 - "$TMP/s" "$TMP/timeline.tsv" <<'PY' || { cat "$TMP/s" >&2; fail "indentation or delta"; }
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]).readlines()[1:]]
head = next(l for l in lines if " Index " in l and " Name " in l)
name_at, delta_end = head.index(" Name ") + 1, head.index("Delta") + len("Delta")
n = 0
for l in lines[lines.index(head) + 1:]:
    f = l[head.index(" Index "):].split()
    if not f or not f[0].isdigit(): break
    r = rows[int(f[0])]
    want = " " * (2 * int(r[9])) + r[6]
    if not l[name_at:].startswith(want + " "): sys.exit(f"row {f[0]}: name {l[name_at:name_at+20]!r}, want {want!r}")
    got = l[:delta_end].split()[-1] if r[11] else ""
    if r[11] and l[:delta_end].rstrip().split()[-2:] != [r[11], "ns"]: sys.exit(f"row {f[0]}: delta {l[:delta_end]!r}, want {r[11]} ns")
    n += 1
if n < 10: sys.exit(f"only {n} rows checked")
print(f"{n} rows indented and with their delta")
PY
echo "ok: names indented by depth, delta column"

# under a filter the delta counts from the previous row shown (docs/tui.md
# "The timeline's event list"), computed here from cat's times of the rows
# on screen; the first row shown has none
for filter in 'context = T1' 'event = W' 'name = work'; do
  s=$(pv_screen "$TO_TIMELINE"$'\n'":filter $filter<Enter>" "$REC" --size 110x30)
  printf '%s\n' "$s" > "$TMP/s"
  python3 - "$TMP/s" "$TMP/timeline.tsv" <<'PY' || { cat "$TMP/s" >&2; fail "delta under the filter $filter"; }
import sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]).readlines()[1:]]
head = next(l for l in lines if " Index " in l and " Delta" in l)
delta_end = head.index("Delta") + len("Delta")
prev, n, hidden = None, 0, 0
for l in lines[lines.index(head) + 1:]:
    f = l[head.index(" Index "):].split()
    if not f or not f[0].isdigit(): break
    i = int(f[0])
    got = l[:delta_end].rstrip().split()[-2:]
    if prev is None:
        if got[-1] == "ns": sys.exit(f"row {i}: the first row shown has a delta {got}")
    else:
        want = [str(int(rows[i][2]) - int(rows[prev][2])), "ns"]
        if got != want: sys.exit(f"row {i}: delta {got}, want {want} (from row {prev})")
        hidden += i - prev - 1
    prev, n = i, n + 1
if n < 2 or not hidden: sys.exit(f"{n} rows, {hidden} hidden between them: nothing checked")
print(f"{n} rows with the delta since the previous row shown")
PY
  echo "ok: delta under the filter $filter"
done
