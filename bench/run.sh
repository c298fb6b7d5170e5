#!/usr/bin/env bash
# profview benchmark driver (not run by the tests): see bench/README.md.
#   bench/run.sh            build Release, generate data once, measure, print a table
# Environment: BENCH_EVENTS (BIN events, default 50000000), BENCH_TEXT_EVENTS
# (Text1 timeline events, default 15000000), BENCH_RUNS (repetitions, best
# is kept, default 3), BENCH_BUILD (build dir, default build-release).
set -euo pipefail
cd "$(dirname "$0")/.."
events=${BENCH_EVENTS:-50000000}
text_events=${BENCH_TEXT_EVENTS:-15000000}
runs=${BENCH_RUNS:-3}
build=${BENCH_BUILD:-build-release}
data=bench/data
mkdir -p "$data"

echo "== building Release in $build" >&2
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j2 >/dev/null
pv=$build/profview
gen=$build/pv_gen_winidea
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

# Data: generated once and kept (bench/data/ is git-ignored).  The file name
# carries the recipe, so changing it makes new data.
bin_txt=$data/rtos-bin11-$events.txt
text_txt=$data/rtos-text-$text_events.txt
if [ ! -s "$bin_txt.BIN" ]; then
  echo "== generating $events events (BIN v1.1)" >&2
  /usr/bin/time -f "   %e s, %M KB peak RSS" "$gen" --seed 1 --tasks 5 --events "$events" \
    --format bin11 -o "$bin_txt"
fi
if [ ! -s "$text_txt" ]; then
  echo "== generating $text_events events (Text1 timeline)" >&2
  /usr/bin/time -f "   %e s, %M KB peak RSS" "$gen" --seed 2 --tasks 5 --events "$text_events" \
    --format text -o "$text_txt"
fi
bin_size=$(stat -c %s "$bin_txt.BIN")
text_size=$(stat -c %s "$text_txt")
bin_events=$((bin_size / 24))
# warm the page cache: we measure profview, not the disk
cat "$bin_txt.BIN" "$text_txt" > /dev/null

# measure NAME CMD...: runs CMD $runs times; sets best_s, best_kb (peak RSS
# of the fastest run), best_cpu (that run's user + system CPU seconds) and
# all_s (every run's wall time, for min/median); a failing command is
# reported, not hidden.
measure() {
  local name=$1
  shift
  best_s= best_kb= best_cpu= all_s=
  for _ in $(seq "$runs"); do
    if ! /usr/bin/time -f "%e %M %U %S" -o "$data/.time" "$@" > "$data/.out" 2> "$data/.err"; then
      echo "   $name: FAILED: $(grep -v '^Command exited' "$data/.err" | head -2)" >&2
      best_s=failed best_kb=- best_cpu=-
      return
    fi
    read -r s kb user sys < "$data/.time"
    all_s="$all_s $s"
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s best_kb=$kb best_cpu="${user} u + ${sys} s"
    fi
  done
  echo "   $name: wall times:$all_s" >&2
}

verdict() { # value bar: "<" or ">=" comparison
  [ "$1" = failed ] && { echo FAIL; return; }
  awk -v v="$1" -v b="$3" -v op="$2" 'BEGIN { ok = op == "<" ? v < b : v >= b; print ok ? "ok" : "MISS" }'
}

rows=()
row() { rows+=("$(printf '%-56s %14s %16s %6s' "$1" "$2" "$3" "$4")"); }
secs() { [ "$1" = failed ] && echo failed || echo "$1 s"; }
mb() { [ "$1" = - ] && echo - || echo "$(($1 / 1024)) MB"; }

measure "first screen" "$pv" cat "$bin_txt" --view timeline --limit 40
row "BIN first screen (cat --view timeline --limit 40)" "$(secs "$best_s")" "< 0.2 s" \
  "$(verdict "$best_s" "<" 0.2)"
row "BIN first screen peak RSS" "$(mb "$best_kb")" "" ""
# The viewer's first screen: scripted keys (none) and a dump of the first
# frame; PROFVIEW_TEST_INDEX_SLICE keeps the scripted mode from indexing
# before it (docs/tui.md "Testing options").
: > "$data/.keys"
measure "tui first screen" env PROFVIEW_TEST_INDEX_SLICE=1 "$pv" "$bin_txt" --keys "$data/.keys" \
  --size 120x40 --dump "$data/.screen"
row "TUI first screen (profview BIN.txt, first frame)" "$(secs "$best_s")" "< 0.2 s" \
  "$(verdict "$best_s" "<" 0.2)"
