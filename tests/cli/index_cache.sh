#!/usr/bin/env bash
# The index cache (docs/cache.md), with its own XDG_CACHE_HOME: a first run
# writes one cache file; a second run reads it (PROFVIEW_CACHE_DEBUG says
# so) and prints byte for byte what a --no-cache run prints (info, and cat
# of timeline, call-trace, statistics), warnings of the index included; `cat`
# of every event of the timeline writes it too, one of a part does not; a
# changed input, a truncated cache, a flipped byte and a cache of another
# index version are ignored and rebuilt; the size bound drops the least
# recently used file; --no-cache, `cache: enabled: false`, PROFVIEW_CACHE=off
# and CI=true without XDG_CACHE_HOME write nothing.
set -euo pipefail
pv=${PROFVIEW:?}
gen=${PV_BUILD_DIR:?}/pv_gen_winidea
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() { # check DESCRIPTION COMMAND...: fail when the command fails
    local what=$1
    shift
    if ! "$@"; then
        echo "FAIL: $what"
        fail=1
    fi
}

export PROFVIEW_CACHE=on            # the suite turns the cache off; this test turns it on
export XDG_CACHE_HOME=$tmp/cache
export XDG_CONFIG_HOME=$tmp/config  # no user config
export PROFVIEW_CACHE_DEBUG=1
cdir=$tmp/cache/profview

"$gen" --seed 5 --tasks 4 --events 30000 --format bin11 -o "$tmp/a.txt"
bin=$tmp/a.txt.BIN

# run NAME ARGS...: stdout to $tmp/NAME.out, stderr to $tmp/NAME.err
run() {
    local name=$1
    shift
    "$pv" "$@" > "$tmp/$name.out" 2> "$tmp/$name.err"
}
has() { grep -q -- "$2" "$tmp/$1.err"; }
hasnt() { ! grep -q -- "$2" "$tmp/$1.err"; }
same() { cmp -s "$tmp/$1.out" "$tmp/$2.out"; }
differ() { ! cmp -s "$tmp/$1.out" "$tmp/$2.out"; }
count_files() { find "$cdir" -name '*.pvc' 2>/dev/null | wc -l; }
# the index's entries only (a Text1 file also has an entry of what its parse read)
count_index() { find "$cdir" -name 'winidea-[0-9a-f]*.pvc' 2>/dev/null | wc -l; }

# -- miss, then hit, with the output of a run without the cache
run ref info --no-cache "$bin"
check "--no-cache neither reads nor writes" hasnt ref "cache:"
check "--no-cache creates no cache file" test "$(count_files)" -eq 0
run first info "$bin"
check "first run: a miss" has first "cache: miss"
check "first run: writes the cache" has first "cache: wrote"
check "first run: one cache file" test "$(count_files)" -eq 1
check "first run: output as without the cache" same first ref
run second info "$bin"
check "second run: a hit" has second "cache: hit"
check "second run: writes nothing" hasnt second "cache: wrote"
check "second run: info identical" same second ref
for view in timeline call-trace statistics summary routines; do
    run "nc-$view" cat --no-cache "$bin" --view "$view"
    run "hit-$view" cat "$bin" --view "$view"
    check "cat $view: a hit" has "hit-$view" "cache: hit"
    check "cat $view: identical to --no-cache" same "hit-$view" "nc-$view"
done
# a detail view reads the calls and the events of the index
run nc-detail cat --no-cache "$bin" --view call-events --parent 3
run hit-detail cat "$bin" --view call-events --parent 3
check "detail view: identical" same hit-detail nc-detail
check "the timeline printed something" test -s "$tmp/hit-timeline.out"
# another window is another entry: its own miss, then its own hit
run win1 cat "$bin" --view statistics --from 1ms --to 2ms
run win2 cat "$bin" --view statistics --from 1ms --to 2ms
run win0 cat --no-cache "$bin" --view statistics --from 1ms --to 2ms
check "a window: a miss first" has win1 "cache: miss"
check "a window: then a hit" has win2 "cache: hit"
check "a window: identical" same win2 win0
check "a window: its own file" test "$(count_files)" -eq 2

