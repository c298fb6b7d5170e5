#!/usr/bin/env bash
# Regenerates the PLIST samples and their expect files in sample-data/ with
# the project's own generator (sample-data/gen/pv_gen_plist.c).  The output
# is deterministic: tests/cli/plist_regen.sh checks that it is byte for byte
# what is committed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -Wall -Wextra -o "$tmp/pv_gen_plist" "$here/gen/pv_gen_plist.c"
"$tmp/pv_gen_plist" "$here"
echo "regenerated the PLIST samples in $here"
