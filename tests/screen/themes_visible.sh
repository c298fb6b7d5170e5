#!/usr/bin/env bash
# Every state visible in every theme (docs/tui.md "Themes"): without
# colour (NO_COLOR=1, a terminal without colours: TERM=vt100), with the
# monochrome theme and in ASCII, the focused pane, the selection (focused:
# reverse video; unfocused: underlined), the Explorer's files and current
# view, the active Details tab, a filter's context rows (dim), a search
# match on the selected row (it was painted over) and the markers in the
# lanes each have an attribute of their own (a terminal without dim, as
# vt100, shows a filter's context rows as the others).  Read from tmux's capture
# with the attributes (capture-pane -e, tests/screen/attrs.py).
source "$(dirname "$0")/lib.bash"
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt
ATTRS=$(dirname "$0")/attrs.py

# attrs_are TEXT WANT [LINE]: in a capture of the pane now, TEXT's first
# character is drawn with every attribute of WANT ("reverse underline") and
# none of its "!word"s; sets got to the attributes it has.
attrs_are() {
  local text=$1 want=$2 line=${3:-} w
  tmux -L "$PV_TMUX_SOCKET" capture-pane -p -e -t 0 > "$TMP/capture"
  # shellcheck disable=SC2086 # no LINE: no argument
  got=" $(python3 "$ATTRS" "$TMP/capture" "$text" $line) "
  for w in $want; do
    case $w in
      !*) case $got in *" ${w#!} "*) return 1 ;; esac ;;
      *) case $got in *" $w "*) ;; *) return 1 ;; esac ;;
    esac
  done
}

# expect_attrs NAME TEXT WANT [LINE]: attrs_are, polled until a deadline
# (the screen may lag).
expect_attrs() {
  local name=$1 text=$2 want=$3 line=${4:-} got=""
  if pv_until -- attrs_are "$text" "$want" "$line"; then
    echo "ok: $case: $name ($want:$got)"
    return 0
  fi
  cat -v "$TMP/capture" >&2
  fail "$case: $name: '$text' is drawn$got, not $want"
}

check() { # CASE TERM PROFVIEW-ARGS...
  case=$1 term=$2; shift 2
  pv_tmux_start 100 30 "$term" C.UTF-8 "$* $RTOS"
  pv_tmux_wait "Report: Summary"
  expect_attrs "the focused pane's title" "Report: Summary" "reverse"
  expect_attrs "the focused pane's selection" "winidea-text1" "reverse"
  expect_attrs "the unfocused Explorer's cursor" "Summary (14)" "underline !reverse"
  expect_attrs "a file in the Explorer" "rtos.txt" "bold" 2
  # the call trace filtered (its matches' callers kept, dim) and searched
  pv_tmux_keys BTab j j j j j Tab f 'routine == "memcpy_s"' Enter
  pv_tmux_wait "filter: routine =="
  pv_tmux_keys / memcpy Enter
  pv_tmux_wait "372 ns"
  # (vt100 has no dim: there the context rows read as the others)
  [ "$term" = vt100 ] || expect_attrs "a filter's context row" "Task_Fast" "dim"
  expect_attrs "the selected row" "372 ns" "reverse"
  expect_attrs "a search match on the selected row" "memcpy_s" "underline !reverse"
  pv_tmux_keys Tab
  expect_attrs "the Details focused: their title" " Details " "reverse"
  expect_attrs "the active Details tab" "[Events of the call]" "reverse"
  expect_attrs "the Report's title unfocused" "Report: Call trace" "!reverse"
  expect_attrs "the Report's selection unfocused" "372 ns" "underline !reverse"
  # the timeline's lanes with markers A and B
  pv_tmux_keys Escape BTab BTab k Tab m j j j M j j j j
  pv_tmux_wait "B-A"
  expect_attrs "marker A in a lane" "re:ID_TASK_IDLE +(A)" "underline"
  expect_attrs "marker B in a lane" "re:ID_TASK_IDLE +A +(B)" "underline"
  expect_attrs "the lanes' cursor" "re:ID_TASK_IDLE +A +B +(.)" "reverse"
  pv_tmux_stop
}
check "NO_COLOR=1" xterm-256color env NO_COLOR=1 "$PROFVIEW"
check "a terminal without colours (vt100)" vt100 "$PROFVIEW"
check "monochrome theme" xterm-256color "$PROFVIEW" --theme monochrome
check "NO_COLOR=1 --ascii" xterm-256color env NO_COLOR=1 "$PROFVIEW" --ascii
echo PASS
