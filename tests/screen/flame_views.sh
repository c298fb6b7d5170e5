#!/usr/bin/env bash
# Golden screens of the flame graph, icicle and sandwich (docs/flame.md),
# driven by the scripted-keys mode: UTF-8 and ASCII, 80x24 and wide, over
# the call trees of the three formats.  Written from the binary and read by
# a person (frames, their order and widths, the eighth-block ends, the
# breadcrumb, the Details of the selected frame).
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample aqtime-trace.db
need_sample rtos.txt
need_sample plist-func-timing.txt
cd "$SAMPLES"

# AQTime Function Trace: flame graph, two threads, the selection two levels up (UTF-8, 80x24)
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Flame graph: Call Trace of aqtime-trace.db ──────────────
aqtime-trace.db     │all
  Run 1 - E…sed Time│
    Summary (8)     │
    Threads (2)     │
    Call Trace (21) │
    Routines (8)    │
    Call Routes (17)│
    Lines (24)      │               op
  Run 2 - C…e Misses│               ▏lo▎
    Summary (8)     │ ▏pars▉▏fib  ▍ ▏log_wri▌   ▏fib     ▍
    Threads (2)     │ ▏Matri▏parse_a▏qsort_r ▍  ▏parse_arg▊
    Call Trace (23) │M▏parse_args            ▊  ▏Matrix::multip▏loa▏log▌
    Routines (8)    │▏log_write                 ▏main                  ▏log▏main
    Call Routes (20)│▏Thread 4120                                      ▏Thread 5
    Lines (24)      │─ Details ─────────────────────────────────────────────────
                    │Frame     parse_args   (app.exe)
                    │Total     20.452 ms   39.6% of all, 39.6% of the zoomed fra
                    │Self      276.851 us   0.5% of all
                    │Calls     1   depth 2
                    │Stack     Thread 4120;log_write;parse_args
                    │
 aqtime-trace.db │ summary │ row 1/8                                     ? help
SCREEN
)
expect_screen flame_utf8_80x24 "$(pv_screen $'Tab F k k' aqtime-trace.db --size 80x24)" "$expected"

# the same in ASCII
expected=$(cat <<'SCREEN'
- Explorer ---------|- Flame graph: Call Trace of aqtime-trace.db --------------
aqtime-trace.db     |all
  Run 1 - E~sed Time|
    Summary (8)     |
    Threads (2)     |
    Call Trace (21) |
    Routines (8)    |
    Call Routes (17)|
    Lines (24)      |               op
  Run 2 - C~e Misses|               |lo|
    Summary (8)     | |pars||fib  | |log_wri|   |fib     |
    Threads (2)     | |Matri|parse_a|qsort_r |  |parse_arg|
    Call Trace (23) |M|parse_args            |  |Matrix::multip|loa|log|
    Routines (8)    ||log_write                 |main                  |log|main
    Call Routes (20)||Thread 4120                                      |Thread 5
    Lines (24)      |- Details -------------------------------------------------
                    |Frame     parse_args   (app.exe)
                    |Total     20.452 ms   39.6% of all, 39.6% of the zoomed fra
                    |Self      276.851 us   0.5% of all
                    |Calls     1   depth 2
                    |Stack     Thread 4120;log_write;parse_args
                    |
 aqtime-trace.db | summary | row 1/8                                     ? help
SCREEN
)
expect_screen flame_ascii_80x24 "$(pv_screen $'Tab F k k' aqtime-trace.db --size 80x24 --ascii)" "$expected"

