#!/usr/bin/env bash
# Enter on an event of a big timeline reaches its call (docs/tui.md
# "Jumps"): the call trace of more than 200 000 calls opens in steps (its
# percentage shown; --test work-slice=N gives it N units per key), and when
# it is open the event's call is selected, its path expanded and its line
# centred — the first time.  The expected call comes from the command line
# (`cat --view call-trace`: the call of that routine and context that exits
# at the event's time), and the Details of the selected call list the
# event itself.  Esc while it opens goes back to the event.  Enter while
# the file is still indexed waits for the index, then does the same.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
[ -x "$gen" ] || { echo "SKIP: no generator"; exit 0; }
"$gen" --seed 3 --tasks 3 --events 1200000 --format bin11 -o "$TMP/big.txt" >/dev/null
BIG=$TMP/big.txt
calls=$("$PROFVIEW" info "$BIG" | awk '$1 == "call-trace" { print $2 }')
[ "${calls:-0}" -gt 200000 ] || fail "the generated tree has ${calls:-no} calls, not over 200000"

# the event: the first exit (X) of a function from index 900000 on
read -r index time context name < <("$PROFVIEW" cat "$BIG" --view timeline \
  --filter 'event = "X" and type = "function" and index >= 900000' --limit 1 \
  --columns index,time,context,name | tail -n +2 | tr '\t' ' ')
[ -n "${name:-}" ] || fail "no exit event after index 900000"
# its call, computed by the command line
# (a filtered tree keeps the ancestors of its matches: the rows are checked)
call_no=$("$PROFVIEW" cat "$BIG" --view call-trace \
  --filter "routine = \"$name\" and thread = \"$context\" and exit_time = $time" \
  --columns call_no,routine,thread,exit_time | tail -n +2 |
  awk -F'\t' -v n="$name" -v c="$context" -v t="$time" '$2 == n && $3 == c && $4 == t { print $1 }')
[ "$(printf '%s\n' "$call_no" | wc -l)" = 1 ] && [ -n "$call_no" ] ||
  fail "not one call of $name in $context exits at $time: '$call_no'"

TO_EVENT=$'Shift-Tab\nj j j j\nTab\n:goto '"$index"$'<Enter>'
WAIT=$(printf "Ctrl-L %.0s" {1..150})
PV_TEST="--test work-slice=50000"

# while it opens: its percentage
s=$(pv_screen "$TO_EVENT"$'\nEnter\nCtrl-L' "$BIG" --size 80x24)
expect_contains "the call trace opens in steps" "$s" "Opening Call trace... "

# Esc while it opens: back on the event
s=$(pv_screen "$TO_EVENT"$'\nEnter\nCtrl-L\nEsc' "$BIG" --size 80x24)
expect_contains "Esc goes back" "$s" "opening stopped: back where you were"
expect_contains "... to the event" "$s" "row $((index + 1))/1200000"

# left alone: the call, expanded to it and centred
s=$(pv_screen "$TO_EVENT"$'\nEnter\n'"$WAIT" "$BIG" --size 80x24)
expect_contains "the call trace is open" "$s" "Report: Call trace"
expect_absent "... no longer opening" "$s" "Opening"
printf '%s\n' "$s" >"$TMP/s"
python3 - "$call_no" "$name" "$index" "$TMP/s" <<'PY' || { printf '%s\n' "$s" >&2; fail "the call"; }
import sys
call_no, name, index = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(sys.argv[4], encoding='utf-8').read().split('\n')
# the Report: the lines between its header (Call no) and the Details
top = next(i for i, l in enumerate(lines) if 'Call no' in l)
det = next(i for i, l in enumerate(lines) if '─ Details' in l)
rows = [l.split('│', 1)[1] if '│' in l else l for l in lines[top + 1:det]]
at = [k for k, r in enumerate(rows) if r.split()[:1] == [call_no] and name in r]
if len(at) != 1:
    sys.exit('call %s (%s) is not on screen once: %r' % (call_no, name, at))
k = at[0]
if not (len(rows) <= 3 * k + 2 < 2 * len(rows) + 2):
    sys.exit('call %s is on line %d of %d, not centred' % (call_no, k, len(rows)))
# the Details list the call's events: the event itself among them
if not any(l.split('│')[-1].split()[:1] == [index] for l in lines[det + 1:]):
    sys.exit('the Details of the selected call do not list event %s' % index)
