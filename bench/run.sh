#!/usr/bin/env bash
# profview benchmark driver: see bench/README.md.
#   bench/run.sh            build Release, generate data once, measure, print a table
#   bench/run.sh --quick    small data, one run, the build in BENCH_BUILD as it is
#                           (tests/cli/bench_quick.sh: proves the script works;
#                           its timings mean nothing and are never asserted)
# Environment: BENCH_EVENTS (BIN events, default 50000000), BENCH_TEXT_EVENTS
# (Text1 timeline events, default 15000000), BENCH_AQ_CALLS (AQTime Function
# Trace calls, default 10000000), BENCH_AQ_OBJECTS (objects of the AQTime
# Resource and Reference Count databases, default 1000000), BENCH_SHAPE_EVENTS
# (events of each of the three BIN timelines of other seeds and task counts,
# default 20000000), BENCH_RUNS (repetitions, default 5; the
# table shows min / median), BENCH_BUILD (build dir, default build-release),
# BENCH_DATA (data dir, default bench/data).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
quick=false
[ "${1:-}" = --quick ] && quick=true
if $quick; then
  events=${BENCH_EVENTS:-200000} text_events=${BENCH_TEXT_EVENTS:-100000}
  shape_events=${BENCH_SHAPE_EVENTS:-100000}
  aq_calls=${BENCH_AQ_CALLS:-20000} aq_sets=${BENCH_AQ_SETS:-500} runs=${BENCH_RUNS:-1}
  aq_objects=${BENCH_AQ_OBJECTS:-2000} aq_mdb_calls=${BENCH_AQ_MDB_CALLS:-20000}
else
  events=${BENCH_EVENTS:-50000000} text_events=${BENCH_TEXT_EVENTS:-15000000}
  shape_events=${BENCH_SHAPE_EVENTS:-20000000}
  aq_calls=${BENCH_AQ_CALLS:-10000000} aq_sets=${BENCH_AQ_SETS:-16000} runs=${BENCH_RUNS:-5}
  aq_objects=${BENCH_AQ_OBJECTS:-1000000} aq_mdb_calls=${BENCH_AQ_MDB_CALLS:-1000000}
fi
build=${BENCH_BUILD:-$src/build-release}
data=${BENCH_DATA:-$src/bench/data}
mkdir -p "$data"

if ! $quick; then
  echo "== building Release in $build" >&2
  cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" -j2 >/dev/null
fi
pv=$build/profview
gen=$build/pv_gen_winidea
gen_aq=$build/pv_gen_aqtime
[ -x "$pv" ] || { echo "bench: no $pv (build first, or set BENCH_BUILD)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 1; }

# Which machine, and how busy it is (the figures depend on both).
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
mem_mb=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 }' /proc/meminfo 2>/dev/null || echo "?")
machine="$(uname -srm), ${cpu:-unknown CPU}, $(nproc) cores, ${mem_mb} MB"
load_start=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")

# Data: generated once and kept (bench/data/ is git-ignored).  The file name
# carries the recipe, so changing it makes new data.
bin_txt=$data/rtos-bin11-$events.txt
text_txt=$data/rtos-text-$text_events.txt
aq_trace=$data/aqtime-trace-$aq_calls.db
aq_many=$data/aqtime-sets-$aq_sets.db
aq_resource=$data/aqtime-resource-$aq_objects.db
aq_refcount=$data/aqtime-refcount-$aq_objects.db
aq_mdb_db=$data/aqtime-trace-$aq_mdb_calls.db
aq_mdb=$data/aqtime-trace-$aq_mdb_calls.mdb
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
if [ ! -s "$aq_trace" ]; then
  echo "== generating an AQTime Function Trace of $aq_calls calls" >&2
  /usr/bin/time -f "   %e s, %M KB peak RSS" "$gen_aq" --scale trace "$aq_calls" "$aq_trace"
fi
if [ ! -s "$aq_mdb" ]; then
  echo "== generating an AQTime Function Trace of $aq_mdb_calls calls, SQLite and Access" >&2
  [ -s "$aq_mdb_db" ] || "$gen_aq" --scale trace "$aq_mdb_calls" "$aq_mdb_db"
  /usr/bin/time -f "   %e s, %M KB peak RSS" "$build/pv_gen_mdb" "$aq_mdb_db" "$aq_mdb"
