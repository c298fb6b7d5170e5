# Sourced by scripts/fuzz.sh and scripts/fuzz-smoke.sh: the seed corpus of
# each fuzz target (tests/fuzz/README.md).  pv_fuzz_seed NAME DIR copies the
# target's seeds into DIR; pv_fuzz_options NAME prints the libFuzzer options
# of the target, one a line.
pv_fuzz_seed() {
  local name=$1 out=$2 f
  case "$name" in
    text1 | text1_full) for f in sample-data/rtos*.txt sample-data/seed-example.txt; do cp "$f" "$out/"; done
      pv_fuzz_small_seeds "$name" "$out" ;;
    bin | bin_full) for f in sample-data/*.BIN; do cp "$f" "$out/"; done
      pv_fuzz_small_seeds "$name" "$out" ;;
    profview_db) # profview's own exports of the samples (the profview schema)
      for f in rtos.txt plist-func-timing.txt; do
        "${dir:-build/fuzz}/profview" export "sample-data/$f" --format sqlite -o "$out/${f%.txt}.db" --force >/dev/null
      done
      "${dir:-build/fuzz}/profview" export sample-data/rtos.txt --format sqlite --view statistics \
        -o "$out/rtos-statistics.db" --force >/dev/null ;;
    cache | cache_text1) # the payload of the real cache entry of sample-data/rtos.txt
      # (fuzz_cache.c: the index's; fuzz_cache_text1.c: what the parse read)
      local c entry=winidea-[0-9a-f]*.pvc
      [ "$name" = cache_text1 ] && entry=winidea-text1-*.pvc
      c=$(mktemp -d)
      XDG_CACHE_HOME=$c PROFVIEW_CACHE=on "${dir:-build/fuzz}/profview" info sample-data/rtos.txt >/dev/null
      python3 - "$c"/profview/$entry "$out/rtos.payload" <<'PY'
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

# The options of each target (tests/fuzz/README.md "Throughput"): the fast
# timeline targets read inputs of up to 16 KB (a few hundred events: the
# parse and the index grow with the input) and schedule without libFuzzer's
# entropic bookkeeping, which cost them 60% of their time (it counts every
# coverage feature of every input, and the model covers many); the others
# read up to 64 KB, fuzz_mdb up to 256 KB (its seeds whole).
pv_fuzz_options() {
  case "$1" in
    text1 | bin) printf '%s\n' -max_len=16384 -entropic=0 ;;
    mdb) printf '%s\n' -max_len=262144 ;;
    *) printf '%s\n' -max_len=65536 ;;
  esac
}

# Small inputs the fast timeline targets read whole (pv_fuzz_options): a
# generated Text1 timeline and a mapping with its BIN (v1.0 and v1.1) as one
# input (fuzz_text1.c: the "*BIN*" line), written by the project's generator.
pv_fuzz_small_seeds() { # NAME DIR
  local gen=${dir:-build/fuzz}/pv_gen_winidea t
  [ -x "$gen" ] || return 0
  t=$(mktemp -d)
  case "$1" in
    text1 | text1_full)
      "$gen" --seed 3 --tasks 3 --events 300 --format text -o "$2/small-text.txt"
      "$gen" --seed 4 --tasks 2 --events 200 --format text-ctx -o "$2/small-ctx.txt"
      for v in 10 11; do
        "$gen" --seed 5 --tasks 3 --events 250 --format "bin$v" -o "$t/m$v.txt"
        { cat "$t/m$v.txt"; printf '\n*BIN*\n'; cat "$t/m$v.txt.BIN"; } > "$2/small-v$v.pair"
      done ;;
    bin | bin_full)
      for v in 10 11; do
        "$gen" --seed 6 --tasks 3 --events 300 --format "bin$v" -o "$t/b$v.txt"
        cp "$t/b$v.txt.BIN" "$2/small-v$v.BIN"
      done ;;
  esac
  rm -rf "$t"
}
