#!/usr/bin/env bash
# Selections combine and windows reopen as shown (docs/export.md "Filters",
# "Windows"): a filter AND a window AND a context, in Text1, BIN and SQLite,
# reopened, prints what `cat` of the source prints with the same selection;
# a windowed export of a generated multi-task timeline reopens with the
# source's contexts, depths and statistics over the window and no warning
# the source lacked; the command line's export shows the loading progress
# bar on a terminal (script: a pseudo-terminal) and nothing when stderr is a
# file.
set -euo pipefail
pv=${PROFVIEW:?}
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$gen" --seed 7 --tasks 5 --events 200000 --format text -o "$tmp/run.txt"
"$gen" --seed 8 --tasks 4 --events 100000 --format bin11 -o "$tmp/runb.txt"
stats=handle,type,name,value,context,count,net,net_min,net_max,net_avg,gross,gross_min,gross_max,gross_avg,call,call_min,call_max,call_avg,period_min,period_max,period_avg,outside,outside_min,outside_max,outside_avg
events=time,context,name,event,value,type
calls=routine,thread,time,time_with_children,call_time,implicit
warnings() { "$pv" cat "$1" --view summary "${@:2}" | awk -F'\t' '$2=="warnings"{print $3}'; }

# 1. filter AND window AND context, each output format, against cat of the
#    source with the same selection (Text1/BIN reopened: the same filter and
#    context select the kept events among the context area's and the
#    calls' entries and exits kept with them)
while IFS='|' read -r file from to ctx filter; do
  sel=(--from "$from" --to "$to" --context "$ctx" --filter "$filter")
  want=$("$pv" cat "$file" --view timeline "${sel[@]}" --columns "$events")
  [ "$(wc -l <<<"$want")" -gt 2 ] || bad "$file '$filter': the selection is empty"
  for fmt in text1 bin; do
    out=$tmp/sel-$fmt.txt
    rm -f "$out" "$out.BIN"
    "$pv" export "$file" --format $fmt "${sel[@]}" -o "$out" ||
      { bad "$fmt export of '$filter' $from..$to $ctx"; continue; }
    got=$("$pv" cat "$out" --view timeline --context "$ctx" --filter "$filter" --columns "$events")
    [ "$want" = "$got" ] || { bad "$fmt '$filter' $from..$to $ctx: reopened events differ:"; diff <(echo "$want") <(echo "$got") | head -5; }
    # nothing of what the selection left out, but the context area's events
    n=$("$pv" cat "$out" --view timeline --filter "type = function && context != \"$ctx\"" | wc -l)
    [ "$n" -eq 1 ] || bad "$fmt '$filter': $((n - 1)) function events of other contexts"
    [ "$(warnings "$out")" = 0 ] || bad "$fmt '$filter' $from..$to: warnings on reopening: $(warnings "$out")"
  done
  out=$tmp/sel.db
  rm -f "$out"
  "$pv" export "$file" --format sqlite --view timeline "${sel[@]}" -o "$out" ||
    { bad "sqlite export of '$filter'"; continue; }
  cmp <("$pv" cat "$file" --view timeline "${sel[@]}") <("$pv" cat "$out" --view timeline) ||
    bad "sqlite '$filter' $from..$to $ctx: rows differ from cat of the source"
done <<SELECTIONS
$tmp/run.txt|10ms|12ms|ID_TASK_FAST|name = CRC_Calc
$tmp/run.txt|3ms|9ms|ID_TASK_COMM|event = X
$tmp/runb.txt|2ms|6ms|ID_TASK_FAST|name ~ /^(Sensor_Read|CRC_Calc)\$/
$src/rtos.txt|50us|400us|ID_TASK_FAST|event != S
SELECTIONS

