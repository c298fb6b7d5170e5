# Sourced by scripts/fuzz.sh and scripts/fuzz-smoke.sh: the seed corpus of
# each fuzz target (tests/fuzz/README.md).  pv_fuzz_seed NAME DIR copies the
# target's seeds into DIR.
pv_fuzz_seed() {
  local name=$1 out=$2 f
  case "$name" in
    text1) for f in sample-data/rtos*.txt sample-data/seed-example.txt; do cp "$f" "$out/"; done ;;
    bin) for f in sample-data/*.BIN; do cp "$f" "$out/"; done ;;
    plist) for f in sample-data/plist-*.txt; do cp "$f" "$out/"; done ;;
    plist_text) for f in sample-data/plist-text-*.txt sample-data/plist-*.report*.txt; do cp "$f" "$out/"; done ;;
    aqtime) for f in sample-data/*.db; do cp "$f" "$out/"; done ;;
    mdb) for f in sample-data/*.mdb; do cp "$f" "$out/"; done ;;
    yaml) for f in themes/*.yaml tests/fuzz/seeds/config*.yaml; do [ -f "$f" ] && cp "$f" "$out/"; done ;;
    query)
      printf 'hits > 1k && (name ~ /^a(b|c)$/ || not x like "*y?")' > "$out/seed"
      printf 'time >= 1.5us and handle = 0x10000001 or pct < 1k\nname:desc,time' > "$out/seed2"
      printf "name = \"a\\\\x41\\\\t\" || !(value != 1A) && id like '*'\nid" > "$out/seed3" ;;
  esac
  return 0
}