fi
if [ ! -s "$aq_many" ]; then
  echo "== generating an AQTime database of $aq_sets result sets" >&2
  "$gen_aq" --scale sets "$aq_sets" "$aq_many"
fi
for kind in resource refcount; do
  out=$data/aqtime-$kind-$aq_objects.db
  if [ ! -s "$out" ]; then
    echo "== generating an AQTime $kind database of $aq_objects objects" >&2
    /usr/bin/time -f "   %e s, %M KB peak RSS" "$gen_aq" --scale "$kind" "$aq_objects" "$out"
  fi
done
# The events of the Text1 file as CSV, for the sqlite3 shell's .import.
text_csv=$text_txt.events.csv
if [ ! -s "$text_csv" ]; then
  { echo "handle,event,value,time"
    sed -n '/^\* TIMELINE/,$p' "$text_txt" | sed -n '2,$p' | grep -v '^\*' || true; } >"$text_csv"
fi
bin_size=$(stat -c %s "$bin_txt.BIN")
text_size=$(stat -c %s "$text_txt")
bin_events=$((bin_size / 24))
# warm the page cache: we measure profview, not the disk
cat "$bin_txt.BIN" "$text_txt" "$text_csv" "$aq_trace" "$aq_resource" "$aq_refcount" > /dev/null

# The timed commands run in a session of their own whose autogroup is at
# nice -19, when allowed (root): with sched_autogroup_enabled=1 nice ranks
# tasks only inside one session, and the work of other sessions would take
# its share of the cores whatever the nice (bench/README.md "Measuring on
# this machine: nice is not enough").  BENCH_PRIO=0: run as started.
prio=() prio_note="as started"
if [ "${BENCH_PRIO:-1}" != 0 ] && [ "$(id -u)" = 0 ] && command -v setsid > /dev/null &&
  setsid --wait true 2> /dev/null; then
  # (the braces: a redirection that fails reports on the stderr of before it)
  prio=(setsid --wait sh -c '{ echo -19 > /proc/self/autogroup; } 2> /dev/null; exec nice -n -19 "$@"' prio)
  prio_note="own session, autogroup and nice at -19"
fi

# run_once CMD...: runs CMD once under the priority prefix; sets s (wall
# seconds, to the millisecond: /usr/bin/time's %e has only two decimals,
# too coarse for the floor of a small file), kb (peak RSS), cpu (user +
# system seconds); returns 1 (and says so) when the command fails.
run_once() {
  local t0=$EPOCHREALTIME t1 user sys wall
  if ! "${prio[@]}" /usr/bin/time -f "%e %M %U %S" -o "$data/.time" "$@" > "$data/.out" \
    2> "$data/.err"; then
    echo "   $*: FAILED: $(grep -v '^Command exited' "$data/.err" | sed -n 1,2p)" >&2
    return 1
  fi
  t1=$EPOCHREALTIME
  read -r wall kb user sys < "$data/.time"
  s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  cpu=$(awk -v u="$user" -v y="$sys" 'BEGIN { printf "%.2f", u + y }')
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# measure NAME CMD...: runs CMD $runs times; sets best_s (the fastest wall
# time), med_s (the median), best_kb (peak RSS of the fastest run), best_cpu
# (that run's user + system CPU seconds) and all_s (every run's wall time);
# a failing command is reported, not hidden.
measure() {
  local name=$1
  shift
  best_s= best_kb= best_cpu= all_s= med_s=
  for _ in $(seq "$runs"); do
    if ! run_once "$@"; then
      best_s=failed best_kb=- best_cpu=- med_s=failed
      return
    fi
    all_s="$all_s $s"
    if [ -z "$best_s" ] || awk -v a="$s" -v b="$best_s" 'BEGIN { exit !(a < b) }'; then
      best_s=$s best_kb=$kb best_cpu="$cpu s"
    fi
  done
  med_s=$(median $all_s)
  echo "   $name: wall times:$all_s" >&2
}

# measure_alt: the commands in the arrays alt_a and alt_b run alternately,
# A B A B ..., $runs times each (bench/README.md "The floor": a figure and
# its reference measured in the same minutes, so that what else the machine
# does weighs on both).  Sets a_s / b_s (median wall), a_cpu / b_cpu (median
# CPU), a_kb (peak RSS of A's fastest run), a_all / b_all (every wall time),
# or "failed".
measure_alt() {
  local name=$1 best= wa= wb= ca= cb=
  a_kb=- a_s=failed b_s=failed a_cpu=failed b_cpu=failed
  for _ in $(seq "$runs"); do
    run_once "${alt_a[@]}" || return 0
    wa="$wa $s" ca="$ca $cpu"
    if [ -z "$best" ] || awk -v a="$s" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best=$s a_kb=$kb
    fi
    run_once "${alt_b[@]}" || return 0
    wb="$wb $s" cb="$cb $cpu"
  done
  a_s=$(median $wa) b_s=$(median $wb) a_cpu=$(median $ca) b_cpu=$(median $cb)
  a_all=$wa b_all=$wb
  echo "   $name: A wall times:$wa; B wall times:$wb" >&2
}

# times_x R: "Rx", or R as it is when it is not a number
times_x() { case $1 in failed | -) echo "$1" ;; *) echo "${1}x" ;; esac; }

