#!/usr/bin/env bash
# The layers (docs/architecture.md "Layers"), checked on the sources:
#
# 1. Every file includes only headers of its own layer and of the layers
#    below it, in this order (each may use everything to its left):
#      core < model < query < export < formats < sql < tui < cli
#    A header's layer is its directory under src/ ("formats/winidea/x.h",
#    "cli/output.h"; a name without a directory is the including file's
#    own), or for include/profview/ the module that implements it.
# 2. No header names a type or function of a layer above its own (the
#    model's headers declare no export type), comments aside.
# 3. The viewer and the command line know no format (docs/model.md): no
#    file in src/tui/ or src/cli/ calls a format's internals (pv_wi_*,
#    pv_tl_*, pv_timeline_*, pv_stats_*, aq_*, pv_plist_*); what they need
#    of a format goes through the capability hooks (include/profview/hooks.h).
#
# Each check is first run on planted violations, so that it cannot pass by
# matching nothing.
set -u
root=${PV_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$root/src/model" ] || { echo "FAIL: no sources under $root"; exit 1; }
LAYERS=(core model query export formats sql tui cli)
# the layer of a public header (include/profview/NAME)
public_layer() {
  case $1 in
  core.h | cache.h | dbinput.h) echo core ;;
  model.h | hooks.h | table.h | flame.h | diff.h | output.h | source.h) echo model ;;
  query.h) echo query ;;
  export.h) echo export ;;
  load.h) echo formats ;;
  sql.h) echo sql ;;
  tui.h) echo tui ;;
  *) echo "?" ;;
  esac
}
rank() { local i; for i in "${!LAYERS[@]}"; do [ "${LAYERS[$i]}" = "$1" ] && { echo "$i"; return; }; done; echo 99; }
# the identifiers that belong to a layer (check 2)
IDENTS=([3]='pv_export_' [4]='pv_loader|pv_load_' [5]='pv_sql_' [6]='pv_tui_|pv_app_' [7]='pv_cli_')