# 2. windows reopen as shown: the same context and depth for every event,
#    the statistics of `cat --view statistics --from --to`, the calls (their
#    times within the window), and no warning the source lacked
for file in "$tmp/run.txt" "$tmp/runb.txt" "$src/rtos.txt"; do
  for w in "10ms 20ms" "50us 200us" "123456 900000"; do
    set -- $w
    # the source over the window, once for both formats
    "$pv" cat "$file" --view timeline --from "$1" --to "$2" --columns "$events,depth" >"$tmp/src-events"
    "$pv" cat "$file" --view statistics --from "$1" --to "$2" --columns "$stats" >"$tmp/src-stats"
    "$pv" cat "$file" --view call-trace --from "$1" --to "$2" --columns "$calls" >"$tmp/src-calls"
    wa=$(warnings "$file" --from "$1" --to "$2")
    for fmt in text1 bin; do
      out=$tmp/w-$fmt.txt
      rm -f "$out" "$out.BIN"
      "$pv" export "$file" --format $fmt --from "$1" --to "$2" -o "$out" || { bad "$fmt window $w"; continue; }
      cmp "$tmp/src-events" <("$pv" cat "$out" --view timeline --columns "$events,depth") ||
        bad "$(basename "$file") $fmt $w: events, contexts or depths differ"
      cmp "$tmp/src-stats" <("$pv" cat "$out" --view statistics --columns "$stats") ||
        bad "$(basename "$file") $fmt $w: statistics differ from cat --view statistics --from --to"
      cmp "$tmp/src-calls" <("$pv" cat "$out" --view call-trace --columns "$calls") ||
        bad "$(basename "$file") $fmt $w: calls differ"
      wb=$(warnings "$out")
      [ "$wb" -le "$wa" ] || bad "$(basename "$file") $fmt $w: $wb warnings, the source $wa"
      n=$("$pv" cat "$out" --view timeline --filter 'context = Unknown' | wc -l)
      [ "$n" -eq 1 ] || bad "$(basename "$file") $fmt $w: $((n - 1)) events in context Unknown"
    done
  done
done
echo "ok: windows reopen with the source's contexts, statistics and calls"

# 2b. a windowed export reopened: exported again as it is, byte for byte (its
#     window is its own, not a cut); a context of it keeps the window's start
"$pv" export "$tmp/run.txt" --format text1 --from 10ms --to 12ms -o "$tmp/w.txt"
"$pv" export "$tmp/w.txt" --format text1 -o "$tmp/w-again.txt"
cmp "$tmp/w.txt" "$tmp/w-again.txt" || bad "a windowed export exported again differs"
"$pv" export "$tmp/w.txt" --format text1 --context ID_TASK_FAST -o "$tmp/w-fast.txt"
cmp <("$pv" cat "$tmp/run.txt" --view statistics --from 10ms --to 12ms --context ID_TASK_FAST --columns "$stats") \
    <("$pv" cat "$tmp/w-fast.txt" --view statistics --context ID_TASK_FAST --columns "$stats") ||
  bad "a context of a windowed export: statistics differ from the source's over the window"
[ "$(warnings "$tmp/w-fast.txt")" = 0 ] || bad "a context of a windowed export warns"

# 3. the progress bar: the loader's, on a terminal only
if command -v script >/dev/null; then
  "$gen" --seed 5 --tasks 4 --events 100000 --format text -o "$tmp/big.txt"
  now="--test progress-delay-ms=0" # the bar from the first report
  for fmt in sqlite text1; do
    rm -f "$tmp/big-out"
    script -qfec "$pv export $now $tmp/big.txt --format $fmt -o $tmp/big-out" /dev/null </dev/null >"$tmp/pty.out"
    grep -aqE 'profview: exporting \[[#-]{20}\] +[0-9]+%  [0-9.]+ k? ?rows of [0-9.]+ k rows' "$tmp/pty.out" ||
      { bad "$fmt: no export progress bar on a terminal:"; tr '\r' '\n' <"$tmp/pty.out" | cat -v | tail -3; }
    [ -s "$tmp/big-out" ] || bad "$fmt: nothing exported under script"
    rm -f "$tmp/big-out"
    "$pv" export $now "$tmp/big.txt" --format $fmt -o "$tmp/big-out" 2>"$tmp/err"
    [ ! -s "$tmp/err" ] || bad "$fmt: stderr is a file, yet: $(head -c 200 "$tmp/err" | cat -v)"
  done
else
  echo "note: no script (util-linux): the progress bar is not checked"
fi
exit $fail
