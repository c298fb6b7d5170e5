#!/usr/bin/env bash
# A big Text1 timeline is indexed by a worker while it is read
# (docs/winidea-input.md "Reading and indexing at once"): the result equals
# the serial load (--test text1-serial=1) byte for byte, for `info`
# (the whole index at load) and `cat` of every view (a deferred index that
# the worker left half done), warnings included, with the default chunk and
# with a small one (--test text1-chunk, more hand-overs), on
# generated files of 1.15 M events and bad variants of them: CRLF, BOM, a
# truncated last line, bad and 10 MB lines, times that go back and unknown
# handles (warnings of the parser and of the index, more than are kept), a
# context area found from written values, parents to resolve, the general
# template path, %CONTEXT% (streamed while each name is a CONTEXTS entry's:
# a name found only without its prefix, or a new one, drops the stream, as
# does CONTEXTS after the TIMELINE), a section after the TIMELINE
# (the stream is dropped), and with the index cache on.
# --test text1-debug says whether the stream ran, so a stream that
# never starts fails the test.
set -euo pipefail
pv=${PROFVIEW:?}
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
export PROFVIEW_CACHE=off

"$gen" --seed 3 --tasks 4 --events 1150000 --format text -o "$tmp/plain.txt"
"$gen" --seed 4 --tasks 3 --events 1150000 --format text-ctx -o "$tmp/ctx.txt"
f=$tmp/plain.txt
tl=$(grep -n '^\* TIMELINE' "$f" | cut -d: -f1) # the TIMELINE header line
head -n $((tl - 1)) "$f" >"$tmp/head"
tail -n +$((tl + 1)) "$f" >"$tmp/events"

# CRLF line ends, a BOM and a truncated last line
{ printf '\357\273\277'; sed 's/$/\r/' "$f" | head -c -6; } >"$tmp/edges.txt"
# bad lines early (before the stream begins) and late (while it runs);
# parents to resolve at the end of the parse (one found, one not)
{
  cat "$tmp/head"
  echo "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%,%HANDLE.PARENT%"
  echo "10000100,{,20,00000009"
  echo "10000101,x = 1;,21,0000FFFF"
  echo
  sed -n "${tl}p" "$f"
  sed -n '1,1000p' "$tmp/events"
  echo "ZZZZ,E,,5"
  echo "00000009,E,,1"          # time goes back: a warning of the index
  echo "0000ABCD,E,,2"          # a handle the mapping does not list
  echo
  echo "   00000009,X,,3  "
  sed -n '1001,1120000p' "$tmp/events"
  for i in 1 2 3; do echo "00000001,Q,,$i"; done
  for i in $(seq 1 250); do echo "00000009,W,,$i"; done # index warnings, more than are kept
  printf '0000000%s,E,,' 1; head -c 10000000 /dev/zero | tr '\0' 7; echo # a 10 MB line
  echo "00000009,E,,100"
  echo "0000ABCE,S,,101"
  sed -n '1120001,$p' "$tmp/events"
} >"$tmp/bad.txt"
# the context area from written values: the mapping lists no states for it
sed '/^30000000,,/d' "$f" >"$tmp/values.txt"
# the general template path: a prefix and blanks in the separators
{
  cat "$tmp/head"
  echo "* TIMELINE [%HANDLE%] %EVENT% %VALUE% @%TIME%"
  awk -F, '{ printf "[%s] %s %s @%s\n", $1, $2, $3, $4 }' "$tmp/events"
} >"$tmp/general.txt"
# %CONTEXT%: a name that is a CONTEXTS entry only without its prefix, a
# name that is none (a new context), both late (the stream is dropped);
# CONTEXTS after the TIMELINE (no name is found while reading: never begun)
c=$tmp/ctx.txt
ctl=$(grep -n '^\* TIMELINE' "$c" | cut -d: -f1)
late() { # late NAME: the first named event after 600 000 events renamed
  awk -F, -v OFS=, -v from=$((ctl + 600000)) -v name="$1" \
    'NR > from && !done && $2 != "" { $2 = name; done = 1 } { print }' "$c"
}
late "TSK: ID_TASK_FAST" >"$tmp/ctxprefix.txt"
late "ISR: Unlisted" >"$tmp/ctxnew.txt"
{
  sed -n '/^\* CONTEXTS/,/^$/!p' "$c"
  echo
  sed -n '/^\* CONTEXTS/,/^$/p' "$c"
} >"$tmp/ctxlate.txt"
# a section after the TIMELINE: what the worker did is dropped
{
  cat "$f"
  echo
  echo "* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%"
  echo "0000ABCD,Late_Function,"
} >"$tmp/after.txt"

views() { "$pv" info --no-cache "$1" | awk '/^    [a-z]/ { print $1 }'; }

# run NAME MODE FILE ARGS...: stdout and stderr of profview ARGS FILE in MODE
run() {
  local name=$1 mode=$2 file=$3
  shift 3
  local -a opt=()
  case $mode in
  serial) opt=(--test text1-serial=1) ;;
  stream) opt=() ;;
  small) opt=(--test text1-chunk=1000) ;;
  esac
  "$pv" "$@" "${opt[@]}" "$file" >"$tmp/$name.$mode.out" 2>"$tmp/$name.$mode.err" || true
}