print('ok: call %s (%s) selected on line %d of %d, its events list event %s'
      % (call_no, name, k, len(rows), index))
PY
expect_contains "... the event's call selected (its status)" "$s" "call-trace │ row "
expect_absent "... not collapsed at the first row" "$s" "row 1/"

# Enter while the file is still indexed (--test index-slice=N: N events
# a key): the call is not known yet; the jump waits for the index, then
# lands on the call as above
IDX_TO_EVENT=$'Shift-Tab\nj\nTab\n:goto '"$index"$'<Enter>'
PV_TEST="--test index-slice=200000 --test work-slice=50000"
s=$(pv_screen "$IDX_TO_EVENT"$'\nEnter' "$BIG" --size 80x24)
expect_contains "while indexing, the jump waits" "$s" "the jump to the call is made when the index is ready"
expect_contains "... on the timeline" "$s" "Report: Timeline"
s=$(pv_screen "$IDX_TO_EVENT"$'\nEnter\nEsc' "$BIG" --size 80x24)
expect_contains "Esc cancels it" "$s" "jump to the call cancelled: the event stays selected"
s=$(pv_screen "$IDX_TO_EVENT"$'\nEnter\n'"$WAIT" "$BIG" --size 80x24)
expect_contains "once indexed, the call trace" "$s" "Report: Call trace"
printf '%s\n' "$s" >"$TMP/s"
python3 - "$call_no" "$name" "$index" "$TMP/s" <<'PY' || { printf '%s\n' "$s" >&2; fail "the call after the index"; }
import sys
call_no, name, index = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(sys.argv[4], encoding='utf-8').read().split('\n')
top = next(i for i, l in enumerate(lines) if 'Call no' in l)
det = next(i for i, l in enumerate(lines) if '─ Details' in l)
rows = [l.split('│', 1)[1] for l in lines[top + 1:det]]
if not [r for r in rows if r.split()[:1] == [call_no] and name in r]:
    sys.exit('call %s (%s) is not on screen' % (call_no, name))
if not any(l.split('│')[-1].split()[:1] == [index] for l in lines[det + 1:]):
    sys.exit('the Details of the selected call do not list event %s' % index)
print('ok: after the index: call %s (%s), its events list event %s' % (call_no, name, index))
PY

# In a real terminal (tmux, 80x24): the opening runs between frames, then
# the call is selected; waited for, never slept
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
AFTER='echo "exit=$?"'
pv_tmux_start 80 24 xterm-256color C.UTF-8 "sh -c '$PROFVIEW $BIG; $AFTER'"
pv_tmux_wait "Report:" 60
pv_tmux_wait_gone "indexing" 60
pv_tmux_keys BTab g j j j j j j Tab
pv_tmux_wait "Report: Timeline"
pv_tmux_keys ":goto $index" Enter
pv_tmux_wait "row $((index + 1))/"
pv_tmux_keys Enter
pv_tmux_wait "Report: Call trace" 30
pv_tmux_wait "$name" 30
pv_until 30 -- pv_tmux_lacks "Opening" || true
pv_tmux_wait "─ Details ─[Events of the call]" 30
pv_tmux_screen >"$TMP/s"
python3 - "$call_no" "$name" "$index" "$TMP/s" <<'PY' || { cat "$TMP/s" >&2; fail "tmux: the call"; }
import sys
call_no, name, index = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(sys.argv[4], encoding='utf-8').read().split('\n')
top = next(i for i, l in enumerate(lines) if 'Call no' in l)
det = next(i for i, l in enumerate(lines) if '─ Details' in l)
rows = [l.split('│', 1)[1] for l in lines[top + 1:det]]
at = [k for k, r in enumerate(rows) if r.split()[:1] == [call_no] and name in r]
if len(at) != 1:
    sys.exit('call %s (%s) is not on screen once' % (call_no, name))
if not (len(rows) <= 3 * at[0] + 2 < 2 * len(rows) + 2):
    sys.exit('call %s is on line %d of %d, not centred' % (call_no, at[0], len(rows)))
if not any(l.split('│')[-1].split()[:1] == [index] for l in lines[det + 1:]):
    sys.exit('the Details of the selected call do not list event %s' % index)
print('ok: tmux: call %s (%s) on line %d of %d, its events list event %s'
      % (call_no, name, at[0], len(rows), index))
PY
pv_tmux_stop
exit 0
