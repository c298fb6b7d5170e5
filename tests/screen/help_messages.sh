#!/usr/bin/env bash
# Help and messages (docs/tui.md "Keys", "Messages", "Cut text"):
# * the help's lines wrap under their column instead of being cut (the `q`
#   line was cut at 80 columns);
# * `/` searches the help, `n` / `N` go to the next / previous match, the
#   matches are highlighted (tmux, with the attributes);
# * a message longer than the screen wraps at blanks (it was cut);
# * the load errors of the other files of the command line stay reachable
#   after the first key: :messages lists the session's messages;
# * a path in a table is cut in its middle, keeping its file name.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample rtos.txt
RTOS=$SAMPLES/rtos.txt

# 1. The help at 80 columns: the q line wraps, nothing is cut.
s=$(pv_screen '?' "$RTOS" --size 80x24)
expect_contains "the q line's end, on its own line" "$s" \
  $'close the help or a view opened from\n                                   another; quit (asks if state would be lost)'
s=$(pv_screen '?' "$RTOS" --size 50x24 --ascii)
expect_contains "50 columns: the description under its key, wrapped" "$s" \
  $' q                  quit\n    close the help or a view opened from another;\n    quit (asks if state would be lost)'
expect_contains "50 columns: the title cut with a mark" "$s" "/ searches; m>"

# 2. / searches the help; n, N go round the matches.
s=$(pv_screen $'?\n/copy-row<Enter>' "$RTOS" --size 80x24)
expect_contains "/ finds a key's line" "$s" " Y                  copy-row       copy the selected row"
expect_contains "the help stays open" "$s" "Help: keys"
s=$(pv_screen $'?\n/:copy<Enter>' "$RTOS" --size 80x24)
expect_contains "/ finds a command" "$s" " :copy view|row|cell|FILE"
s=$(pv_screen $'?\n/clipboard<Enter>\nn\nn' "$RTOS" --size 80x24)
expect_contains "n: the next matches" "$s" " :copy view|row|cell|FILE"
s=$(pv_screen $'?\n/clipboard<Enter>\nN' "$RTOS" --size 80x24)
expect_contains "N from the first match: round the end, the last" "$s" " :copy view|row|cell|FILE"
s=$(pv_screen $'?\n/zzqqxx<Enter>' "$RTOS" --size 80x24)
expect_contains "no match says so" "$s" "not found: zzqqxx"
s=$(pv_screen $'?\n/copy-row<Enter>\nq\nj' "$RTOS" --size 80x24)
expect_contains "q closes the help; keys act again" "$s" "row 2/14"

# 3. A message longer than the screen wraps at blanks.
s=$(pv_screen $'Shift-Tab\nj j j j j j\nTab\n:sort nosuchcolumn<Enter>' "$RTOS" --size 80x24)
expect_contains "a long message wrapped at a blank" "$s" \
  $'\nunknown column \'nosuchcolumn\' at column 1; columns: id, routine, module, hits,\ntime, time_with_children,'
expect_contains "... to its end" "$s" "call_time, handle"

# 4. Load errors of other files stay reachable after a key.
printf 'garbage\001\002' > "$TMP/bad1.bin"
printf 'more garbage\003' > "$TMP/bad2.bin"
s=$(pv_screen '' "$RTOS" "$TMP/bad1.bin" "$TMP/bad2.bin" --size 100x30)
expect_contains "the errors at once" "$s" "$TMP/bad2.bin: byte 0: not a format profview knows"
expect_contains "... say where they stay" "$s" ":messages shows them again"
s=$(pv_screen $'j\nj' "$RTOS" "$TMP/bad1.bin" "$TMP/bad2.bin" --size 100x30)
expect_absent "keys clear the message" "$s" "not a format profview knows"
s=$(pv_screen $'j\nj\n:messages<Enter>' "$RTOS" "$TMP/bad1.bin" "$TMP/bad2.bin" --size 100x30)
expect_contains ":messages: the first file's error" "$s" " $TMP/bad1.bin: byte 0: not a format profview knows"
expect_contains ":messages: the second file's error" "$s" " $TMP/bad2.bin: byte 0: not a format profview knows"
s=$(pv_screen $'j\n:messages<Enter>\n/bad2<Enter>\nq\nj' "$RTOS" "$TMP/bad1.bin" "$TMP/bad2.bin" --size 100x30)
expect_contains ":messages is searched and closed like the help" "$s" "row 3/14"

# 5. A path in a table is cut in its middle: the Warnings' file column.
deep=$TMP/work/a/rather/deep/directory/of/profiles
mkdir -p "$deep"
cat > "$deep/trunc_pair.txt" <<'TXT'
* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%
00000000,main,
1000000G,{,51
* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%
00000000,E,,100
00000000,Q,,150
00000000,X,,200
TXT
s=$(pv_screen $'Shift-Tab\ng' "$deep/trunc_pair.txt" --size 80x24)
expect_contains "the file name kept, the directories cut" "$s" "│  1 warning   /tmp"
expect_contains "... in their middle" "$s" "…/trunc_pair.txt line 3"
s=$(pv_screen $'Shift-Tab\ng' "$deep/trunc_pair.txt" --size 80x24 --ascii)
expect_contains "ASCII: ~ where the middle was cut" "$s" "~/trunc_pair.txt line 3"

# 6. In a terminal: the help's matches are highlighted (an attribute
# starts right before the match).
pv_tmux_start 80 24 xterm-256color C.UTF-8 "$PROFVIEW $RTOS"
pv_tmux_wait "Report: Summary"
pv_tmux_keys '?'
pv_tmux_wait "Help: keys"
pv_tmux_keys / c o p y - r o w Enter
pv_tmux_wait " Y                  copy-row"
match_highlighted() { # sets line to the help's line of copy-row
  line=$(tmux -L "$PV_TMUX_SOCKET" capture-pane -p -e -t 0 | grep -F 'copy the selected row' || true)
  case $line in *$'\e['*m'copy-row'*) return 0 ;; *) return 1 ;; esac
}
pv_until -- match_highlighted || true
case $line in
  *$'\e['*m'copy-row'*) echo "ok: the match is highlighted" ;;
  *) printf '%s\n' "$line" | cat -v >&2; fail "no attribute before the match" ;;
esac
pv_tmux_stop
echo PASS
