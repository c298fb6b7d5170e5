#!/usr/bin/env bash
# Event times near the ends of int64_t (docs/winidea-model.md, "Times"): a
# 96-byte BIN with times -9e18 and +9e18 loads with a warning naming each
# record, its times read as +/-(2^62 - 1), and every view and every detail of
# every row prints (under ASan+UBSan in the sanitizer build: no overflow
# anywhere in the index, the statistics or the views); the same with variable
# writes (value history) and with extreme --from/--to windows.
set -u
: "${PROFVIEW:?set PROFVIEW to the profview binary}"
dir=$(mktemp -d /tmp/pv-wi-times-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

le32() {
    local v=$1
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((v & 255)) $(((v >> 8) & 255)) \
        $(((v >> 16) & 255)) $(((v >> 24) & 255)))"
}
le64() { le32 $(($1 & 0xFFFFFFFF)); le32 $((($1 >> 32) & 0xFFFFFFFF)); }
# A v1.1 BIN record: handle, word (event code | core << 4), data, time.
record() { le32 "$1"; le32 "$2"; le64 "$3"; le64 "$4"; }
E=0xFF3 X=0xFF0 W=0xFF4
LIMIT=4611686018427387903 # 2^62 - 1

# every_view FILE ARGS...: cats every view, and every detail of every row of
# it, of FILE; each must succeed (a row without such a detail says so, 2).
every_view() {
    local f=$1
    shift
    local info views
    info=$("$PROFVIEW" info --json "$@" "$f" 2>&1) || { bad "info $* $f: exit $?"; echo "$info"; return; }
    views=$(grep -o '{"id":"[^"]*","rows":[0-9]*,"tree":[a-z]*,"details":\[[^]]*\],"outside_details":\[[^]]*\]}' <<<"$info")
    [ -n "$views" ] || { bad "info --json $f: no views"; return; }
    while read -r v; do
        local id details out rc
        id=$(sed 's/^{"id":"\([^"]*\)".*/\1/' <<<"$v")
        details=$(sed 's/.*"details":\[\([^]]*\)\].*/\1/; s/[",]/ /g' <<<"$v")
        out=$("$PROFVIEW" cat "$f" "$@" --view "$id" 2>&1)
        rc=$?
        [ $rc -eq 0 ] || { bad "cat $* --view $id: exit $rc"; echo "$out" | head -5; continue; }
        for d in $details; do
            for row in $(tail -n +2 <<<"$out" | cut -f1); do
                local dout
                dout=$("$PROFVIEW" cat "$f" "$@" --view "$d" --parent "$row" 2>&1)
                rc=$?
                if [ $rc -ne 0 ] && ! { [ $rc -eq 2 ] && [[ "$dout" == *"has no '$d'"* ]]; }; then
                    bad "cat $* --view $d --parent $row: exit $rc"
                    echo "$dout" | head -5
                fi
            done
        done
    done <<<"$views"
}

# 1. The 96-byte BIN: a call from -9e18 to +9e18 around a call of 1 ns.
{
    record 1 $E 0 -9000000000000000000
    record 2 $E 0 0
    record 2 $X 0 1
    record 1 $X 0 9000000000000000000
} >"$dir/extreme.bin"
[ "$(wc -c <"$dir/extreme.bin")" -eq 96 ] || bad "the BIN is not 96 bytes"
out=$("$PROFVIEW" info "$dir/extreme.bin" 2>&1)
rc=$?
[ $rc -eq 0 ] || { bad "info: exit $rc"; echo "$out"; }
[[ "$out" == *"extreme.bin: timeline event 0 (time -9000000000000000000): time beyond +/-2^62 ns; read as -$LIMIT"* ]] ||
    { bad "info: no warning naming event 0"; echo "$out"; }
[[ "$out" == *"extreme.bin: timeline event 3 (time 9000000000000000000): time beyond +/-2^62 ns; read as $LIMIT"* ]] ||
    { bad "info: no warning naming event 3"; echo "$out"; }
[[ "$out" == *"warnings: 2"* ]] || { bad "info: not exactly two warnings"; echo "$out"; }
every_view "$dir/extreme.bin"
# The times as the model reads them, and the call that spans them: 2^63 - 2.
got=$("$PROFVIEW" cat "$dir/extreme.bin" --view timeline --columns index,time,event 2>/dev/null)
want=$(printf 'index\ttime\tevent\n0\t-%s\tE\n1\t0\tE\n2\t1\tX\n3\t%s\tX' $LIMIT $LIMIT)
[ "$got" = "$want" ] || { bad "timeline times"; echo "$got"; }
got=$("$PROFVIEW" cat "$dir/extreme.bin" --view call-trace \
    --columns id,time_with_children,call_time,entry_time,exit_time 2>/dev/null)
want=$(printf 'id\ttime_with_children\tcall_time\tentry_time\texit_time\n1\t9223372036854775806\t9223372036854775806\t-%s\t%s\n2\t1\t1\t0\t1' $LIMIT $LIMIT)
[ "$got" = "$want" ] || { bad "call-trace times"; echo "$got"; }
got=$("$PROFVIEW" cat "$dir/extreme.bin" --view summary --filter 'key == "recorded time"' --columns value 2>/dev/null)
[ "$got" = "$(printf 'value\n9223372036854775806')" ] || { bad "summary: recorded time"; echo "$got"; }

# 2. Windows at the ends of the time axis (the statistics clip to them).
every_view "$dir/extreme.bin" --from -9223372036854775807 --to 9223372036854775807
every_view "$dir/extreme.bin" --from 9000000000000000000
every_view "$dir/extreme.bin" --to -9000000000000000000
every_view "$dir/extreme.bin" --from 0 --to 0

# 3. Two contexts running the same call across the whole axis (core
#    contexts run in parallel: the Neutral totals sum to beyond int64_t and
#    saturate), variable writes at both ends (value history durations), and
#    times that go backwards by 2^63 (a decrease warning, no overflow).
core() { printf '0x%X' $((0x3 | $1 << 4)); }
{
    record 1 "$(core 0)" 0 -9223372036854775808
    record 1 "$(core 1)" 0 -9223372036854775807
    record 0x20000001 $W 5 -9000000000000000000
    record 0x20000001 $W 6 9223372036854775807
    record 1 $((0x0 | 0 << 4)) 0 9223372036854775807
    record 0x20000001 $W 7 -9223372036854775808
    record 1 $((0x0 | 1 << 4)) 0 9223372036854775807
} >"$dir/cores.bin"
out=$("$PROFVIEW" info --bin-version 1.1 "$dir/cores.bin" 2>&1)
rc=$?
[ $rc -eq 0 ] || { bad "cores: info: exit $rc"; echo "$out"; }
[[ "$out" == *"timeline event 5 (time -9223372036854775808): time beyond"* ]] || { bad "cores: warning of event 5"; echo "$out"; }
[[ "$out" == *"time decreases"* ]] || { bad "cores: no decrease warning"; echo "$out"; }
every_view "$dir/cores.bin" --bin-version 1.1
got=$("$PROFVIEW" cat "$dir/cores.bin" --bin-version 1.1 --view statistics \
    --filter 'context == "Neutral"' --columns call 2>/dev/null)
[ "$got" = "$(printf 'call\n9223372036854775807')" ] || { bad "cores: Neutral total does not saturate"; echo "$got"; }
every_view "$dir/cores.bin" --bin-version 1.1 --from -1 --to 1

exit $fail
