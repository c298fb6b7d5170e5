#!/usr/bin/env bash
# Bad winIDEA input through the real binary: every problem names the file
# and the place (line or byte offset); usable files load with warnings
# (exit 0), unusable ones fail with exit status 2 (docs/cli.md).
set -u
: "${PROFVIEW:?set PROFVIEW to the profview binary}"
dir=$(mktemp -d /tmp/pv-wi-bad-XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0

# expect STATUS NEEDLE-IN-OUTPUT -- ARGS...: runs profview, checks the exit
# status and that stdout+stderr contain the needle (a fixed string).
expect() {
    local want=$1 needle=$2
    shift 3
    local out rc
    out=$("$PROFVIEW" "$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: profview $*: exit $rc, expected $want"; echo "$out"; fail=1
    elif [[ "$out" != *"$needle"* ]]; then
        echo "FAIL: profview $*: output lacks '$needle'"; echo "$out"; fail=1
    fi
}

# A BIN record: handle, word, data, time as little-endian bytes.
record() {
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(( $1 & 255 )) $(( ($1 >> 8) & 255 )) \
        $(( ($1 >> 16) & 255 )) $(( ($1 >> 24) & 255 )))"
    printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x' $(( $2 & 255 )) $(( ($2 >> 8) & 255 )) \
        $(( ($2 >> 16) & 255 )) $(( ($2 >> 24) & 255 )))"
    printf '\0\0\0\0\0\0\0\0'
    printf "$(printf '\\x%02x\\x%02x' $(( $3 & 255 )) $(( ($3 >> 8) & 255 )))\0\0\0\0\0\0"
}

# Truncated BIN (less than one record): detected as nothing, or, forced, the
# BIN loader says how short it is.
printf 'ABCDEFGHIJ' > "$dir/short.bin"
expect 2 "short.bin: byte 0:" -- info "$dir/short.bin"
expect 2 "short.bin: byte 0: the file has 10 bytes, less than one 24-byte record" -- \
    info --input-format winidea-bin "$dir/short.bin"

# A BIN whose size is not a multiple of 24: the whole records load, the tail warns.
{ record 0 0xFF3 100; record 0 0xFF0 200; printf 'xyz'; } > "$dir/tail.bin"
expect 0 "tail.bin: byte offset 48: the last 3 bytes" -- info "$dir/tail.bin"
expect 0 "format: winidea-bin" -- info "$dir/tail.bin"

# Records that fit no version: rejected with the offset, unless forced.
{ record 0 0xFF3 100; record 0 0x1003 200; } > "$dir/mixed.bin"
expect 2 "mixed.bin: not a winIDEA BIN timeline: byte offset 24 (record 1)" -- \
    info --input-format winidea-bin "$dir/mixed.bin"
expect 0 "format: winidea-bin" -- info --input-format winidea-bin --bin-version 1.1 "$dir/mixed.bin"

# Bad Text1 lines: skipped with file:line: reason, the rest loads.
cat > "$dir/bad.txt" <<'TXT'
* HANDLE(Functions) %HANDLE%,%NAME%,%VALUE%
00000000,main,
1000000G,{,51
* TIMELINE %HANDLE%,%EVENT%,%VALUE%,%TIME%
00000000,E,,100
00000000,Q,,150
00000000
00000000,X,,200
TXT
expect 0 "bad.txt:3: bad hex handle '1000000G'" -- info "$dir/bad.txt"
expect 0 "bad.txt:6: unknown event" -- info "$dir/bad.txt"
expect 0 "bad.txt:7: missing fields" -- info "$dir/bad.txt"
expect 0 "warnings: 3" -- info "$dir/bad.txt"
expect 0 '"warning_count":3' -- info --json "$dir/bad.txt"

# Not Text1 at all, but forced: the reason names line 1.
printf 'hello\nworld\n' > "$dir/plain.txt"
expect 2 "plain.txt:1: not a winIDEA Text1 file" -- info --input-format winidea-text1 "$dir/plain.txt"

# A Text1 file with its own TIMELINE and a BIN beside it: the text wins.
cp "$dir/bad.txt" "$dir/pair.txt"
{ record 0 0xFF3 100; } > "$dir/pair.txt.BIN"
expect 0 "pair.txt.BIN: not read: the TIMELINE section" -- info "$dir/pair.txt"

# A paired BIN that is broken: a warning, the text still loads.
printf '* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%\n00000000,main,\n' > "$dir/map.txt"
printf 'short' > "$dir/map.bin"
expect 0 "map.bin: byte 0: the file has 5 bytes" -- info "$dir/map.txt"

# A bad --bin-version is a usage error.
expect 1 "--bin-version takes 1.0 or 1.1" -- info --bin-version 2.0 "$dir/tail.bin"

exit $fail