# layer_of_file ROOT PATH: the layer a source file belongs to
layer_of_file() {
  local rel=${2#"$1"/}
  case $rel in
  include/profview/*) public_layer "${rel#include/profview/}" ;;
  src/*) rel=${rel#src/}; echo "${rel%%/*}" ;;
  *) echo "?" ;;
  esac
}

# include_violations ROOT: file:line: LAYER includes HEADER of LAYER2
include_violations() {
  local r=$1 f own ownr line n inc l
  while IFS= read -r f; do
    own=$(layer_of_file "$r" "$f")
    ownr=$(rank "$own")
    while IFS=: read -r n line; do
      inc=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1/' <<< "$line")
      case $inc in
      profview/*) l=$(public_layer "${inc#profview/}") ;;
      */*) l=${inc%%/*} ;;
      *) l=$own ;;
      esac
      if [ "$l" = "?" ]; then
        echo "${f#"$r"/}:$n: $inc has no layer in tests/cli/layers.sh (public_layer)"
      elif [ "$(rank "$l")" -gt "$ownr" ]; then
        echo "${f#"$r"/}:$n: $own includes $inc ($l)"
      fi
    done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f")
  done < <(find "$r/src" "$r/include" -type f \( -name '*.c' -o -name '*.h' -o -name '*.def' \) 2>/dev/null | sort)
}

# ident_violations ROOT: a header that names what belongs to a layer above it
ident_violations() {
  local r=$1 f own ownr k hits
  while IFS= read -r f; do
    own=$(layer_of_file "$r" "$f")
    ownr=$(rank "$own")
    for k in "${!IDENTS[@]}"; do
      [ "$k" -gt "$ownr" ] || continue
      hits=$(perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' "$f" | grep -nE "\b(struct |enum )?(${IDENTS[$k]})[A-Za-z0-9_]*" | head -3)
      [ -z "$hits" ] || printf '%s: %s names %s: %s\n' "${f#"$r"/}" "$own" "${LAYERS[$k]}" "$(head -1 <<< "$hits")"
    done
  done < <(find "$r/src" "$r/include" -type f -name '*.h' 2>/dev/null | sort)
}

PATTERN='\b(pv_wi_|pv_tl_|pv_timeline_|pv_stats_|aq_|pv_plist_)[A-Za-z0-9_]*'
# format_violations DIR...: the viewer or the command line calls a format's internals
format_violations() { grep -rnE --include='*.c' --include='*.h' --include='*.def' "$PATTERN" "$@"; }

tmp=$(mktemp -d /tmp/pv-layers-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0

# ---- planted violations: each check must find exactly these
mkdir -p "$tmp/src/model" "$tmp/src/core" "$tmp/src/tui" "$tmp/src/cli" "$tmp/src/formats/x" \
  "$tmp/src/export" "$tmp/include/profview"
printf '#include "profview/export.h"\n' > "$tmp/src/model/a.c"           # model -> export
printf '#include "profview/model.h"\n' > "$tmp/src/core/b.c"            # core -> model
printf '#include "cli/output.h"\n' > "$tmp/src/tui/c.c"                 # tui -> cli
printf '#include "formats/x/y.h"\n' > "$tmp/src/export/d.c"             # export -> formats
printf '#include "profview/model.h"\n#include "y.h"\n' > "$tmp/src/formats/x/e.c" # fine
printf '#include "profview/tui.h"\n' > "$tmp/src/cli/f.c"               # fine
printf '#include "profview/load.h"\n' > "$tmp/include/profview/sql.h"   # fine: sql above formats
printf 'struct pv_export_request;\n/* pv_export_target: a comment */\n' > "$tmp/include/profview/hooks.h"
printf 'int pv_sql_open(void);\n' > "$tmp/include/profview/query.h"     # query names sql
printf '#include "formats/winidea/winidea.h"\n' > "$tmp/src/tui/g.c"    # tui -> formats: allowed include,
printf 'static int x(void) { return pv_wi_file_index_step(0, 1); }\n' > "$tmp/src/cli/h.c"
printf 'static void y(void) { aq_col(0, "ID"); }\n' > "$tmp/src/cli/i.h"
printf '/* nothing here: pv_view_related(v, r, PV_REL_CALL, &ref) */\n' > "$tmp/src/tui/j.c"
found=$(include_violations "$tmp" | wc -l)
[ "$found" = 4 ] || { echo "FAIL: the include check finds $found of the 4 planted violations:"; include_violations "$tmp"; fail=1; }
found=$(ident_violations "$tmp" | wc -l)
[ "$found" = 2 ] || { echo "FAIL: the name check finds $found of the 2 planted violations:"; ident_violations "$tmp"; fail=1; }
found=$(format_violations "$tmp/src/tui" "$tmp/src/cli" | wc -l)
[ "$found" = 2 ] || { echo "FAIL: the format check finds $found of the 2 planted violations:"; format_violations "$tmp/src/tui" "$tmp/src/cli"; fail=1; }
# (the viewer including a format header: the include check allows it, tui
# being above formats; the format check below forbids it)
FORMAT_HEADERS='#[[:space:]]*include[[:space:]]*"(formats/|aqtime\.h|plist\.h|winidea\.h|timeline\.h|parse\.h|statistics\.h)'
found=$(grep -rlE "$FORMAT_HEADERS" "$tmp/src/tui" "$tmp/src/cli" | wc -l)
[ "$found" = 1 ] || { echo "FAIL: the format-header check finds $found of the 1 planted violation"; fail=1; }
[ $fail = 0 ] || exit 1

# ---- the tree
if out=$(include_violations "$root"); [ -n "$out" ]; then
  echo "FAIL: a layer includes a header of a layer above it:"
  printf '%s\n' "$out"
  fail=1
fi
if out=$(ident_violations "$root"); [ -n "$out" ]; then
  echo "FAIL: a header names what belongs to a layer above it:"
  printf '%s\n' "$out"
  fail=1
fi
if out=$(format_violations "$root/src/tui" "$root/src/cli" ; grep -rnE "$FORMAT_HEADERS" "$root/src/tui" "$root/src/cli"); [ -n "$out" ]; then
  echo "FAIL: the viewer or the command line reaches into a format:"
  printf '%s\n' "$out"
  fail=1
fi
[ $fail = 0 ] && echo "PASS: every layer includes only its own and lower layers (${LAYERS[*]}), headers name nothing of a layer above, src/tui and src/cli know no format"
exit $fail
