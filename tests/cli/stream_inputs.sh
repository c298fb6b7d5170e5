#!/usr/bin/env bash
# Pipes, FIFOs, /dev/stdin and `-` (docs/input.md): for every format, `info`
# and `cat` of every view read from a stream give what they give on the file
# itself; the stream is read once (a FIFO with a single writer works); an
# SQLite database goes through a private temporary file that is removed, on
# success and on error; a Text1 from a pipe says that no .BIN can be beside it.
set -euo pipefail
source "$(dirname "$0")/../lib/wait.bash"
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export TMPDIR=$tmp/tmpdir   # where profview's temporary copies go
mkdir -p "$TMPDIR"
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# The output of profview ARGS on the stream named NAME, the path replaced by FILE.
norm() { sed -e "s#$1#FILE#g"; }

# run HOW FILE ARGS...: profview ARGS with FILE given as stream HOW, its
# output normalised (the name under which profview saw it becomes FILE).
run() {
  local how=$1 file=$2; shift 2
  case "$how" in
    file) "$pv" "$@" "$file" | norm "$file" ;;
    procsub) "$pv" "$@" <(cat "$file") | norm '/dev/fd/[0-9]*' ;;
    devstdin) cat "$file" | "$pv" "$@" /dev/stdin | norm /dev/stdin ;;
    dash) cat "$file" | "$pv" "$@" - | norm /dev/stdin ;;
    redirect) "$pv" "$@" /dev/stdin < "$file" | norm /dev/stdin ;;
    fifo)
      rm -f "$tmp/fifo"; mkfifo "$tmp/fifo"
      # One writer, slowly: the reader must take it all and not ask for more.
      pv_fifo_write_slowly "$file" "$tmp/fifo" &
      "$pv" "$@" "$tmp/fifo" | norm "$tmp/fifo"
      wait ;;
  esac
}

samples=(aqtime-trace.db aqtime-refcount.db aqtime-resource.db rtos.txt rtos-ctx.txt
         rtos-v10.txt.BIN rtos-v11.txt.BIN plist-func-timing.txt plist-line-count.txt
         plist-line-coverage.txt plist-func-count.txt)
for s in "${samples[@]}"; do
  file=$src/sample-data/$s
  # cat moves the argument order: FILE comes last, as `run` puts it.
  run file "$file" info > "$tmp/want.info"
  views=$(awk '/^    [a-z-]+ +[0-9]+ rows/ { print $1 }' "$tmp/want.info" | sort -u)
  [ -n "$views" ] || bad "$s: no views in info"
  for how in procsub devstdin dash redirect fifo; do
    run "$how" "$file" info > "$tmp/got.info" || bad "$s $how: info failed"
    cmp -s "$tmp/want.info" "$tmp/got.info" || { bad "$s $how: info differs"; diff "$tmp/want.info" "$tmp/got.info" | head -5; }
  done
  for v in $views; do
    run file "$file" cat --view "$v" > "$tmp/want.cat"
    for how in dash fifo; do
      run "$how" "$file" cat --view "$v" > "$tmp/got.cat" || bad "$s $how: cat --view $v failed"
      cmp -s "$tmp/want.cat" "$tmp/got.cat" || { bad "$s $how: cat --view $v differs"; diff "$tmp/want.cat" "$tmp/got.cat" | head -5; }
    done
  done
  echo "ok: $s ($(echo $views | wc -w) views) from pipes, FIFO, /dev/stdin and -"
done

# The routines of a Text1 through /dev/stdin redirected from the file (the
# form of the issue): same rows as the file.
"$pv" cat /dev/stdin --view routines < "$src/sample-data/rtos.txt" > "$tmp/a"
"$pv" cat "$src/sample-data/rtos.txt" --view routines > "$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && [ -s "$tmp/a" ] || bad "cat /dev/stdin --view routines < rtos.txt differs"

# No temporary copy is left behind, on success or on error.
[ -z "$(ls -A "$TMPDIR")" ] || bad "temporary files left: $(ls "$TMPDIR")"
head -c 8192 "$src/sample-data/aqtime-trace.db" > "$tmp/cut.db"
rc=0; "$pv" info --input-format aqtime - < <(cat "$tmp/cut.db") > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" -ne 0 ] || bad "a cut database from a pipe loaded"
grep -q '^profview: error: /dev/stdin: ' "$tmp/err" || { bad "no error naming /dev/stdin"; cat "$tmp/err"; }
[ -z "$(ls -A "$TMPDIR")" ] || bad "temporary files left after an error: $(ls "$TMPDIR")"
echo "ok: no temporary copy left (success and error)"

# An empty pipe, and a Text1 without its BIN from a pipe.
rc=0; "$pv" info - < /dev/null > /dev/null 2> "$tmp/err" || rc=$?
[ "$rc" -ne 0 ] || bad "an empty input loaded"
true | { "$pv" info - 2> "$tmp/err" > /dev/null && bad "an empty pipe loaded"; true; }
grep -q 'the input is empty' "$tmp/err" || { bad "empty pipe: $(cat "$tmp/err")"; }
cat "$src/sample-data/rtos-v10.txt" | "$pv" info - > "$tmp/out"
grep -q 'TIMELINE section has no events, and a Text1 read from a pipe has no .BIN beside it' "$tmp/out" ||
  { bad "no word about the missing BIN"; cat "$tmp/out"; }
"$pv" info "$src/sample-data/rtos-v10.txt" | grep -q 'read from a pipe' && bad "the note shows for a file"
echo "ok: empty pipe, Text1 without its BIN"
exit $fail