# ratio_of A B: A / B to two decimals; "failed" when either failed, "-"
# when B is too small to divide by (a tiny --quick file)
ratio_of() {
  [ "$1" = failed ] || [ "$2" = failed ] && { echo failed; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'
}

verdict() { # value bar: "<" or ">=" comparison
  [ "$1" = failed ] && { echo FAIL; return; }
  [ "$1" = - ] && { echo -; return; }
  awk -v v="$1" -v b="$3" -v op="$2" 'BEGIN { ok = op == "<" ? v < b : v >= b; print ok ? "ok" : "MISS" }'
}

rows=()
row() { rows+=("$(printf '%-64s %16s %14s %6s' "$1" "$2" "$3" "$4")"); }
secs() { [ "$1" = failed ] && echo failed || echo "$1 s"; }
# min / median of the last measure
mm() { [ "$best_s" = failed ] && echo failed || echo "$best_s / $med_s s"; }
# ratio A B: A / B as "N.Nx" (how many times longer A took)
ratio() {
  [ "$1" = failed ] || [ "$2" = failed ] && { echo -; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'
}
mb() { [ "$1" = - ] && echo - || echo "$(($1 / 1024)) MB"; }

measure "first screen" "$pv" cat "$bin_txt" --view timeline --limit 40
row "BIN first screen (cat --view timeline --limit 40)" "$(mm)" "< 0.1 s" \
  "$(verdict "$med_s" "<" 0.1)"
row "BIN first screen peak RSS" "$(mb "$best_kb")" "" ""
# The viewer's first screen: scripted keys (none) and a dump of the first
# frame; the test option index-slice=1 keeps the scripted mode from indexing
# before it (docs/tui.md "Testing options").
: > "$data/.keys"
measure "tui first screen" "$pv" --test index-slice=1 "$bin_txt" --keys "$data/.keys" \
  --size 120x40 --dump "$data/.screen"
row "TUI first screen (profview BIN.txt, first frame)" "$(mm)" "< 0.1 s" \
  "$(verdict "$med_s" "<" 0.1)"
# Key latency while indexing and after (bench/bench_tui_file.c): the worst
# key + frame after the index is complete.
if [ -x "$build/bench_tui_file" ]; then
  "$build/bench_tui_file" "$bin_txt" > "$data/.tui" 2>&1 || true
  worst=$(sed -n 's/^worst key after indexing: \([0-9.]*\) ms/\1/p' "$data/.tui")
  finish=$(sed -n 's/^longest indexing slice: \([0-9.]*\) ms/\1/p' "$data/.tui")
  [ -n "$worst" ] || worst=failed
  [ -n "$finish" ] || finish=failed
  row "TUI worst key + frame, indexed (j G g PgDn :goto J K %)" "$worst ms" "< 8 ms" \
    "$(verdict "$worst" "<" 8)"
  row "TUI longest indexing slice (a key waits for it)" "$finish ms" "< 8 ms" \
    "$(verdict "$finish" "<" 8)"
  # the lanes (docs/tui.md "Lane strip"): p pins at once, the lanes are built
  # between keys (the longest slice is what a key may wait), the lane keys,
  # the strip fully zoomed out
  pin=$(sed -n 's/^  \(j \)\{0,1\}p (row [0-9]) *avg *\([0-9.]*\) ms.*/\2/p' "$data/.tui" | sort -g | tail -1)
  lslice=$(sed -n 's/^  lanes built between keys: .* worst slice \([0-9.]*\) ms.*/\1/p' "$data/.tui")
  lbuild=$(sed -n 's/^  lanes built between keys: \([0-9.]*\) ms (CPU \([0-9.]*\) ms).*/\1 ms (CPU \2 ms)/p' "$data/.tui")
  lworst=$(sed -n 's/^worst lane key: \([0-9.]*\) ms/\1/p' "$data/.tui")
  ldraw=$(sed -n 's/^  draw zoomed out avg *\([0-9.]*\) ms.*/\1/p' "$data/.tui")
  for v in pin lslice lworst ldraw; do [ -n "${!v}" ] || printf -v "$v" failed; done
  [ -n "$lbuild" ] || lbuild=failed
  row "TUI p: pin an area (key + frame; its lane is built later)" "$pin ms" "< 5 ms" \
    "$(verdict "$pin" "<" 5)"
  row "TUI four pinned lanes built between keys" "$lbuild" "" ""
  row "TUI longest lane-building slice (a key waits for it)" "$lslice ms" "< 8 ms" \
    "$(verdict "$lslice" "<" 8)"
  row "TUI worst lane key + frame () ( L H :goto + } - j)" "$lworst ms" "< 5 ms" \
    "$(verdict "$lworst" "<" 5)"
  row "TUI draw with the lanes fully zoomed out (avg)" "$ldraw ms" "< 8 ms" \
    "$(verdict "$ldraw" "<" 8)"
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
if [ -x "$build/bench_flame" ] && ! $quick; then
  "$build/bench_flame" "$bin_txt" > "$data/.flame" 2>&1 || true
  fcpu=$(sed -n 's/^flame build .* \([0-9.]*\) s cpu.*/\1/p' "$data/.flame")
  dcpu=$(sed -n 's/^diff of 2 x .* \([0-9.]*\) s cpu.*/\1/p' "$data/.flame")
  [ -n "$fcpu" ] || fcpu=failed
  [ -n "$dcpu" ] || dcpu=failed
  row "flame merge of the call tree (bench_flame, CPU)" "$fcpu s" "< 1 s" "$(verdict "$fcpu" "<" 1)"
  row "diff of two 1 M-row views (bench_flame, CPU)" "$dcpu s" "< 0.5 s" "$(verdict "$dcpu" "<" 0.5)"
fi
# --no-cache: a full index each run (the index cache, docs/cache.md, would
# answer runs 2-5 of a BIN from the cache), alternately with the floor
# (bench/bench_floor.c: one bare pass over the same records), whose time is
# the bar's unit (docs/quality.md).
floor=$build/bench_floor
alt_a=("$pv" info --no-cache "$bin_txt") alt_b=("$floor" "$bin_txt.BIN")
measure_alt "full index / floor"
best_kb=$a_kb
wall_x=$(ratio_of "$a_s" "$b_s") cpu_x=$(ratio_of "$a_cpu" "$b_cpu")
row "BIN full index / bare pass, wall ($bin_events events, medians)" "$(times_x "$wall_x")" "<= 1.5x" \
  "$(verdict "$wall_x" "<" 1.5001)"
row "BIN full index / bare pass, CPU (user + system, medians)" "$(times_x "$cpu_x")" "<= 2.5x" \
  "$(verdict "$cpu_x" "<" 2.5001)"
row "  context: profview info --no-cache, wall / CPU" "$a_s s / $a_cpu s" "" ""
row "  context: bench_floor, wall / CPU" "$b_s s / $b_cpu s" "" ""
# what keeping an index of profview's shape costs here (bench_floor --keep,
# bench/README.md "The floor that keeps the index"): against the floor, and
# profview against it, each pair alternately (context, not a bar)
alt_a=("$floor" "$bin_txt.BIN" --keep) alt_b=("$floor" "$bin_txt.BIN")
measure_alt "keeping floor / floor"
keep_s=$a_s keep_cpu=$a_cpu
row "  context: bench_floor --keep / bench_floor, wall / CPU" \
  "$(times_x "$(ratio_of "$a_s" "$b_s")") / $(times_x "$(ratio_of "$a_cpu" "$b_cpu")")" "" ""
alt_a=("$pv" info --no-cache "$bin_txt") alt_b=("$floor" "$bin_txt.BIN" --keep)
measure_alt "full index / keeping floor"
row "  context: full index / bench_floor --keep, wall / CPU" \
  "$(times_x "$(ratio_of "$a_s" "$b_s")") / $(times_x "$(ratio_of "$a_cpu" "$b_cpu")")" "" ""
row "  context: bench_floor --keep, wall / CPU" "$keep_s s / $keep_cpu s" "" ""
# The same bar on timelines of other shapes (docs/quality.md: three more
# seeds and task counts, not only the benchmark's own file), each
# alternately with the floor over its own records.
for shape in "3 2" "7 8" "11 3"; do
  read -r seed tasks <<<"$shape"
  shape_txt=$data/rtos-bin11-s$seed-t$tasks-$shape_events.txt
  if [ ! -s "$shape_txt.BIN" ]; then
    echo "== generating $shape_events events (BIN v1.1, seed $seed, $tasks tasks)" >&2
    "$gen" --seed "$seed" --tasks "$tasks" --events "$shape_events" --format bin11 \
      -o "$shape_txt" > /dev/null
  fi
  cat "$shape_txt.BIN" > /dev/null
  alt_a=("$pv" info --no-cache "$shape_txt") alt_b=("$floor" "$shape_txt.BIN")
  measure_alt "full index / floor, seed $seed, $tasks tasks"
  shape_wall=$(ratio_of "$a_s" "$b_s") shape_cpu=$(ratio_of "$a_cpu" "$b_cpu")
  ok=$(verdict "$shape_wall" "<" 1.5001)
  [ "$(verdict "$shape_cpu" "<" 2.5001)" = ok ] || ok=$(verdict "$shape_cpu" "<" 2.5001)
  row "BIN full index / bare pass, seed $seed, $tasks tasks, wall / CPU" \
    "$(times_x "$shape_wall") / $(times_x "$shape_cpu")" "<= 1.5x / 2.5x" "$ok"
done
# the cache hit, against the same floor (measured after it, not alternately:
# the first run fills the cache)
cache_dir=$data/.cache
rm -rf "$cache_dir"; mkdir -p "$cache_dir"
env -u PROFVIEW_CACHE XDG_CACHE_HOME="$cache_dir" "$pv" info "$bin_txt" > /dev/null 2>&1 || true
alt_a=(env -u PROFVIEW_CACHE XDG_CACHE_HOME="$cache_dir" "$pv" info "$bin_txt") alt_b=("$floor" "$bin_txt.BIN")
measure_alt "cache hit / floor"
cache_x=$(ratio_of "$a_s" "$b_s")
row "BIN second open from the index cache / bare pass, wall" "$(times_x "$cache_x")" "<= 0.25x" \
  "$(verdict "$cache_x" "<" 0.2501)"
row "  context: profview info from the cache, wall" "$a_s s" "" ""
rm -rf "$cache_dir"
# the process's own footprint (binary, libraries) is not index: measure it
base_kb=$(/usr/bin/time -f "%M" "$pv" --version 2>&1 >/dev/null | tail -1)
limit_kb=$(((bin_size + 12 * bin_events) / 1024 + base_kb))
if [ "$best_kb" = - ]; then ok=FAIL; elif [ "$best_kb" -le "$limit_kb" ]; then ok=ok; else ok=MISS; fi
row "BIN full index peak RSS (file + 12 B/event + $(mb "$base_kb"))" "$(mb "$best_kb")" "<= $(mb "$limit_kb")" "$ok"

# The index on two threads (the split, docs/winidea-model.md "Speed: the
# timeline in two halves") against the index on one, on the benchmark's
# BIN files: every event (its context, area, depth), every call (parent,
# times) and every statistic, as the views print them (md5 of each `cat`).
# Each index is built once by `info` and kept in a cache directory of its
# own; `cat` reads it from there (`cat` of the timeline alone would index
# in steps, on one thread, and compare nothing).
for f in "$bin_txt" "$data"/rtos-bin11-s*-"$shape_events".txt; do
  same=same
  rm -rf "$data/.c1" "$data/.c2"
  mkdir -p "$data/.c1" "$data/.c2"
  env -u PROFVIEW_CACHE XDG_CACHE_HOME="$data/.c2" "$pv" info "$f" > /dev/null 2>&1 || same=failed
  env -u PROFVIEW_CACHE XDG_CACHE_HOME="$data/.c1" "$pv" info --test index-threads=1 "$f" \
    > /dev/null 2>&1 || same=failed
  for v in timeline call-trace statistics routines lines contexts; do
    two=$(env -u PROFVIEW_CACHE XDG_CACHE_HOME="$data/.c2" "$pv" cat "$f" --view "$v" 2>&1 | md5sum) || same=failed
    one=$(env -u PROFVIEW_CACHE XDG_CACHE_HOME="$data/.c1" "$pv" cat "$f" --view "$v" 2>&1 | md5sum) || same=failed
    [ "$two" = "$one" ] || { same=DIFF; echo "   $(basename "$f"): $v differs" >&2; }
  done
  rm -rf "$data/.c1" "$data/.c2"
  ok=ok
  [ "$same" = same ] || ok=FAIL
  row "BIN index on two threads = on one: $(basename "$f" .txt)" "$same" "same" "$ok"
done

# trace-json against Text1, the same timeline exported both ways, alternately
# (docs/export.md "Trace Event Format": streamed like Text1).  Both load the
# file (from the index cache of the runs above, when there is one).
alt_a=("$pv" export "$bin_txt" --format trace-json --force -o "$data/.export.json")
alt_b=("$pv" export "$bin_txt" --format text1 --force -o "$data/.export.txt")
measure_alt "trace-json / text1 export"
tj_x=$(ratio_of "$a_s" "$b_s")
row "trace-json export / Text1 export, wall ($bin_events events, medians)" "$(times_x "$tj_x")" \
  "<= 2x" "$(verdict "$tj_x" "<" 2.0001)"
row "  context: trace-json / Text1 export, wall" "$a_s s / $b_s s" "" ""
row "  context: trace-json / Text1 export, CPU" "$a_cpu s / $b_cpu s" "" ""
rm -f "$data/.export.json" "$data/.export.txt"

# Text1, side by side with the tools a user would otherwise reach for, on
# the same file in the same run: the read limit (wc -l, cat), an awk pass
# counting entries per handle, and the sqlite3 shell's .import of the events.
# The bar is measured twice, alternately, on the generator's file and on a
# `cp` of it (the same bytes): `wc -l` reads a fresh copy up to 1.4 times
# faster than the file as the generator wrote it (its page cache's folios,
# bench/history.md "Text1 against `wc -l`"), profview takes the same on
# both; the verdict is the worse of the two.
text_copy=$data/.text-copy.txt
cp "$text_txt" "$text_copy"
cat "$text_copy" > /dev/null
alt_a=("$pv" info --no-cache "$text_txt") alt_b=(wc -l "$text_txt")
measure_alt "text / wc -l"
text_s=$a_s best_s=$a_s med_s=$a_s best_kb=$a_kb
text_x=$(ratio_of "$a_s" "$b_s")
text_ctx="$a_s s / $a_cpu s" text_wc=$b_s
alt_a=("$pv" info --no-cache "$text_copy") alt_b=(wc -l "$text_copy")
measure_alt "text copy / wc -l"
copy_x=$(ratio_of "$a_s" "$b_s")
rm -f "$text_copy"
worse_x=$text_x
[ "$copy_x" = failed ] || [ "$text_x" = failed ] ||
  ! awk -v a="$copy_x" -v b="$text_x" 'BEGIN { exit !(a > b) }' || worse_x=$copy_x
row "Text1 load / wc -l, wall ($((text_size / 1000000)) MB, $text_events events, medians, worse of two)" \
  "$(times_x "$worse_x")" "<= 8x" "$(verdict "$worse_x" "<" 8.0001)"
row "  the generator's file / a cp of it" "$(times_x "$text_x") / $(times_x "$copy_x")" "" ""
row "  context: profview info --no-cache, wall / CPU (file; copy)" "$text_ctx; $a_s s / $a_cpu s" "" ""
row "  context: wc -l, wall (file; copy)" "$text_wc s; $b_s s" "" ""
rate=failed
[ "$text_s" != failed ] &&
  rate=$(awk -v s="$text_size" -v t="$text_s" 'BEGIN { printf "%.0f", (t > 0 ? s / 1e6 / t : 0) }')
row "  context: Text1 throughput (parse + index, median)" "$rate MB/s" "" ""
row "Text1 load peak RSS" "$(mb "$best_kb")" "" ""
# the second open of the Text1 file: no parse (docs/cache.md "Text1 files"),
# against the same wc -l (measured after the first open, which fills the cache)
cache_dir=$data/.cache
rm -rf "$cache_dir"; mkdir -p "$cache_dir"
env -u PROFVIEW_CACHE XDG_CACHE_HOME="$cache_dir" "$pv" info "$text_txt" > /dev/null 2>&1 || true
alt_a=(env -u PROFVIEW_CACHE XDG_CACHE_HOME="$cache_dir" "$pv" info "$text_txt") alt_b=(wc -l "$text_txt")
measure_alt "text cache hit / wc -l"
row "Text1 second open from the cache / wc -l, wall (no parse)" "$(times_x "$(ratio_of "$a_s" "$b_s")")" "" ""
row "  context: profview info from the cache, wall / CPU" "$a_s s / $a_cpu s" "" ""
rm -rf "$cache_dir"
measure "cat" sh -c 'cat "$1" > /dev/null' sh "$text_txt"
row "  cat > /dev/null (profview takes $(ratio "$text_s" "$med_s"))" "$(mm)" "" ""
measure "awk" awk -F, '$2 == "E" { n[$1]++ } END { for (h in n) k++; print k }' "$text_txt"
row "  awk: entries per handle (profview takes $(ratio "$text_s" "$med_s"))" "$(mm)" "" ""
csv_rows=$(($(wc -l < "$text_csv") - 1))
if command -v sqlite3 > /dev/null; then
  rm -f "$data/.import.db"
  measure "sqlite3 .import" sh -c 'rm -f "$1"; sqlite3 "$1" ".mode csv" ".import \"$2\" events"' \
    sh "$data/.import.db" "$text_csv"
  import_s=$med_s
  row "  sqlite3 .import of the $csv_rows events as CSV (profview takes $(ratio "$text_s" "$med_s"))" "$(mm)" "" ""
  if [ "$import_s" != failed ]; then
    row "  sqlite3 .import rows/s" "$(awk -v n="$csv_rows" -v t="$import_s" 'BEGIN { printf "%.2f M", (t > 0 ? n / t / 1e6 : 0) }')" "" ""
  fi
  # profview's own SQLite export, when this build has it
  # (the help is read whole first: grep -q closing the pipe early would
  # fail the pipeline under pipefail)
  help=$("$pv" --help 2>&1 || true)
  if printf '%s\n' "$help" | grep '^  profview export' > /dev/null; then
    measure "export" sh -c 'rm -f "$2"; "$0" export "$1" --format sqlite -o "$2"' "$pv" "$text_txt" "$data/.export.db"
    row "  profview export to SQLite ($(ratio "$med_s" "$import_s") of sqlite3 .import)" "$(mm)" "" ""
  else
    row "  profview export to SQLite" "not built" "" ""
  fi
  rm -f "$data/.import.db" "$data/.export.db"
fi
# the parser alone, on a TIMELINE in memory (bench/bench_text1.c, when built)
if [ -x "$build/bench_text1" ] && ! $quick; then
  parser=$("$build/bench_text1" 256 2>&1 | sed -n 's/.*: \([0-9.]*\) MB\/s.*/\1/p' | tail -1)
  [ -n "$parser" ] || parser=failed
  row "Text1 parser alone (bench_text1 256)" "$parser MB/s" "" ""
fi

# AQTime (docs/aqtime.md, Scale): a Function Trace of $aq_calls calls, and a
# database of $aq_sets small result sets (linear in result sets, not quadratic).
measure "aqtime trace" "$pv" info "$aq_trace"
row "AQTime Function Trace load (info, $aq_calls calls)" "$(mm)" "< 5 s" "$(verdict "$med_s" "<" 5)"
row "AQTime load CPU of the fastest run (user + system)" "$best_cpu" "" ""
per_call=-
[ "$best_kb" != - ] && per_call=$(( (best_kb - base_kb) * 1024 / aq_calls ))
if [ "$per_call" = - ]; then ok=FAIL; elif [ "$per_call" -le 100 ]; then ok=ok; else ok=MISS; fi
row "AQTime peak RSS per call (beyond $(mb "$base_kb"))" "$per_call B" "<= 100 B" "$ok"
# The viewer's first screen of the same database: the summary shows while a
# thread of the loader reads the call trace (docs/aqtime.md "First screen").
: > "$data/.keys"
measure "aqtime first screen" "$pv" --test index-slice=1 "$aq_trace" --keys "$data/.keys" \
  --size 120x40 --dump "$data/.screen"
row "AQTime first screen (profview DB, first frame, $aq_calls calls)" "$(mm)" "< 0.2 s" \
  "$(verdict "$med_s" "<" 0.2)"
row "AQTime first screen CPU of the fastest run" "$best_cpu" "" ""
measure "aqtime sets" "$pv" info "$aq_many"
row "AQTime $aq_sets result sets (info)" "$(mm)" "" ""
# Resource and Reference Count databases of $aq_objects objects (rows per
# object: 1 + 2 creation stack entries; Reference Count also 2 references,
# 2 stack entries and 3 ref-count tree rows): linear, not quadratic.
for kind in resource refcount; do
  out=$data/aqtime-$kind-$aq_objects.db
  measure "aqtime $kind" "$pv" info "$out"
  row "AQTime $kind load (info, $aq_objects objects)" "$(mm)" "" ""
  row "AQTime $kind load CPU of the fastest run (user + system)" "$best_cpu" "" ""
  per_obj=-
  [ "$best_kb" != - ] && per_obj=$(( (best_kb - base_kb) * 1024 / aq_objects ))
  row "AQTime $kind peak RSS per object (beyond $(mb "$base_kb"))" "$per_obj B" "" ""
done

# AQTime in an Access database (docs/aqtime.md "Access databases"): the same
# Function Trace of $aq_mdb_calls calls as SQLite and as .mdb, loaded
# alternately (the machine's load falls on both); the ratio of the medians.
sq_s= mdb_s=
for _ in $(seq "$runs"); do
  for f in "$aq_mdb_db" "$aq_mdb"; do
    if ! "${prio[@]}" /usr/bin/time -f "%e" -o "$data/.time" "$pv" info "$f" >/dev/null 2>&1; then
      echo "   aqtime access: FAILED on $f" >&2
      echo failed > "$data/.time"
    fi
    if [ "$f" = "$aq_mdb" ]; then mdb_s="$mdb_s $(cat "$data/.time")"; else sq_s="$sq_s $(cat "$data/.time")"; fi
  done
done
echo "   aqtime access: SQLite wall times:$sq_s; Access:$mdb_s" >&2
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
sq_med=$(median $sq_s) mdb_med=$(median $mdb_s)
# (a time below the clock's 10 ms gives no ratio: the quick run's data)
ratio=$(awk -v a="$mdb_med" -v b="$sq_med" 'BEGIN {
  if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/) print "failed"; else if (b > 0) printf "%.2f", a / b; else print "-" }')
ok=$(verdict "$ratio" "<" 3)
[ "$ratio" = - ] && ok=
row "AQTime $aq_mdb_calls calls: .mdb / SQLite load (info, medians $mdb_med s / $sq_med s)" "$ratio x" "< 3 x" \
  "$ok"

printf 'machine: %s\n' "$machine"
printf 'load average: %s at the start, %s at the end\n' "$load_start" "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?")"
printf 'timed commands: %s\n' "$prio_note"
printf '%-64s %16s %14s %6s\n' "measure (min / median of $runs)" "result" "bar (docs/quality.md)" ""
printf '%s\n' "${rows[@]}"
rm -f "$data/.time" "$data/.out" "$data/.err" "$data/.keys" "$data/.screen" "$data/.tui"
