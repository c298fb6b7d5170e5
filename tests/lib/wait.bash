# How the script tests (tests/cli, tests/screen) wait: for a condition,
# never for a time (sourced, not run: docs/testing.md "Tests wait for a
# condition").
#
# pv_until [SECONDS [STEP]] -- COMMAND...
#   Runs COMMAND until it succeeds, again every STEP seconds (0.05 unless
#   given), for at most SECONDS (whole seconds by the clock, 30 unless
#   given: a deadline only a failure waits for, docs/testing.md); returns 0 as soon as it succeeds. When the deadline passes it
#   says on stderr what it waited for and returns 1: the caller fails with
#   what it saw, or goes on when not getting there is an answer too.
#   COMMAND runs in the caller's shell (a function may set variables that
#   the caller reads after).
pv_until() {
  local limit=30 step=0.05
  if [ $# -gt 0 ] && [ "$1" != -- ]; then limit=$1; shift; fi
  if [ $# -gt 0 ] && [ "$1" != -- ]; then step=$1; shift; fi
  [ "${1:-}" = -- ] || { echo "pv_until: usage: pv_until [SECONDS [STEP]] -- COMMAND..." >&2; return 2; }
  shift
  case $limit in '' | *[!0-9]*) echo "pv_until: SECONDS must be whole seconds: '$limit'" >&2; return 2 ;; esac
  # EPOCHREALTIME's decimal point is the locale's: keep the digits (microseconds)
  local now=${EPOCHREALTIME//[!0-9]/}
  local deadline=$((now + limit * 1000000))
  while :; do
    if "$@"; then return 0; fi
    now=${EPOCHREALTIME//[!0-9]/}
    [ "$now" -lt "$deadline" ] || break
    sleep "$step"
  done
  echo "pv_until: gave up after $limit s waiting for: $*" >&2
  return 1
}

# pv_fifo_empty FD: the FIFO (or pipe) open on FD holds no unread byte
# (FIONREAD, which Linux answers on either end).
pv_fifo_empty() {
  python3 - "$1" <<'PY'
import fcntl, struct, sys, termios
sys.exit(struct.unpack("i", fcntl.ioctl(int(sys.argv[1]), termios.FIONREAD, b"\0" * 4))[0] != 0)
PY
}

# pv_fifo_write_slowly FILE FIFO: writes FILE into FIFO as a slow writer
# does: the first half once a reader has the FIFO open (opening it for
# writing waits for that), the rest only once the reader has taken all of
# the first, so that its next read finds the FIFO empty and still open: it
# must wait for more.
pv_fifo_write_slowly() {
  local file=$1 fifo=$2 half w
  half=$(($(stat -c %s "$file") / 2))
  exec {w}>"$fifo"
  head -c "$half" "$file" >&"$w"
  pv_until -- pv_fifo_empty "$w" || { exec {w}>&-; return 1; }
  tail -c +"$((half + 1))" "$file" >&"$w"
  exec {w}>&-
}
