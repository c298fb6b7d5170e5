#!/usr/bin/env bash
# The man page (docs/profview.1) renders with `man -l` without a warning and
# names every command and option that `profview --help` lists; `cmake
# --install` puts the binary, the man page and the themes under a prefix,
# and the installed copy finds its own themes, also after the whole tree
# is moved elsewhere (docs/usage.md, "Installing").
set -euo pipefail
pv=${PROFVIEW:?}
src=${PV_SOURCE_DIR:?}
build=${PV_BUILD_DIR:?}
page=$src/docs/profview.1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# 1. The page renders (man-db and groff come from scripts/setup.sh).
command -v man > /dev/null || { echo "FAIL: man is not installed (scripts/setup.sh installs man-db)"; exit 1; }
MANWIDTH=100 man -l "$page" 2> "$tmp/man.err" | col -b > "$tmp/man.txt"
[ ! -s "$tmp/man.err" ] || bad "man -l: $(head -3 "$tmp/man.err")"
for heading in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS INPUT FILES ENVIRONMENT "EXIT STATUS" EXAMPLES; do
  grep -q "^$heading\$" "$tmp/man.txt" || bad "the rendered page has no $heading section"
done
grep -q 'profview - a terminal viewer' "$tmp/man.txt" || bad "no NAME line"
LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2> "$tmp/groff.err" || bad "groff failed"
[ ! -s "$tmp/groff.err" ] || bad "groff warnings: $(head -3 "$tmp/groff.err")"
echo "ok: man -l renders $(wc -l < "$tmp/man.txt") lines, no warning"

# 2. Every option and command of --help is in the page (roff writes - as \-).
"$pv" --help > "$tmp/help"
options=$(sed -n '/^Options:/,/^$/p' "$tmp/help" | grep -oE '^  --[a-z-]+' | sed 's/^  //')
[ -n "$options" ] || bad "no options in --help"
for o in $options; do
  grep -qF -- "${o//-/\\-}" "$page" || bad "$o (in --help) is not in the man page"
done
for c in $(sed -n '/^Usage:/,/^$/p' "$tmp/help" | grep -oE '^  profview [a-z]+' | awk '{ print $2 }'); do
  grep -qE "^\.B(I)? \"?profview $c" "$page" || bad "command $c (in --help) is not in the man page"
done
echo "ok: the page names the $(echo $options | wc -w) options of --help"

# 3. An installed copy, moved after installation, finds its themes.
command -v cmake > /dev/null || { echo "FAIL: cmake not found"; exit 1; }
cmake --install "$build" --prefix "$tmp/x" > "$tmp/install.log" || { bad "cmake --install failed"; cat "$tmp/install.log"; exit 1; }
for f in bin/profview share/man/man1/profview.1 share/profview/themes/default.yaml \
         share/profview/themes/light.yaml share/profview/themes/monochrome.yaml \
         share/profview/themes/high-contrast.yaml; do
  [ -f "$tmp/x/$f" ] || bad "not installed: $f"
done
cmp -s "$page" "$tmp/x/share/man/man1/profview.1" || bad "the installed man page differs"
mv "$tmp/x" "$tmp/moved"
# The installed light.yaml, renamed inside, tells that this copy was read
# (and not the source tree's, which the binary also knows).
sed -i 's/^name: light$/name: light-installed/' "$tmp/moved/share/profview/themes/light.yaml"
export XDG_CONFIG_HOME=$tmp/config   # no user theme
printf ':theme light<Enter>\n' > "$tmp/keys"
"$tmp/moved/bin/profview" --keys "$tmp/keys" --dump "$tmp/screen" --size 100x20 \
  "$src/sample-data/rtos.txt" || bad "the installed profview failed"
grep -q 'theme light-installed' "$tmp/screen" ||
  { bad "the installed copy did not read its own themes:"; tail -2 "$tmp/screen"; }
: > "$tmp/keys"
"$tmp/moved/bin/profview" --theme nosuch --keys "$tmp/keys" --dump "$tmp/screen" --size 200x20 \
  "$src/sample-data/rtos.txt" || true
grep -q "$tmp/moved/bin/../share/profview/themes" "$tmp/screen" ||
  { bad "a missing theme does not name the installed directory:"; tail -2 "$tmp/screen"; }
echo "ok: cmake --install puts binary, man page and themes; a moved copy finds its themes"
exit $fail
