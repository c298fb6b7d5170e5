# Helpers for the screen tests (sourced, not run: the file is not *.sh).
#
# Scripted-keys screens:  pv_screen KEYS_TEXT [--size WxH] [FILE...] -> stdout
# tmux-driven terminals:  pv_tmux_start CMD; pv_tmux_wait PATTERN; pv_tmux_keys ...;
#                         pv_tmux_screen; pv_tmux_stop
# Waiting for anything else:  pv_until [SECONDS] -- COMMAND... (tests/lib/wait.bash)
set -euo pipefail
# shellcheck source=../lib/wait.bash
source "$(dirname "${BASH_SOURCE[0]}")/../lib/wait.bash"
: "${PROFVIEW:?PROFVIEW must name the profview binary}"
: "${PV_SOURCE_DIR:?PV_SOURCE_DIR must name the source tree}"
SAMPLES=$PV_SOURCE_DIR/sample-data
TMP=$(mktemp -d)
PV_TMUX_SOCKET=""
cleanup() {
  if [ -n "$PV_TMUX_SOCKET" ]; then tmux -L "$PV_TMUX_SOCKET" kill-server 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
# tmux servers put their sockets under $TMUX_TMPDIR: a private one inside
# $TMP, so that nothing is left in the user's tmux directory (cleanup removes
# it), and no tmux the tests run under is reached.
export TMUX_TMPDIR=$TMP/tmux
mkdir -p "$TMUX_TMPDIR"
unset TMUX
# No user config or theme may change what the tests see.
export XDG_CONFIG_HOME=$TMP/config
unset NO_COLOR
# Sessions (docs/tui.md "Sessions"; scripted --keys runs have none): each
# viewer in tmux gets a state directory of its own, so that no run restores
# what another left and no test touches the user's; a test of sessions
# names one in PV_STATE to share it.
export HOME=$TMP/home
mkdir -p "$HOME"
pv_state_dir() {
  if [ -n "${PV_STATE:-}" ]; then echo "$PV_STATE"; else mktemp -d "$TMP/state.XXXXXX"; fi
}

fail() { echo "FAIL: $*" >&2; exit 1; }

need_sample() {
  [ -f "$SAMPLES/$1" ] || fail "sample $1 is missing (sample-data/ comes with the loaders)"
}

# pv_screen "keys" [profview args...]: the final screen of a scripted run;
# $PV_TEST: test options to add ("--test index-slice=5 ...", docs/testing.md).
pv_screen() {
  local keys=$1; shift
  printf '%s\n' "$keys" > "$TMP/keys"
  # shellcheck disable=SC2086 # PV_TEST is words
  "$PROFVIEW" --keys "$TMP/keys" --dump "$TMP/screen" ${PV_TEST:-} "$@" || fail "profview exited with $?"
  cat "$TMP/screen"
}

# expect_screen NAME ACTUAL EXPECTED: exact comparison with a diff on failure.
expect_screen() {
  if [ "$2" != "$3" ]; then
    diff -u <(printf '%s\n' "$3") <(printf '%s\n' "$2") >&2 || true
    fail "screen '$1' differs"
  fi
  echo "ok: $1"
}

expect_contains() {
  case "$2" in *"$3"*) echo "ok: $1" ;; *) printf '%s\n' "$2" >&2; fail "$1: no '$3' on screen" ;; esac
}

expect_absent() {
  case "$2" in *"$3"*) printf '%s\n' "$2" >&2; fail "$1: '$3' should not be on screen" ;; *) echo "ok: $1" ;; esac
}

# ---- tmux

pv_tmux_start() { # WIDTH HEIGHT TERM LANG COMMAND...
  command -v tmux >/dev/null || { echo "SKIP: tmux is not installed"; exit 0; }
  local w=$1 h=$2 term=$3 lang=$4; shift 4
  # A fresh server per session: a killed server may still hold its socket.
  PV_TMUX_COUNT=$((${PV_TMUX_COUNT:-0} + 1))
  PV_TMUX_SOCKET=pvtest$$-$PV_TMUX_COUNT
  # A config of our own, no user's: a pane whose command has exited stays,
  # as it was, with no message drawn in it (remain-on-exit), so that a test
  # reads what a command printed after profview ended ("exit=$?"); the
  # pane runs the command through sh.
  printf '%s\n' 'set-option -g remain-on-exit on' "set-option -g remain-on-exit-format ''" \
    > "$TMP/tmux.conf"
  tmux -L "$PV_TMUX_SOCKET" -f "$TMP/tmux.conf" new-session -d -x "$w" -y "$h" \
    "env TERM=$term LANG=$lang LC_ALL=$lang XDG_CONFIG_HOME=$XDG_CONFIG_HOME HOME=$HOME XDG_STATE_HOME=$(pv_state_dir) $*"
  tmux -L "$PV_TMUX_SOCKET" set-option -g default-terminal "$term" >/dev/null 2>&1 || true
}

pv_tmux_screen() { tmux -L "$PV_TMUX_SOCKET" capture-pane -p -t 0; }

pv_tmux_keys() { tmux -L "$PV_TMUX_SOCKET" send-keys -t 0 "$@"; }

# pv_tmux_shows PATTERN [LINE]: the pane shows PATTERN (fixed string), on
# line LINE when given.
pv_tmux_shows() {
  if [ -n "${2:-}" ]; then
    pv_tmux_screen | sed -n "${2}p" | grep -qF -- "$1"
  else
    pv_tmux_screen | grep -qF -- "$1"
  fi
}

# pv_tmux_wait PATTERN [SECONDS]: until the pane shows PATTERN (fixed string);
# 30 s by default: a deadline only a failure waits for, long enough for the
# sanitizer build on a loaded machine (screen_flame_build once missed 10 s).
pv_tmux_wait() {
  pv_until "${2:-30}" -- pv_tmux_shows "$1" && return 0
  pv_tmux_screen >&2
  fail "timed out waiting for '$1'"
}

# pv_tmux_wait_line N PATTERN [SECONDS]: until line N of the pane shows it
# (after a resize the old screen may still show the pattern elsewhere).
pv_tmux_wait_line() {
  pv_until "${3:-30}" -- pv_tmux_shows "$2" "$1" && return 0
  pv_tmux_screen >&2
  fail "timed out waiting for '$2' on line $1"
}

# pv_tmux_wait_gone PATTERN [SECONDS]: until the pane no longer shows
# PATTERN (fixed string): the viewer's indexing has ended, say.
pv_tmux_lacks() { ! pv_tmux_shows "$@"; }
pv_tmux_wait_gone() {
  pv_until "${2:-30}" -- pv_tmux_lacks "$1" && return 0
  pv_tmux_screen >&2
  fail "'$1' is still on the screen"
}

# pv_tmux_status: the pane's status bar (its last line with "│ row ");
# pv_tmux_status_has TEXT: it holds TEXT; pv_tmux_wait_status TEXT: until
# it does (30 s, a deadline only a failure waits for).
pv_tmux_status() { pv_tmux_screen | grep -F "│ row " | tail -1; }
pv_tmux_status_has() { case "$(pv_tmux_status)" in *"$1"*) return 0 ;; *) return 1 ;; esac; }
pv_tmux_wait_status() {
  pv_until -- pv_tmux_status_has "$1" && return 0
  pv_tmux_screen >&2
  fail "the status bar never showed '$1'"
}

pv_tmux_stop() {
  tmux -L "$PV_TMUX_SOCKET" kill-server 2>/dev/null || true
  PV_TMUX_SOCKET=""
}