# -- the warnings of the index come back from the cache
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,main,\n00000001,f,\n' > "$tmp/w.txt"
printf '* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%\n' >> "$tmp/w.txt"
printf '00000000,E,,100\n00000001,X,,150\n00000000,X,,140\n00000001,E,,160\n' >> "$tmp/w.txt"
run wref info --no-cache "$tmp/w.txt"
run w1 info "$tmp/w.txt"
run w2 info "$tmp/w.txt"
check "warnings: a hit" has w2 "cache: hit"
check "warnings: the reference has the index's warnings" grep -q "warnings: 3" "$tmp/wref.out"
check "warnings: identical from the cache" same w2 wref
# a Text1 file opened again is not parsed (docs/cache.md "Text1 files"): the
# read-and-index worker says what it did on a parse (--test text1-debug=1),
# nothing on a hit
"$gen" --seed 4 --tasks 3 --events 100000 --format text -o "$tmp/t.txt"
run tref info --no-cache "$tmp/t.txt"
run t1 info --test text1-debug=1 "$tmp/t.txt"
run t2 info --test text1-debug=1 "$tmp/t.txt"
check "Text1: the first open parses (and indexes beside)" has t1 "Text1 index taken"
check "Text1: the second open reads what the parse read" has t2 "cache: hit .*/winidea-text1-"
check "Text1: the second open parses nothing" hasnt t2 "Text1 index"
check "Text1: the second open, identical" same t2 tref
run wjson info --no-cache --json "$tmp/w.txt"
run wjson2 info --json "$tmp/w.txt"
check "warnings: JSON identical from the cache" same wjson2 wjson

entry=$(grep -o "wrote [^ ]*" "$tmp/first.err" | cut -d' ' -f2)
check "the entry exists" test -f "$entry"

# -- a changed input (same size, one byte of the last record's time) is a miss
run old-timeline cat "$bin" --view timeline
size=$(stat -c %s "$bin")
printf '\001' | dd of="$bin" bs=1 seek=$((size - 3)) conv=notrunc status=none
run changed cat "$bin" --view timeline
run changed-ref cat --no-cache "$bin" --view timeline
check "changed input: ignored" has changed "the input changed"
# `cat` of the whole timeline went through every event: it finished the
# index and cached it (a cat that stops early does not: below)
check "changed input: rebuilt by the whole timeline's cat" has changed "cache: wrote"
run changed-info info "$bin"
check "changed input: then a hit" has changed-info "cache: hit"
check "changed input: the new events" same changed changed-ref
check "changed input: not the old events" differ changed old-timeline
# only touched: a miss too
touch -d '2001-02-03 04:05:06' "$bin"
run touched info "$bin"
check "touched input: ignored" has touched "the input changed"
run touched2 info "$bin"
check "touched input: then a hit" has touched2 "cache: hit"
run ref info --no-cache "$bin"
run nc-timeline cat --no-cache "$bin" --view timeline

# -- a truncated cache file (the timeline printed from the index read again,
# then a full index by info rebuilds the entry)
truncate -s -64 "$entry"
run trunc cat "$bin" --view timeline
check "truncated: ignored" has trunc "ignored .*truncated"
check "truncated: rebuilt by the cat" has trunc "cache: wrote"
run trunc-info info "$bin"
check "truncated: then a hit" has trunc-info "cache: hit"
check "truncated: info identical" same trunc-info ref
check "truncated: identical" same trunc nc-timeline
truncate -s 100 "$entry"
run trunc2 info "$bin"
check "cut short: ignored" has trunc2 "ignored"
check "cut short: identical" same trunc2 ref

# -- one flipped byte, in the middle and at the end of the events
for at in $(( $(stat -c %s "$entry") / 2 )) $(( $(stat -c %s "$entry") - 70 )); do
    byte=$(od -An -tu1 -j "$at" -N1 "$entry" | tr -d ' ')
    printf "$(printf '\\%03o' $(( byte ^ 16 )))" | dd of="$entry" bs=1 seek="$at" conv=notrunc status=none
    run "flip$at" cat "$bin" --view timeline
    check "flipped byte at $at: ignored" has "flip$at" "checksum mismatch"
    check "flipped byte at $at: rebuilt by the cat" has "flip$at" "cache: wrote"
    run "flipinfo$at" info "$bin"
    check "flipped byte at $at: then a hit" has "flipinfo$at" "cache: hit"
    check "flipped byte at $at: identical" same "flip$at" nc-timeline
done

# -- a cache of another index version (the u32 at byte 8)
printf '\347\003\000\000' | dd of="$entry" bs=1 seek=8 conv=notrunc status=none
run version info "$bin"
check "another version: ignored" has version "another index version"
check "another version: rebuilt" has version "cache: wrote"
check "another version: identical" same version ref
run version2 info "$bin"
check "another version: then a hit" has version2 "cache: hit"
# not a cache file at all
printf 'garbage' > "$entry"
run garbage info "$bin"
check "garbage: ignored" has garbage "ignored"
check "garbage: identical" same garbage ref