# Key latency while indexing and after (bench/bench_tui_file.c): the worst
# key + frame after the index is complete.
if [ -x "$build/bench_tui_file" ]; then
  "$build/bench_tui_file" "$bin_txt" > "$data/.tui" 2>&1 || true
  worst=$(sed -n 's/^worst key after indexing: \([0-9.]*\) ms/\1/p' "$data/.tui")
  finish=$(sed -n 's/^longest indexing slice: \([0-9.]*\) ms/\1/p' "$data/.tui")
  [ -n "$worst" ] || worst=failed
  [ -n "$finish" ] || finish=failed
  row "TUI worst key + frame, indexed (j G g PgDn :goto J K %)" "$worst ms" "< 16 ms" \
    "$(verdict "$worst" "<" 16)"
  row "TUI longest indexing slice (a key waits for it)" "$finish ms" "< 16 ms" \
    "$(verdict "$finish" "<" 16)"
  # the flame graph: F merges every call; the other keys redraw it
  fbuild=$(sed -n 's/^  F (build) *avg *\([0-9.]*\) ms.*/\1/p' "$data/.tui")
  fworst=$(sed -n 's/^worst flame key: \([0-9.]*\) ms/\1/p' "$data/.tui")
  [ -n "$fbuild" ] || fbuild=failed
  [ -n "$fworst" ] || fworst=failed
  row "TUI flame graph of the whole call tree (F, after the index)" "$fbuild ms" "< 1000 ms" \
    "$(verdict "$fbuild" "<" 1000)"
  row "TUI worst key + frame in the flame graph (k l h Enter I W)" "$fworst ms" "" ""
fi
# Flame merge CPU time and the diff of two 1 M-row views (bench/bench_flame.c)
if [ -x "$build/bench_flame" ]; then
  "$build/bench_flame" "$bin_txt" > "$data/.flame" 2>&1 || true
  fcpu=$(sed -n 's/^flame build .* \([0-9.]*\) s cpu.*/\1/p' "$data/.flame")
  dcpu=$(sed -n 's/^diff of 2 x .* \([0-9.]*\) s cpu.*/\1/p' "$data/.flame")
  [ -n "$fcpu" ] || fcpu=failed
  [ -n "$dcpu" ] || dcpu=failed
  row "flame merge of the call tree (bench_flame, CPU)" "$fcpu s" "< 1 s" "$(verdict "$fcpu" "<" 1)"
  row "diff of two 1 M-row views (bench_flame, CPU)" "$dcpu s" "< 0.5 s" "$(verdict "$dcpu" "<" 0.5)"
fi
measure "full index" "$pv" info "$bin_txt"
row "BIN full index (info, $bin_events events)" "$(secs "$best_s")" "< 2 s" \
  "$(verdict "$best_s" "<" 2)"
row "BIN full index CPU of that run (user + system)" "$best_cpu" "" ""
# the process's own footprint (binary, libraries) is not index: measure it
base_kb=$(/usr/bin/time -f "%M" "$pv" --version 2>&1 >/dev/null | tail -1)
limit_kb=$(((bin_size + 16 * bin_events) / 1024 + base_kb))
if [ "$best_kb" = - ]; then ok=FAIL; elif [ "$best_kb" -le "$limit_kb" ]; then ok=ok; else ok=MISS; fi
row "BIN full index peak RSS (file + 16 B/event + $(mb "$base_kb"))" "$(mb "$best_kb")" "<= $(mb "$limit_kb")" "$ok"
measure "text" "$pv" info "$text_txt"
rate=failed
[ "$best_s" != failed ] &&
  rate=$(awk -v s="$text_size" -v t="$best_s" 'BEGIN { printf "%.0f", (t > 0 ? s / 1e6 / t : 0) }')
row "Text1 load (info, $((text_size / 1000000)) MB, $text_events events)" "$(secs "$best_s")" "" ""
row "Text1 throughput (parse + index)" "$rate MB/s" ">= 400 MB/s" "$(verdict "$rate" ">=" 400)"
row "Text1 load peak RSS" "$(mb "$best_kb")" "" ""
# the parser alone, on a TIMELINE in memory (bench/bench_text1.c, when built)
if [ -x "$build/bench_text1" ]; then
  parser=$("$build/bench_text1" 256 2>&1 | sed -n 's/.*: \([0-9.]*\) MB\/s.*/\1/p' | tail -1)
  [ -n "$parser" ] || parser=failed
  row "Text1 parser alone (bench_text1 256)" "$parser MB/s" ">= 400 MB/s" \
    "$(verdict "$parser" ">=" 400)"
fi

printf '%-56s %14s %16s %6s\n' "measure (best of $runs)" "result" "bar (PRODUCT §7)" ""
printf '%s\n' "${rows[@]}"
rm -f "$data/.time" "$data/.out" "$data/.err" "$data/.keys" "$data/.screen" "$data/.tui"
