#!/usr/bin/env bash
# Nothing from the input reaches the terminal raw (docs/cli.md "Output"):
# a file name holding an OSC 52 (clipboard), an OSC 0 (window title), a
# CSI, an 8-bit CSI (C1 0x9B, as a byte and as UTF-8) and invalid UTF-8 is
# escaped (\xNN) in `info`'s text and in every error message; `--json`
# stays valid JSON (checked by python3's reader) and gives the name back
# exactly where it was valid UTF-8.
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}/sample-data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

name=$(printf 'a\033]52;c;SGVsbG8=\007b\033]0;pwned\007c\033[2J\302\233d\2331m\377\300e.txt')
cp "$src/rtos.txt" "$tmp/$name"

# no ESC, BEL, C1 (as a byte or as UTF-8) or invalid UTF-8 in what was written
clean() { # label file
  python3 - "$1" "$2" <<'PY' || fail=1
import sys
label, path = sys.argv[1], sys.argv[2]
data = open(path, 'rb').read()
bad = [b for b in (0x1b, 0x07) if bytes([b]) in data]
try:
    text = data.decode('utf-8')
    bad += [hex(ord(c)) for c in text if 0x80 <= ord(c) <= 0x9f]
except UnicodeDecodeError as e:
    bad.append('invalid UTF-8: %s' % e)
if bad:
    print('FAIL: %s: raw control bytes reach the terminal: %s\n%r' % (label, bad, data[:300]))
    sys.exit(1)
PY
}
has() { # label file fixed-string
  grep -qF -- "$3" "$2" || { echo "FAIL: $1: '$3' not in: $(head -c 300 "$2")"; fail=1; }
}
esc='a\x1B]52;c;SGVsbG8=\x07b\x1B]0;pwned\x07c\x1B[2J\xC2\x9Bd\x9B1m\xFF\xC0e.txt'

"$pv" info "$tmp/$name" >"$tmp/info.out" 2>"$tmp/info.err"
clean "info" "$tmp/info.out"
has "info" "$tmp/info.out" "$esc"

set +e
"$pv" info "$tmp/missing-$name" >"$tmp/e1.out" 2>"$tmp/e1.err"; rc1=$?
printf 'not a profile\n' >"$tmp/bad-$name"
"$pv" cat "$tmp/bad-$name" --view timeline >"$tmp/e2.out" 2>"$tmp/e2.err"; rc2=$?
"$pv" export "$tmp/$name" --format sqlite -o "$tmp/$name" >"$tmp/e3.out" 2>"$tmp/e3.err"; rc3=$?
"$pv" cat "$tmp/$name" --view "no-$name" >"$tmp/e4.out" 2>"$tmp/e4.err"; rc4=$?
set -e
[ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -ne 0 ] && [ $rc4 -ne 0 ] ||
  { echo "FAIL: exit codes $rc1 $rc2 $rc3 $rc4"; fail=1; }
for e in e1 e2 e3 e4; do
  clean "error $e" "$tmp/$e.err"
  has "error $e" "$tmp/$e.err" "$esc"
done

"$pv" info --json "$tmp/$name" >"$tmp/info.json"
clean "info --json" "$tmp/info.json"
python3 - "$tmp/info.json" "$tmp/$name" <<'PY' || fail=1
import json, os, sys
doc = json.load(open(sys.argv[1], encoding='utf-8'))
path = doc['files'][0]['path']
want = os.fsencode(sys.argv[2])
# valid UTF-8 comes back as it was; each invalid byte as the character of its value
want = ''.join(chr(ord(c) - 0xdc00) if 0xdc80 <= ord(c) <= 0xdcff else c
               for c in os.fsencode(sys.argv[2]).decode('utf-8', 'surrogateescape'))
if path != want:
    print('FAIL: --json path %r is not %r' % (path, want))
    sys.exit(1)
PY
exit $fail
