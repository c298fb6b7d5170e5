#!/usr/bin/env bash
# The repository stands alone: code, tests, scripts and docs cite the pages
# of docs/ (formats.md, cli.md, tui.md, filter.md, quality.md,
# code-style.md), never specification files that a clone does not have, and
# every docs/ page that a comment names exists.
set -euo pipefail
src=${PV_SOURCE_DIR:?}
cd "$src"
fail=0
outside='(PRODUCT|FORMATS|STYLE)\.md'
if hits=$(grep -rnE "$outside" src include tests bench scripts sample-data themes docs README.md CMakeLists.txt \
            | grep -v '^tests/cli/repo_standalone.sh:'); then
  echo "FAIL: citations of files outside the repository:"
  echo "$hits"
  fail=1
fi
# every docs/NAME.md that the code or the docs mention exists
for page in $(grep -rhoE 'docs/[a-z0-9_-]+\.md' src include tests bench scripts docs README.md | sort -u); do
  [ -f "$page" ] || { echo "FAIL: $page is cited but does not exist"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "repo_standalone: ok"
exit "$fail"
