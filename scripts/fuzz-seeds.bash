# Sourced by scripts/fuzz.sh and scripts/fuzz-smoke.sh: the seed corpus of
# each fuzz target (tests/fuzz/README.md).  pv_fuzz_seed NAME DIR copies the
# target's seeds into DIR.
pv_fuzz_seed() {
  local name=$1 out=$2 f
  case "$name" in
    text1 | text1_full) for f in sample-data/rtos*.txt sample-data/seed-example.txt; do cp "$f" "$out/"; done ;;
    bin | bin_full) for f in sample-data/*.BIN; do cp "$f" "$out/"; done ;;
    profview_db) # profview's own exports of the samples (the profview schema)
      for f in rtos.txt plist-func-timing.txt; do
        "${dir:-build/fuzz}/profview" export "sample-data/$f" --format sqlite -o "$out/${f%.txt}.db" --force >/dev/null
      done
      "${dir:-build/fuzz}/profview" export sample-data/rtos.txt --format sqlite --view statistics \
        -o "$out/rtos-statistics.db" --force >/dev/null ;;
    cache) # the payload of the real cache entry of sample-data/rtos.txt (fuzz_cache.c)
      local c
      c=$(mktemp -d)
      XDG_CACHE_HOME=$c PROFVIEW_CACHE=on "${dir:-build/fuzz}/profview" info sample-data/rtos.txt >/dev/null
      python3 - "$c"/profview/winidea-*.pvc "$out/rtos.payload" <<'PY'
import struct, sys
data = open(sys.argv[1], 'rb').read()
who, state = struct.unpack_from('<QQ', data, 24)
start = 64 + (who + state + 63) // 64 * 64
open(sys.argv[2], 'wb').write(data[start:])
PY
      rm -rf "$c" ;;
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