same() { # same NAME MODE: MODE's output equals the serial one
  if ! cmp -s "$tmp/$1.serial.out" "$tmp/$1.$2.out" || ! cmp -s "$tmp/$1.serial.err" "$tmp/$1.$2.err"; then
    echo "FAIL: $1: the $2 load differs from the serial one"
    diff "$tmp/$1.serial.out" "$tmp/$1.$2.out" | head -5
    diff "$tmp/$1.serial.err" "$tmp/$1.$2.err" | head -5
    fail=1
  fi
}

# expect FILE WORD: the stream was taken / dropped / not begun ("none")
expect() {
  local got
  got=$("$pv" info --no-cache --test text1-debug=1 "$1" 2>&1 >/dev/null |
    sed -n 's/^profview: debug: Text1 index \([a-z]*\).*/\1/p')
  if [ "${got:-none}" != "$2" ]; then
    echo "FAIL: $(basename "$1"): the stream was '${got:-none}', expected '$2'"
    fail=1
  fi
}

# variant V: every check of one file (run two at a time: the files are
# independent; a failure is written to its own file, read at the end)
variant() {
  local v=$1 file mode view modes vs fail=0
  file=$tmp/$v.txt
  case $v in
  ctxlate) expect "$file" none ;;
  after | ctxprefix | ctxnew) expect "$file" dropped ;;
  *) expect "$file" taken ;;
  esac
  modes="serial small"
  [ $v = plain ] && modes="serial stream small"
  for mode in $modes; do
    run "$v.info" $mode "$file" info --no-cache
  done
  for mode in $modes; do
    [ $mode = serial ] || same "$v.info" $mode
  done
  [ -s "$tmp/$v.info.serial.out" ] || { echo "FAIL: $v: info printed nothing"; fail=1; }
  # views in full through cat (a deferred index): every view where the
  # index sees other events or another mapping, the call tree where only
  # the parser's path differs
  case $v in
  plain | bad | ctx) vs=$(views "$file") ;;
  values | ctxprefix | ctxnew | ctxlate) vs="timeline call-trace statistics contexts" ;;
  *) vs="call-trace" ;;
  esac
  for view in $vs; do
    modes="serial small" # the default chunk: for info and the call tree of plain
    [ $v.$view = plain.call-trace ] && modes="serial stream small"
    for mode in $modes; do
      run "$v.$view" $mode "$file" cat --no-cache --view "$view"
    done
    for mode in $modes; do
      [ $mode = serial ] || same "$v.$view" $mode
    done
  done
  [ $fail = 0 ] || touch "$tmp/$v.failed"
}
running=0
for v in plain edges bad values general ctx ctxprefix ctxnew ctxlate after; do
  variant "$v" &
  running=$((running + 1))
  if [ $running -ge 2 ]; then wait -n || true; running=$((running - 1)); fi
done
wait
for v in plain edges bad values general ctx ctxprefix ctxnew ctxlate after; do
  [ ! -e "$tmp/$v.failed" ] || fail=1
done
# the warnings really are there: of the parser, of the index, more than are kept
grep -q '^  warnings: [5-9][0-9][0-9]$' "$tmp/bad.info.serial.out" ||
  { echo "FAIL: bad: not the count of warnings expected"; fail=1; }
grep -q 'bad hex handle' "$tmp/bad.info.serial.out" || { echo "FAIL: bad: no parser warning"; fail=1; }
grep -q 'time decreases' "$tmp/bad.info.serial.out" || { echo "FAIL: bad: no index warning"; fail=1; }
grep -q 'HANDLE.PARENT 0000FFFF' "$tmp/bad.info.serial.out" ||
  { echo "FAIL: parent: no warning about the parent"; fail=1; }
# the odd names are there: a context named as written
grep -q 'ISR: Unlisted' "$tmp/ctxnew.contexts.serial.out" ||
  { echo "FAIL: ctxnew: no context 'ISR: Unlisted'"; fail=1; }

# with the index cache on: a miss (the stream's index is saved) and a hit
# (the stream's index is dropped) print what the serial load prints
export PROFVIEW_CACHE=on XDG_CACHE_HOME=$tmp/cache
for pass in miss hit; do
  "$pv" info "$f" >"$tmp/cache.$pass.out" 2>"$tmp/cache.$pass.err" || true
  "$pv" cat "$f" --view call-trace >"$tmp/cache.ct.$pass.out" 2>/dev/null || true
  cmp -s "$tmp/cache.$pass.out" "$tmp/plain.info.serial.out" ||
    { echo "FAIL: cache $pass: info differs"; fail=1; }
  cmp -s "$tmp/cache.$pass.err" "$tmp/plain.info.serial.err" ||
    { echo "FAIL: cache $pass: info's messages differ"; fail=1; }
  cmp -s "$tmp/cache.ct.$pass.out" "$tmp/plain.call-trace.serial.out" ||
    { echo "FAIL: cache $pass: call-trace differs"; fail=1; }
done
exit $fail
