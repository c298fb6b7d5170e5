#!/usr/bin/env bash
# The viewer and the command line know no format (docs/model.md): no file in
# src/tui/ or src/cli/ includes a format's header or calls a format's
# internals (pv_wi_*, pv_tl_*, pv_timeline_*, pv_stats_*, aq_*, pv_plist_*);
# what they need of a format goes through the capability hooks
# (include/profview/hooks.h).  The check is first run on a planted
# violation, so that it cannot pass by matching nothing.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
PATTERN='#[[:space:]]*include[[:space:]]*"(formats/|aqtime\.h|plist\.h|winidea\.h|timeline\.h|parse\.h|statistics\.h)|\b(pv_wi_|pv_tl_|pv_timeline_|pv_stats_|aq_|pv_plist_)[A-Za-z0-9_]*'

# violations DIR...: the offending lines, as file:line:text
violations() { grep -rnE --include='*.c' --include='*.h' --include='*.def' "$PATTERN" "$@"; }

tmp=$(mktemp -d /tmp/pv-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/tui" "$tmp/cli"
printf '#include "formats/winidea/winidea.h"\n' > "$tmp/tui/a.c"
printf 'static int x(void) { return pv_wi_file_index_step(0, 1); }\n' > "$tmp/cli/b.c"
printf 'static void y(void) { aq_col(0, "ID"); }\n' > "$tmp/cli/c.h"
printf '/* nothing here: pv_view_related(v, r, PV_REL_CALL, &ref) */\n' > "$tmp/tui/d.c"
found=$(violations "$tmp" | wc -l)
[ "$found" = 3 ] || { echo "FAIL: the check finds $found of the 3 planted violations"; violations "$tmp"; exit 1; }

if out=$(violations "$root/src/tui" "$root/src/cli"); then
    echo "FAIL: the viewer or the command line reaches into a format:"
    printf '%s\n' "$out"
    exit 1
fi
echo "PASS: src/tui and src/cli include no format header and call no format internals"
