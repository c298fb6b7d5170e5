#!/usr/bin/env bash
# The PLIST generator is deterministic: regenerating into a temporary
# directory gives, byte for byte, the samples and expect files committed in
# sample-data/.
set -euo pipefail
: "${PV_SOURCE_DIR:?}" "${PV_BUILD_DIR:?}"
gen=$PV_BUILD_DIR/pv_gen_plist
[ -x "$gen" ] || { echo "FAIL: $gen not built"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" "$tmp"
fail=0
count=0
for f in "$tmp"/*.txt "$tmp"/expect/*.tsv; do
  rel=${f#"$tmp"/}
  count=$((count + 1))
  if ! cmp -s "$f" "$PV_SOURCE_DIR/sample-data/$rel"; then
    echo "FAIL: sample-data/$rel differs from a fresh run of pv_gen_plist"; fail=1
  fi
done
[ "$count" -ge 14 ] || { echo "FAIL: only $count files generated"; fail=1; }
[ $fail = 0 ] && echo "ok: $count files identical"
exit $fail
