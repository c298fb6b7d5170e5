#!/usr/bin/env bash
# Every state visible without colour (docs/tui.md "Themes"): under NO_COLOR=1
# the selected flame graph frame is in reverse video and no other frame is
# (the frames are plain, their edges part them); the same with the
# monochrome theme. Captured with the attributes (capture-pane -e).
source "$(dirname "$0")/lib.bash"
need_sample aqtime-trace.db
DB=$SAMPLES/aqtime-trace.db
ESC=$'\e'

# reversed_words SCREEN: the words drawn in reverse video in the Report's
# rows (between its title and the Details), one a line.
reversed_words() {
  awk -v e="$ESC" 'NR > 2 && /Details/ { exit } NR > 2 { print }' <<<"$1" |
    sed "s/${ESC}\[[0-9;]*m/\n&/g" |
    awk -v e="$ESC" '/^\x1b\[/ { rev = ($0 ~ /^\x1b\[([0-9;]*;)?7(;[0-9;]*)?m/) } rev { sub(/^\x1b\[[0-9;]*m/, ""); print }' |
    tr -s ' │▏|' '\n' | grep -v '^$' || true
}

# only_selected_reversed: in a capture of the pane now (s), the reversed
# words (words) are those of the selected frame, log_write, alone.
only_selected_reversed() {
  s=$(tmux -L "$PV_TMUX_SOCKET" capture-pane -p -e -t 0)
  words=$(reversed_words "$s" | sort -u | tr '\n' ' ')
  [ "$words" = "log_write " ]
}

# check NAME COMMAND...: F, then k selects a frame; until a deadline, the
# reversed words are those of the frame the Details name (the selection).
check() {
  local name=$1; shift
  pv_tmux_start 100 30 xterm-256color C.UTF-8 "$* $DB"
  pv_tmux_wait "Report:"
  pv_tmux_keys Tab F
  pv_tmux_wait "Flame graph:"
  pv_tmux_keys k
  pv_tmux_wait "Frame     log_write"
  local s words=""
  pv_until -- only_selected_reversed ||
    { printf '%s\n' "$s" | cat -v >&2; fail "$name: reversed in the graph: '$words', not the selected frame (log_write) alone"; }
  echo "ok: $name: the selected frame (log_write) alone is in reverse video"
  pv_tmux_stop
}
check "NO_COLOR=1" env NO_COLOR=1 "$PROFVIEW"
check "monochrome theme, no colour" env NO_COLOR=1 "$PROFVIEW" --theme monochrome
check "monochrome theme" "$PROFVIEW" --theme monochrome
check "NO_COLOR=1 --ascii" env NO_COLOR=1 "$PROFVIEW" --ascii