# winIDEA: icicle per context (UTF-8, 140x36)
expected=$(cat <<'SCREEN'
─ Explorer ────────────────────────│─ Icicle: Call trace of rtos.txt ───────────────────────────────────────────────────────────────────────
rtos.txt                           │all
  winIDEA profiler                 │▏ID_IS▏ID_TASK▏ID_TA▏ID_TASK_FAST             ▏ID_TASK_IDLE
    Summary (14)                   │▏ISR_T▏Task_Co▏Task_▏Task_Fast                ▏Idle_Loop
    Contexts (5)                   │▏CAN▋ "T▏CA{▊ FSe{▎ ▏"Test.c"F▏Sensor_o{▉     ▏Idle_Hook                       ▎
    Statistics (83)                │l{▎   m▌l{    ▍C▍   Cmes{▍    ▏CRC▊
    Statistics (as exported) (56)  │
    Timeline (3000)                │
    Call trace (581)               │
    Routines (11)                  │
    Lines (18)                     │
    Data (13)                      │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │─ Details ──────────────────────────────────────────────────────────────────────────────────────────────
                                   │Frame     ISR_Timer
                                   │Total     19.450 us   5.8% of all, 5.8% of the zoomed frame, 100.0% of its caller
                                   │Self      4.678 us   1.4% of all
                                   │Calls     9   depth 1
                                   │Stack     ID_ISR_TIMER;ISR_Timer
                                   │
                                   │
                                   │
                                   │
                                   │
 rtos.txt │ summary │ row 1/14                                                                                                       ? help
SCREEN
)
expect_screen icicle_utf8_wide "$(pv_screen $'Tab I j' rtos.txt --size 140x36)" "$expected"

# zoomed into a frame: its ancestors as the breadcrumb
expected=$(cat <<'SCREEN'
─ Explorer ────────────────────────│─ Icicle: Call trace of rtos.txt ───────────────────────────────────────────────────────────────────────
rtos.txt                           │all › ID_ISR_TIMER › ISR_Timer › CRC_Calc
  winIDEA profiler                 │▏CRC_Calc
    Summary (14)                   │
    Contexts (5)                   │
    Statistics (83)                │
    Statistics (as exported) (56)  │
    Timeline (3000)                │
    Call trace (581)               │
    Routines (11)                  │
    Lines (18)                     │
    Data (13)                      │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │─ Details ──────────────────────────────────────────────────────────────────────────────────────────────
                                   │Frame     CRC_Calc
                                   │Total     1.972 us   0.6% of all, 100.0% of the zoomed frame, 10.1% of its caller
                                   │Self      1.972 us   0.6% of all
                                   │Calls     4   depth 2
                                   │Stack     ID_ISR_TIMER;ISR_Timer;CRC_Calc
                                   │
                                   │
                                   │
                                   │
                                   │
 rtos.txt │ summary │ row 1/14                                                                                                       ? help
SCREEN
)
expect_screen icicle_zoom_wide "$(pv_screen $'Tab I j j l Enter' rtos.txt --size 140x36)" "$expected"

# winIDEA line areas are frames inside the function call they run in
# (docs/flame.md): Task_Fast's `otm(a, b);` and `{`, "Test.c"#Static's
# `s_eMode = MODE_RUN;` and `{`, beside the calls (zoomed into the context
# found by a search)
expected=$(cat <<'SCREEN'
─ Explorer ────────────────────────│─ Icicle: Call trace of rtos.txt ───────────────────────────────────────────────────────────────────────
rtos.txt                           │all › ID_TASK_FAST                                                                         match: 100.0%
  winIDEA profiler                 │▏ID_TASK_FAST
    Summary (14)                   │▏Task_Fast
    Contexts (5)                   │▏"Test.c"#Static                      Fi▏Sensor_Read                   ▏otm(a▏{   ▋
    Statistics (83)                │▏CRC_C▏memcpy▏s_▏{   ▏                  ▏CRC_Calc        ▉
    Statistics (as exported) (56)  │
    Timeline (3000)                │
    Call trace (581)               │
    Routines (11)                  │
    Lines (18)                     │
    Data (13)                      │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │─ Details ──────────────────────────────────────────────────────────────────────────────────────────────
                                   │Frame     ID_TASK_FAST
                                   │Total     84.981 us   25.3% of all, 100.0% of the zoomed frame, 25.3% of its caller
                                   │Self      0   0.0% of all
                                   │Calls     0   depth 0
                                   │Stack     ID_TASK_FAST
                                   │
                                   │
                                   │
                                   │
                                   │
 rtos.txt │ summary │ row 1/14                                                                                                       ? help
SCREEN
)
expect_screen icicle_lines_wide "$(pv_screen $'Tab I\n/Task_Fast<Enter>\nn Enter' rtos.txt --size 140x36)" "$expected"

# PLIST: the sandwich of qsort_compare (callers above, callees below)
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Sandwich: Call trace of plist-func-timing.txt ───────────
plist-func…iming.txt│qsort_compare (static): 433.690 ms through it in 2 calls  (
  PLIST report      │
    Summary (28)    │
    Routines (14)   │
    Call trace (21) │                                             ▏main
    Attri…tacks (21)│▏main                                        ▏operator new(
                    │▏operator new(unsigned int)                  ▏std::vector<i
                    │▏qsort_compare (static)
                    │▏?f▏CMainFra▏SOLVE_SYSTEM             ▏pars▊
                    │            ▏CMainFrame:▏compute_su▍
                    │
                    │
                    │
                    │
                    │─ Details ─────────────────────────────────────────────────
                    │Frame     qsort_compare (static)
                    │Total     433.690 ms   100.0% of all, 100.0% of the zoomed
                    │Self      112.000 ms   25.8% of all
                    │Calls     2   depth 0
                    │Stack     qsort_compare (static)
                    │
 plist-func-timing.txt │ summary │ row 1/28                              ? help
SCREEN
)
expect_screen sandwich_utf8_80x24 "$(pv_screen $'Tab F k k W' plist-func-timing.txt --size 80x24)" "$expected"

# the same, wide, ASCII, a callee selected
expected=$(cat <<'SCREEN'
- Explorer -------------------|- Sandwich: Call trace of plist-func-timing.txt -----------------------------------------
plist-func-timing.txt         |qsort_compare (static): 433.690 ms through it in 2 calls  (callers above, callees below)
  PLIST report                |
    Summary (28)              |
    Routines (14)             |
    Call trace (21)           |
    Attribution stacks (21)   |
                              |                                                                     |main
                              ||main                                                                |operator new(unsign
                              ||operator new(unsigned int)                                          |std::vector<int,std
                              ||qsort_compare (static)
                              ||?foo|CMainFrame::O|SOLVE_SYSTEM                         |parse, t
                              |     |             |CMainFrame::OnPa|compute_sum(intp|
                              |
                              |
                              |
                              |
                              |
                              |
                              |- Details -------------------------------------------------------------------------------
                              |Frame     SOLVE_SYSTEM
                              |Total     189.584 ms   43.7% of all, 43.7% of the zoomed frame, 43.7% of its caller
                              |Self      21.442 ms   4.9% of all
                              |Calls     1   depth 1
                              |Stack     qsort_compare (static);SOLVE_SYSTEM
                              |
                              |
                              |
 plist-func-timing.txt | summary | row 1/28                                                                      ? help
SCREEN
)
expect_screen sandwich_ascii_wide "$(pv_screen $'Tab F k k W j' plist-func-timing.txt --size 120x30 --ascii)" "$expected"

# PLIST attribution stacks: flame graph (UTF-8, 140x36), no threads: main at the bottom
expected=$(cat <<'SCREEN'
─ Explorer ────────────────────────│─ Flame graph: Call trace of plist-func-timing.txt ─────────────────────────────────────────────────────
plist-func-timing.txt              │all
  PLIST report                     │
    Summary (28)                   │
    Routines (14)                  │
    Call trace (21)                │
    Attribution stacks (21)        │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │                _▉                          ▏CMainFrame▏compute_s▊             ▏?f▏pars▋
                                   │                ▏?foo@@Y▏_MATMU▍    ▏CMainFr▏SOLVE_SYSTEM           ▍          ▏qsort_compa▎
                                   │                ▏parse, then check ▉▏qsort_compare (static)                    ▏std::vector<int,▌
                                   │▏SOLV▏_MATMUL@12▏compute_sum(int, ch▏operator new(unsigned int)                                  ▌
                                   │▏main
                                   │─ Details ──────────────────────────────────────────────────────────────────────────────────────────────
                                   │Frame     operator new(unsigned int)
                                   │Total     483.694 ms   59.1% of all, 59.1% of the zoomed frame, 59.1% of its caller
                                   │Self      8.356 ms   1.0% of all
                                   │Calls     1   depth 1
                                   │Stack     main;operator new(unsigned int)
                                   │
                                   │
                                   │
                                   │
                                   │
 plist-func-timing.txt │ summary │ row 1/28                                                                                          ? help
SCREEN
)
expect_screen flame_utf8_wide "$(pv_screen $'Tab F k' plist-func-timing.txt --size 140x36)" "$expected"

# AQTime: the icicle in ASCII at 80x24 (the flame graph of the first case top-down)
expected=$(cat <<'SCREEN'
- Explorer ---------|- Icicle: Call Trace of aqtime-trace.db -------------------
aqtime-trace.db     |all
  Run 1 - E~sed Time||Thread 4120                                      |Thread 5
    Summary (8)     ||log_write                 |main                  |log|main
    Threads (2)     |M|parse_args            |  |Matrix::multip|loa|log|
    Call Trace (21) | |Matri|parse_a|qsort_r |  |parse_arg|
    Routines (8)    | |pars||fib  | |log_wri|   |fib     |
    Call Routes (17)|               |lo|
    Lines (24)      |               op
  Run 2 - C~e Misses|
    Summary (8)     |
    Threads (2)     |
    Call Trace (23) |
    Routines (8)    |
    Call Routes (20)|
    Lines (24)      |- Details -------------------------------------------------
                    |Frame     log_write   (app.exe)
                    |Total     23.946 ms   46.4% of all, 46.4% of the zoomed fra
                    |Self      2.310 ms   4.5% of all
                    |Calls     1   depth 1
                    |Stack     Thread 4120;log_write
                    |
 aqtime-trace.db | summary | row 1/8                                     ? help
SCREEN
)
expect_screen icicle_ascii_80x24 "$(pv_screen $'Tab I j' aqtime-trace.db --size 80x24 --ascii)" "$expected"

# winIDEA: the sandwich of CAN_Process (UTF-8, 140x36): its callers per context above, its callees and its line areas below
expected=$(cat <<'SCREEN'
─ Explorer ────────────────────────│─ Sandwich: Call trace of rtos.txt ─────────────────────────────────────────────────────────────────────
rtos.txt                           │CAN_Process: 26.817 us through it in 21 calls  (callers above, callees below)
  winIDEA profiler                 │
    Summary (14)                   │
    Contexts (5)                   │
    Statistics (83)                │
    Statistics (as exported) (56)  │
    Timeline (3000)                │
    Call trace (581)               │
    Routines (11)                  │
    Lines (18)                     │▏ID_ISR_TIMER                                    ▏ID_TASK_COMM                              ▏ID_TASK_CON
    Data (13)                      │▏ISR_Timer                                       ▏Task_Comm                                 ▏Task_Contro
                                   │▏CAN_Process
                                   │▏CRC_Calc      ▏len = CAN▏memcpy_s     ▏{               ▏
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │
                                   │─ Details ──────────────────────────────────────────────────────────────────────────────────────────────
                                   │Frame     CAN_Process
                                   │Total     26.817 us   100.0% of all, 100.0% of the zoomed frame, 100.0% of its caller
                                   │Self      19.063 us   71.1% of all
                                   │Calls     21   depth 0
                                   │Stack     CAN_Process
                                   │
                                   │
                                   │
                                   │
                                   │
 rtos.txt │ summary │ row 1/14                                                                                                       ? help
SCREEN
)
expect_screen sandwich_utf8_wide "$(pv_screen $'Tab F k k W' rtos.txt --size 140x36)" "$expected"

# The mouse (docs/flame.md "Mouse"), through the scripted mode's <Click X Y>
# and <WheelUp X Y>: a click selects a frame (parse_args, column 45 of line
# 12), a click on the selected frame zooms into it, a click on the
# breadcrumb zooms out one level, the wheel moves the selection up (to the
# widest child); in the sandwich (of qsort_r, selected by the wheel) a click
# selects a callee (log_write, line 9) and a click on it again makes it the
# middle.
keys=$'Tab F\n<Click 45 12>\n<Dump>\n<Click 45 12>\n<Dump>\n<Click 30 1>\n<Dump>\n<WheelUp 45 12>\n<Dump>\nW\n<Click 62 9>\n<Dump>\n<Click 62 9>'
out=$(pv_screen "$keys" aqtime-trace.db --size 80x24)
dump() { printf '%s\n' "$out" | awk -v n="$1" 'BEGIN { k = 1 } /^----$/ { k++; next } k == n'; }
line_of() { dump "$1" | sed -n "$2p"; }
expect_contains mouse_click_selects "$(line_of 1 17)" "Frame     parse_args   (app.exe)"
expect_absent mouse_click_selects_no_zoom "$(line_of 1 2)" "›"
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Flame graph: Call Trace of aqtime-trace.db ──────────────
aqtime-trace.db     │all › Thread 4120 › log_write › parse_args
  Run 1 - E…sed Time│
    Summary (8)     │
    Threads (2)     │
    Call Trace (21) │
    Routines (8)    │
    Call Routes (17)│
    Lines (24)      │
  Run 2 - C…e Misses│
    Summary (8)     │                                    ▏op▍
    Threads (2)     │                                    ▏load_▌
    Call Trace (23) │▏parse_args     ▏fib          ▍     ▏log_write         ▊
    Routines (8)    │▏Matrix::multipl▏parse_args         ▏qsort_r              ▎
    Call Routes (20)│▏parse_args
    Lines (24)      │─ Details ─────────────────────────────────────────────────
                    │Frame     parse_args   (app.exe)
                    │Total     20.452 ms   39.6% of all, 100.0% of the zoomed fr
                    │Self      276.851 us   0.5% of all
                    │Calls     1   depth 2
                    │Stack     Thread 4120;log_write;parse_args
                    │
 aqtime-trace.db │ summary │ row 1/8                                     ? help
SCREEN
)
expect_screen mouse_click_again_zooms "$(dump 2)" "$expected"
expect_contains mouse_crumb_zooms_out "$(line_of 3 2)" "│all › Thread 4120 › log_write"
expect_absent mouse_crumb_zooms_out_one "$(line_of 3 2)" "parse_args"
expect_contains mouse_wheel_up "$(line_of 4 17)" "Frame     qsort_r   (app.exe)"
expect_contains mouse_sandwich_click "$(dump 5)" "qsort_r: 7.514 ms through it in 1 calls"
expect_contains mouse_sandwich_click_selects "$(line_of 5 17)" "Frame     log_write   (app.exe)"
expect_contains mouse_sandwich_click_again "$(dump 6)" "log_write: 30.113 ms through it in 3 calls"
expect_contains mouse_sandwich_stays "$(dump 6)" "─ Sandwich: Call Trace of aqtime-trace.db"
