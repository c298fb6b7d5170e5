#!/usr/bin/env bash
# The tmux screen tests keep their servers' sockets in a private
# TMUX_TMPDIR that is removed when the test ends (lib.bash): nothing is left
# in the user's tmux directory.
. "$(dirname "$0")/lib.bash"
command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
need_sample rtos.txt
user_dir=${TMUX_TMPDIR_OUTER:-/tmp}/tmux-$(id -u)
# A child test: starts profview in tmux, reports where the socket is, and
# exits without stopping the server (as a failing test would).
cat > "$TMP/child.sh" <<CHILD
. "$PV_SOURCE_DIR/tests/screen/lib.bash"
pv_tmux_start 100 30 xterm-256color C.UTF-8 "$PROFVIEW" "$SAMPLES/rtos.txt"
pv_tmux_wait Summary
echo "\$TMUX_TMPDIR/tmux-\$(id -u)/\$PV_TMUX_SOCKET"
CHILD
before=$(ls -A "$user_dir" 2>/dev/null || true)
socket=$(env -u TMUX_TMPDIR bash "$TMP/child.sh") || fail "the child test failed"
case "$socket" in */tmux/tmux-*/pvtest*) echo "ok: socket in a private directory ($socket)" ;;
  *) fail "socket at an unexpected place: $socket" ;; esac
[ ! -e "$socket" ] || fail "the socket $socket is left behind"
[ ! -e "${socket%/tmux/*}" ] || fail "the private directory ${socket%/tmux/*} is left behind"
echo "ok: nothing left behind"
# (other runs, older or elsewhere, may have left sockets there: only a new
# one would be ours)
name=${socket##*/}
if [ -e "$user_dir/$name" ] && ! grep -qxF -- "$name" <<<"$before"; then
  fail "a socket $name is in the user's tmux directory"
fi
echo "ok: nothing in $user_dir"