# -- a cat that stops before the last event writes nothing; one that reads
# them all writes the entry that info then reads, identical to --no-cache
# (a timeline larger than the 65 536 events a reader indexes at a time)
rm -rf "$cdir"
"$gen" --seed 6 --tasks 3 --events 200000 --format bin11 -o "$tmp/big.txt"
run big-ref info --no-cache "$tmp/big.txt"
run big-calls-ref cat --no-cache "$tmp/big.txt" --view call-trace
run part cat "$tmp/big.txt" --view timeline --limit 100
check "a cat of 100 events: a miss" has part "cache: miss"
check "a cat of 100 events: writes no index" hasnt part "cache: wrote .*/winidea-[0-9a-f]"
check "a cat of 100 events: no index file" test "$(count_index)" -eq 0
run whole cat "$tmp/big.txt" --view timeline --columns time,event,depth
check "a cat of every event: writes the cache" has whole "cache: wrote"
run whole-info info "$tmp/big.txt"
check "after the whole cat: a hit" has whole-info "cache: hit"
check "after the whole cat: info identical" same whole-info big-ref
run whole-calls cat "$tmp/big.txt" --view call-trace
check "after the whole cat: the calls identical" same whole-calls big-calls-ref

# -- the viewer (scripted keys) writes the entry once its index is complete
# (on a thread of its own), warnings included
rm -rf "$cdir"
printf 'q\n' > "$tmp/keys"
"$pv" --keys "$tmp/keys" --dump "$tmp/screen" "$tmp/w.txt" 2> "$tmp/viewer.err"
check "viewer: writes the index" has viewer "cache: wrote .*/winidea-[0-9a-f]"
run wv info "$tmp/w.txt"
check "viewer's entry: a hit" has wv "cache: hit"
check "viewer's entry: warnings identical" same wv wref
"$pv" --keys "$tmp/keys" --dump "$tmp/screen2" "$tmp/w.txt" 2> "$tmp/viewer2.err"
check "viewer: reads the index" has viewer2 "cache: hit .*/winidea-[0-9a-f]"
check "viewer: reads what the parse read" has viewer2 "cache: hit .*/winidea-text1-"
check "viewer: the same screen" cmp -s "$tmp/screen" "$tmp/screen2"

# -- the size bound: the least recently used entries are dropped first
rm -rf "$cdir"
for s in 1 2 3; do
    "$gen" --seed "$s" --tasks 2 --events 20000 --format bin11 -o "$tmp/b$s.txt"
done
run b1 info "$tmp/b1.txt.BIN"
one=$(find "$cdir" -name '*.pvc' -printf '%s\n')
mkdir -p "$tmp/config/profview"
printf 'cache:\n  enabled: true\n  max_size: %s\n' $(( one * 5 / 2 )) > "$tmp/config/profview/config.yaml"
touch -d '2001-01-01' "$cdir"/*.pvc          # b1's entry: the oldest
run b2 info "$tmp/b2.txt.BIN"
check "bound: two entries fit" test "$(count_files)" -eq 2
run b1again info "$tmp/b1.txt.BIN"           # used now: b2's entry is the oldest
check "bound: b1 read again" has b1again "cache: hit"
touch -d '2001-01-01' "$(grep -o 'wrote [^ ]*' "$tmp/b2.err" | cut -d' ' -f2)"
run b3 info "$tmp/b3.txt.BIN"
check "bound: one dropped" has b3 "dropped"
check "bound: two entries left" test "$(count_files)" -eq 2
run b1last info "$tmp/b1.txt.BIN"
check "bound: the recently used entry stays" has b1last "cache: hit"
run b2last info "$tmp/b2.txt.BIN"
check "bound: the oldest entry was dropped" has b2last "cache: miss"
# an entry larger than the bound is not written
printf 'cache:\n  max_size: 1K\n' > "$tmp/config/profview/config.yaml"
rm -rf "$cdir"
run big info "$tmp/b1.txt.BIN"
check "bound: an entry over it is not written" test "$(count_files)" -eq 0

# -- turned off: the config, the environment, CI
printf 'cache:\n  enabled: false\n' > "$tmp/config/profview/config.yaml"
run cfgoff info "$tmp/b1.txt.BIN"
check "config enabled: false: nothing read or written" hasnt cfgoff "cache:"
check "config enabled: false: no file" test "$(count_files)" -eq 0
rm "$tmp/config/profview/config.yaml"
PROFVIEW_CACHE=off run envoff info "$tmp/b1.txt.BIN"
check "PROFVIEW_CACHE=off: no file" test "$(count_files)" -eq 0
mkdir "$tmp/home"
HOME=$tmp/home CI=true XDG_CACHE_HOME= run ci info "$tmp/b1.txt.BIN"
check "CI=true without XDG_CACHE_HOME: no cache in HOME" test ! -e "$tmp/home/.cache"
check "CI=true: output as usual" grep -q "format: winidea-bin" "$tmp/ci.out"
# a bad cache setting names the file, line and column (the viewer shows it)
printf 'cache:\n  max_size: lots\n' > "$tmp/config/profview/config.yaml"
run badcfg info "$tmp/b1.txt.BIN"
check "a bad cache setting: the command still runs" grep -q "format: winidea-bin" "$tmp/badcfg.out"

exit $fail
