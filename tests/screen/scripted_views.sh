#!/usr/bin/env bash
# Golden screens of the viewer, driven by the scripted-keys mode (tig's
# habit: keys, a fixed screen size, the exact screen).  One case per pane and
# view kind: table, tree, details tabs, help, filter error with its caret,
# filter and sort, zoom, horizontal scroll, a winIDEA timeline and call
# trace and AQTime databases (other formats, same generic rendering), ASCII
# line drawing.  Written by regen-golden.py; every screen was read by a person.
source "$(dirname "$0")/lib.bash"
export LC_ALL=C.UTF-8
need_sample plist-func-timing.txt
need_sample rtos.txt
need_sample aqtime-refcount.db
need_sample aqtime-trace.db
cd "$SAMPLES"  # the summary view shows the path as given

# Routines table: the selected routine's callers in Details
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Routines ────────────────────────────────────────
plist-func…iming.txt│Routine                              Module            Hits
  PLIST report      │main                                 C:\src…\main.obj     1
    Summary (28)    │CMainFrame::OnPaint(CDC *)           C:\src…\view.obj    51
    Routines (14)   │compute_sum(int, char, double)       C:\s…\solver.obj    53
    Call trace (21) │parse, then check (v2)               C:\src…\main.obj    73
    Attri…tacks (21)│?Render@CView@@UAEXPAVCDC@@@Z        C:\src…\view.obj    26
                    │?foo@@YAXH@Z                         C:\s…\solver.obj    36
                    │_MATMUL@12                           C:\src…\main.obj    67
                    │SOLVE_SYSTEM                         C:\src…\view.obj    58
                    │std::vector<int,std::allocator<int>… C:\s…\solver.obj    40
                    │operator new(unsigned int)           C:\src…\main.obj    22
                    │qsort_compare (static)               C:\src…\view.obj    55
                    │Never Called(void)                   C:\s…\solver.obj     0
                    │?unused@@YAXXZ                       C:\src…\main.obj     0
                    │─ Details ─[Callers]─ Callees ─────────────────────────────
                    │Routine                 Hits Time with c…      Time
                    │qsort_compare (static)    12    64.529 ms 64.223 ms
                    │SOLVE_SYSTEM              39    87.000 ms 87.000 ms
                    │
                    │
                    │
 plist-func-timing.txt │ routines │ row 2/14                             ? help
SCREEN
)
expect_screen table_details "$(pv_screen $'Shift-Tab j Tab j' plist-func-timing.txt --size 80x24)" "$expected"

# Call-trace tree: a node collapsed with Space
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Call trace ──────────────────────────────────────
plist-func…iming.txt│Routine                        Hits       Time Time with c…
  PLIST report      │▾ main                            1  51.000 ms   818.833 ms
    Summary (28)    │  ▾ operator new(unsigned in…    22   8.356 ms   483.694 ms
    Routines (14)   │    ▸ qsort_compare (static)     27  83.000 ms   337.113 ms
    Call trace (21) │    ▾ std::vector<int,std::a…    40  41.648 ms   138.225 ms
    Attri…tacks (21)│      ▾ qsort_compare (stati…    28  29.000 ms    96.577 ms
                    │          parse, then check …    15  39.787 ms    39.787 ms
                    │          ?Render@CView@@UAE…    26   2.538 ms     2.538 ms
                    │          ?foo@@YAXH@Z           29  25.252 ms    25.252 ms
                    │  ▾ compute_sum(int, char, d…    36   1.592 ms   151.218 ms
                    │    ▾ parse, then check (v2)     36  35.054 ms   149.626 ms
                    │      ▾ ?foo@@YAXH@Z              7  52.818 ms    60.818 ms
                    │          _MATMUL@12              3   8.000 ms     8.000 ms
                    │        _MATMUL@12               30  53.754 ms    53.754 ms
                    │─ Details ─────────────────────────────────────────────────
                    │This view has no details
                    │
                    │
                    │
                    │
                    │
 plist-func-timing.txt │ call-trace │ row 3/15                           ? help
SCREEN
)
expect_screen tree_collapse "$(pv_screen $'Shift-Tab j j Tab j j Space' plist-func-timing.txt --size 80x24)" "$expected"

# Details focused, Right switches to the Callees tab
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Routines ────────────────────────────────────────
plist-func…iming.txt│Routine                              Module            Hits
  PLIST report      │main                                 C:\src…\main.obj     1
    Summary (28)    │CMainFrame::OnPaint(CDC *)           C:\src…\view.obj    51
    Routines (14)   │compute_sum(int, char, double)       C:\s…\solver.obj    53
    Call trace (21) │parse, then check (v2)               C:\src…\main.obj    73
    Attri…tacks (21)│?Render@CView@@UAEXPAVCDC@@@Z        C:\src…\view.obj    26
                    │?foo@@YAXH@Z                         C:\s…\solver.obj    36
                    │_MATMUL@12                           C:\src…\main.obj    67
                    │SOLVE_SYSTEM                         C:\src…\view.obj    58
                    │std::vector<int,std::allocator<int>… C:\s…\solver.obj    40
                    │operator new(unsigned int)           C:\src…\main.obj    22
                    │qsort_compare (static)               C:\src…\view.obj    55
                    │Never Called(void)                   C:\s…\solver.obj     0
                    │?unused@@YAXXZ                       C:\src…\main.obj     0
                    │─ Details ─ Callers ─[Callees]─────────────────────────────
                    │Routine       Hits Time with c…       Time
                    │SOLVE_SYSTEM    18   305.637 us 305.637 us
                    │
                    │
                    │
                    │
 plist-func-timing.txt │ callees │ row 1/1                               ? help
SCREEN
)
expect_screen details_tabs "$(pv_screen $'Shift-Tab j Tab j Tab Right' plist-func-timing.txt --size 80x24)" "$expected"

# The help screen: the live key table
expected=$(cat <<'SCREEN'
─ Help: keys (q, Esc or ? closes; / searches; more below: j, PgDn, G) ──────────
 q                  quit           close the help or a view opened from
                                   another; quit (asks if state would be lost)
 Tab                next-pane      focus the next pane
 Shift-Tab          prev-pane      focus the previous pane
 Up k               up             move up
 Down j             down           move down
 Left h             left           scroll left; Explorer: to the parent;
                                   Details: previous tab
 Right l            right          scroll right; Explorer: open; Details: next
                                   tab (callers, callees, source...)
 PgUp Ctrl-B        page-up        one page up
 PgDn Ctrl-F        page-down      one page down
 Home g             first          first row
 End G              last           last row
 Enter              open           open / drill down; in a tree, expand or
                                   collapse
 Space              toggle         expand or collapse the tree node
 +                  expand         expand the tree node; timeline: zoom in
 -                  collapse       collapse the tree node; timeline: zoom out
 *                  expand-all     expand everything below the node
 Backspace [        back           back in the navigation history
 plist-func-timing.txt │ summary │ row 1/28                              ? help
SCREEN
)
expect_screen help "$(pv_screen $'?' plist-func-timing.txt --size 80x24)" "$expected"

# A bad filter: the caret message, and the previous filter stays
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Routines ────────────────────────────────────────
plist-func…iming.txt│Routine                              Module            Hits
  PLIST report      │CMainFrame::OnPaint(CDC *)           C:\src…\view.obj    51
    Summary (28)    │compute_sum(int, char, double)       C:\s…\solver.obj    53
    Routines (14)   │parse, then check (v2)               C:\src…\main.obj    73
    Call trace (21) │_MATMUL@12                           C:\src…\main.obj    67
    Attri…tacks (21)│SOLVE_SYSTEM                         C:\src…\view.obj    58
                    │qsort_compare (static)               C:\src…\view.obj    55
                    │
                    │
                    │
                    │
                    │
                    │
                    │
                    │─ Details ─[Callers]─ Callees ─────────────────────────────
                    │Routine                 Hits Time with c…      Time
                    │qsort_compare (static)    12    64.529 ms 64.223 ms
                    │SOLVE_SYSTEM              39    87.000 ms 87.000 ms
hits>>3
     ^
expected a value after '>', found '>' at column 6
 plist-func-timing.txt │ routines │ row 1/6 │ filter: hits>50 (6)        ? help
SCREEN
)
expect_screen filter_error_caret "$(pv_screen $'Shift-Tab j Tab\n:filter hits>50<Enter>\n:filter hits>>3<Enter>' plist-func-timing.txt --size 80x24)" "$expected"

# Filter with f, sort chosen with S (ascending module)
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Routines ────────────────────────────────────────
plist-func…iming.txt│Routine                              Module▲           Hits
  PLIST report      │parse, then check (v2)               C:\src…\main.obj    73
    Summary (28)    │_MATMUL@12                           C:\src…\main.obj    67
    Routines (14)   │compute_sum(int, char, double)       C:\s…\solver.obj    53
    Call trace (21) │CMainFrame::OnPaint(CDC *)           C:\src…\view.obj    51
    Attri…tacks (21)│qsort_compare (static)               C:\src…\view.obj    55
                    │
                    │
                    │
                    │
                    │
                    │
                    │
                    │
                    │─ Details ─[Callers]─ Callees ─────────────────────────────
                    │Routine                         Hits Time with c…      Time
                    │compute_sum(int, char, double)    36   149.626 ms 35.054 ms
                    │SOLVE_SYSTEM                      22     3.202 ms  3.202 ms
                    │qsort_compare (static)            15    39.787 ms 39.787 ms
                    │
                    │
 plist-func-timing.txt │ routines │ row 1/5 │ f: hits>50 && time>… (5) │ module
SCREEN
)
expect_screen filter_and_sort "$(pv_screen $'Shift-Tab j Tab\nf\nhits>50 && time>70ms<Enter>\nS j j Enter' plist-func-timing.txt --size 80x24)" "$expected"

# z zooms the focused pane
expected=$(cat <<'SCREEN'
─ Report: Routines ─────────────────────────────────────────────────────────────
Routine                                        Module            Hits       Time
main                                           C:\src…\main.obj     1  51.000 ms
CMainFrame::OnPaint(CDC *)                     C:\src…\view.obj    51 151.223 ms
compute_sum(int, char, double)                 C:\s…\solver.obj    53  79.532 ms
parse, then check (v2)                         C:\src…\main.obj    73  78.043 ms
?Render@CView@@UAEXPAVCDC@@@Z                  C:\src…\view.obj    26   2.538 ms
?foo@@YAXH@Z                                   C:\s…\solver.obj    36  78.070 ms
_MATMUL@12                                     C:\src…\main.obj    67 148.565 ms
SOLVE_SYSTEM                                   C:\src…\view.obj    58  67.857 ms
std::vector<int,std::allocator<int> >::push_b… C:\s…\solver.obj    40  41.648 ms
operator new(unsigned int)                     C:\src…\main.obj    22   8.356 ms
qsort_compare (static)                         C:\src…\view.obj    55 112.000 ms
Never Called(void)                             C:\s…\solver.obj     0          0
?unused@@YAXXZ                                 C:\src…\main.obj     0          0
LOG_MESSAGE                                    C:\src…\view.obj     0          0






 plist-func-timing.txt │ routines │ row 1/14                             ? help
SCREEN
)
expect_screen zoom "$(pv_screen $'Shift-Tab j Tab z' plist-func-timing.txt --size 80x24)" "$expected"

# l scrolls the columns
expected=$(cat <<'SCREEN'
─ Explorer ─────────│─ Report: Routines ────────────────────────────────────────
plist-func…iming.txt│Routine                        Hits       Time Time with c…
  PLIST report      │main                              1  51.000 ms   818.833 ms
    Summary (28)    │CMainFrame::OnPaint(CDC *)       51 151.223 ms   151.529 ms
    Routines (14)   │compute_sum(int, char, doubl…    53  79.532 ms   229.158 ms
    Call trace (21) │parse, then check (v2)           73  78.043 ms   192.615 ms
    Attri…tacks (21)│?Render@CView@@UAEXPAVCDC@@@Z    26   2.538 ms     2.538 ms
                    │?foo@@YAXH@Z                     36  78.070 ms    86.070 ms
                    │_MATMUL@12                       67 148.565 ms   148.565 ms
                    │SOLVE_SYSTEM                     58  67.857 ms   235.999 ms
                    │std::vector<int,std::allocat…    40  41.648 ms   138.225 ms
                    │operator new(unsigned int)       22   8.356 ms   483.694 ms
                    │qsort_compare (static)           55 112.000 ms   433.690 ms
                    │Never Called(void)                0          0            0
                    │?unused@@YAXXZ                    0          0            0
                    │─ Details ─ Callers ─[Callees]─────────────────────────────
                    │Routine                         Hits Time with c…      Time
                    │compute_sum(int, char, double)    36   151.218 ms  1.592 ms
                    │_MATMUL@12                        34    86.811 ms 86.811 ms
                    │SOLVE_SYSTEM                      33    46.110 ms 46.110 ms
                    │operator new(unsigned int)        22   483.694 ms  8.356 ms
                    │
 plist-func-timing.txt │ routines │ row 1/14                             ? help
SCREEN
)
expect_screen hscroll "$(pv_screen $'Shift-Tab j Tab l l' plist-func-timing.txt --size 80x24)" "$expected"

# winIDEA timeline: the call stack at the selected event
expected=$(cat <<'SCREEN'
─ Explorer ──────────────────────│─ Report: Timeline ───────────────────────────────────────────────
rtos.txt                         │ Index      Time Context      Name                          Event
  winIDEA profiler               │     0         0              OS_RunningTask                W
    Summary (14)                 │     1    114 ns ID_TASK_COMM len = CAN_Rx(buf, sizeof(buf… X
    Contexts (5)                 │     2    385 ns ID_TASK_COMM CAN_Process                   S
    Statistics (83)              │     3    385 ns ID_TASK_COMM   memcpy_s                    E
    Statistics (as exported) (56)│     4    453 ns ID_TASK_COMM   memcpy_s                    X
    Timeline (3000)              │     5    453 ns ID_TASK_COMM CAN_Process                   R
    Call trace (581)             │     6    586 ns              iCounter                      W
    Routines (11)                │     7    681 ns ID_TASK_COMM CAN_Process                   S
    Lines (18)                   │     8    681 ns ID_TASK_COMM   CRC_Calc                    E
    Data (13)                    │     9    808 ns              "Test.c"##s_eMode             W
                                 │    10  1.083 us ID_TASK_COMM   CRC_Calc                    X
                                 │    11  1.083 us ID_TASK_COMM CAN_Process                   R
                                 │─ Lanes 0..1.083 us ──────────────────────────────────────────────
                                 │ ID_TASK_FAST                     │
                                 │ ID_TASK_CONTROL                  │
                                 │ ID_TASK_COMM    █████████████████████████████████████████████████
                                 │ ID_TASK_IDLE                     │
                                 │ ID_ISR_TIMER                     │
                                 │                 ┴0.0us───────────^────┴0.5us─────────────────────
                                 │─ Details ─[Call stack]─ Statistics of the area ──────────────────
                                 │ Position Routine         Handle Context        Entered
                                 │        0 CAN_Process 0x00000007 ID_TASK_COMM         0
                                 │        1 Task_Comm   0x00000002 ID_TASK_COMM         0
                                 │
                                 │
                                 │
 rtos.txt │ timeline │ row 3/3000                                                            ? help
SCREEN
)
expect_screen timeline_call_stack "$(pv_screen $'Shift-Tab\nj j j j\nTab j j' rtos.txt --size 100x30)" "$expected"

# winIDEA timeline: the lane strip (a lane per context, the cursor column at the selected event)
expected=$(cat <<'SCREEN'
─ Explorer ──────────────────────│─ Report: Timeline ───────────────────────────────────────────────
rtos.txt                         │ Index       Time Context      Name                         Event
  winIDEA profiler               │  1491 167.767 us ID_TASK_IDLE Idle_Loop                    S
    Summary (14)                 │  1492 167.767 us ID_TASK_IDLE   Idle_Hook                  E
    Contexts (5)                 │  1493 167.767 us              AUX_IN0                      W
    Statistics (83)              │  1494 167.947 us ID_TASK_IDLE   Idle_Hook                  X
    Statistics (as exported) (56)│  1495 167.947 us ID_TASK_IDLE Idle_Loop                    R
    Timeline (3000)              │  1496 167.947 us              OS_RunningTask               W
    Call trace (581)             │  1497 167.947 us ID_TASK_FAST Task_Fast                    E
    Routines (11)                │  1498 168.249 us ID_TASK_FAST   {                          E
    Lines (18)                   │  1499 168.532 us ID_TASK_FAST   {                          S
    Data (13)                    │  1500 168.532 us ID_TASK_FAST Task_Fast                    S
                                 │  1501 168.532 us ID_TASK_FAST     Sensor_Read              E
                                 │  1502 168.761 us              AUX_IN0                      W
                                 │  1503 169.099 us ID_TASK_FAST     Sensor_Read              S
                                 │  1504 169.099 us ID_TASK_FAST       CRC_Calc               E
                                 │  1505 169.159 us ID_TASK_FAST       CRC_Calc               X
                                 │  1506 169.159 us ID_TASK_FAST     Sensor_Read              R
                                 │  1507 169.544 us ID_TASK_FAST     Sensor_Read              X
                                 │─ Lanes 167.767 us..169.544 us ───────────────────────────────────
                                 │ ID_TASK_FAST        ▏████████████████████████████████████████████
                                 │ ID_TASK_CONTROL                            │
                                 │ ID_TASK_COMM                               │
                                 │ ID_TASK_IDLE    █████                      │
                                 │ ID_ISR_TIMER                               │
                                 │                 ──────┴168.0us─────────────^─────┴169.0us────────
                                 │─ Details ─ Call stack ─[Statistics of the area]──────────────────
                                 │ Id     Handle Type  Name     Count       Net   Net min   Net max
                                 │ 83 0x40000000 aux   AUX_IN0     77         0         0         0
                                 │
                                 │
                                 │
                                 │
                                 │
                                 │
                                 │
                                 │
                                 │
 rtos.txt │ timeline │ row 1503/3000                                                         ? help
SCREEN
)
expect_screen timeline_lanes "$(pv_screen $'Shift-Tab\nj j j j\nTab\n:goto #1500<Enter>\nj j j' rtos.txt --size 100x40)" "$expected"

# The lane strip in ASCII: # for events, | for the cursor
expected=$(cat <<'SCREEN'
- Explorer ----------------------|- Report: Timeline -----------------------------------------------
rtos.txt                         | Index       Time Context      Name                         Event
  winIDEA profiler               |  1491 167.767 us ID_TASK_IDLE Idle_Loop                    S
    Summary (14)                 |  1492 167.767 us ID_TASK_IDLE   Idle_Hook                  E
    Contexts (5)                 |  1493 167.767 us              AUX_IN0                      W
    Statistics (83)              |  1494 167.947 us ID_TASK_IDLE   Idle_Hook                  X
    Statistics (as exported) (56)|  1495 167.947 us ID_TASK_IDLE Idle_Loop                    R
    Timeline (3000)              |  1496 167.947 us              OS_RunningTask               W
    Call trace (581)             |  1497 167.947 us ID_TASK_FAST Task_Fast                    E
    Routines (11)                |  1498 168.249 us ID_TASK_FAST   {                          E
    Lines (18)                   |  1499 168.532 us ID_TASK_FAST   {                          S
    Data (13)                    |  1500 168.532 us ID_TASK_FAST Task_Fast                    S
                                 |  1501 168.532 us ID_TASK_FAST     Sensor_Read              E
                                 |  1502 168.761 us              AUX_IN0                      W
                                 |  1503 169.099 us ID_TASK_FAST     Sensor_Read              S
                                 |  1504 169.099 us ID_TASK_FAST       CRC_Calc               E
                                 |  1505 169.159 us ID_TASK_FAST       CRC_Calc               X
                                 |  1506 169.159 us ID_TASK_FAST     Sensor_Read              R
                                 |  1507 169.544 us ID_TASK_FAST     Sensor_Read              X
                                 |- Lanes 167.767 us..169.544 us -----------------------------------
                                 | ID_TASK_FAST        #############################################
                                 | ID_TASK_CONTROL                            |
                                 | ID_TASK_COMM                               |
                                 | ID_TASK_IDLE    #####                      |
                                 | ID_ISR_TIMER                               |
                                 |                 ------|168.0us-------------^-----|169.0us--------
                                 |- Details - Call stack -[Statistics of the area]------------------
                                 | Id     Handle Type  Name     Count       Net   Net min   Net max
                                 | 83 0x40000000 aux   AUX_IN0     77         0         0         0
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
 rtos.txt | timeline | row 1503/3000                                                         ? help
SCREEN
)
expect_screen timeline_lanes_ascii "$(pv_screen $'Shift-Tab\nj j j j\nTab\n:goto #1500<Enter>\nj j j' rtos.txt --size 100x40 --ascii)" "$expected"

# winIDEA call trace in ASCII, grouped by context: Enter collapses a call, Details shows its events
expected=$(cat <<'SCREEN'
- Explorer ----------------------|- Report: Call trace ---------------------------------------------
rtos.txt                         | Call no Routine               Context           Time Time with c>
  winIDEA profiler               |         - ID_TASK_FAST        ID_TASK_FAST
    Summary (14)                 |       1   - Task_Fast         ID_TASK_FAST  1.169 us     1.520 us
    Contexts (5)                 |       2       "Test.c"#Static ID_TASK_FAST    351 ns       351 ns
    Statistics (83)              |       3   + Task_Fast         ID_TASK_FAST  2.139 us     6.989 us
    Statistics (as exported) (56)|      12   - Task_Fast         ID_TASK_FAST  1.040 us     3.543 us
    Timeline (3000)              |      13     - Sensor_Read     ID_TASK_FAST    744 ns     1.215 us
    Call trace (581)             |      14         CRC_Calc      ID_TASK_FAST    147 ns       147 ns
    Routines (11)                |      15         CRC_Calc      ID_TASK_FAST    324 ns       324 ns
    Lines (18)                   |      16       "Test.c"#Static ID_TASK_FAST    254 ns       254 ns
    Data (13)                    |      17     - "Test.c"#Static ID_TASK_FAST    749 ns     1.034 us
                                 |      18         memcpy_s      ID_TASK_FAST    285 ns       285 ns
                                 |      19   - Task_Fast         ID_TASK_FAST    969 ns     6.220 us
                                 |      20     - "Test.c"#Static ID_TASK_FAST  1.151 us     1.258 us
                                 |      21         memcpy_s      ID_TASK_FAST    107 ns       107 ns
                                 |      22     - "Test.c"#Static ID_TASK_FAST  2.253 us     3.113 us
                                 |      23         memcpy_s      ID_TASK_FAST    320 ns       320 ns
                                 |      24         memcpy_s      ID_TASK_FAST    155 ns       155 ns
                                 |- Details -[Events of the call]-----------------------------------
                                 | Index      Time     Handle Name                Event   Depth
                                 |   236 29.882 us 0x00000000 Task_Fast           E           0
                                 |   237 30.145 us 0x00000000 Task_Fast           S           0
                                 |   238 30.145 us 0x00000005 "Test.c"#Static     E           1
                                 |   239 30.372 us 0x1000000C {                   E           2
                                 |   240 30.372 us 0x1000000C {                   X           2
                                 |   241 30.525 us 0x1000000D s_eMode = MODE_RUN; E           2
                                 |   242 30.565 us 0x1000000D s_eMode = MODE_RUN; S           2
 rtos.txt | call-trace | row 4/578                                                           ? help
SCREEN
)
expect_screen call_trace_events_ascii "$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j j Enter' rtos.txt --size 100x30 --ascii)" "$expected"

# Enter on a leaf call drills down: its events become the Report
expected=$(cat <<'SCREEN'
- Explorer ----------------------|- Report: Events of the call of Task_Fast (Call trace) -----------
rtos.txt                         | Index      Time     Handle Name            Event   Depth
  winIDEA profiler               |    73  8.314 us 0x00000005 "Test.c"#Static E           2
    Summary (14)                 |    74  8.415 us 0x1000000C {               E           3
    Contexts (5)                 |    75  8.634 us 0x1000000C {               X           3
    Statistics (83)              |    76  8.665 us 0x00000005 "Test.c"#Static X           2
    Statistics (as exported) (56)|
    Timeline (3000)              |
    Call trace (581)             |
    Routines (11)                |
    Lines (18)                   |
    Data (13)                    |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |- Details --------------------------------------------------------
                                 |This view has no details
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
                                 |
 rtos.txt | call-events | row 1/4                                                            ? help
SCREEN
)
expect_screen call_trace_drill_ascii "$(pv_screen $'Shift-Tab\nj j j j j\nTab\nj j Enter' rtos.txt --size 100x30 --ascii)" "$expected"

# AQTime reference counts: the object's ref-count call tree tab (a tree in Details)
expected=$(cat <<'SCREEN'
─ Explorer ──────────────│─ Report: Objects ────────────────────────────────────────────────────────
aqtime-refcount.db       │ Id   # Class Name     Address  Size  Thread Live Refere… Peak Refere… To…
  Leaks - first run      │  1   1 CFile         0x400000   376    2204            1            1   2
    Summary (5)          │  2   2 HANDLE<Event> 0x400100   312    2808            1            2   2
    Classes Data (4)     │  3   3 CString       0x400200   496    2808            1            1   2
    Objects (8)          │  4   4 CFile         0x400300    40    2808            2            2   2
    References (25)      │  5   5 CBitmap       0x400400   520    2204            0            1   2
    Threads (2)          │  6   6 CFile         0x400500   216    2204            2            3   3
  Second run             │  7   7 HANDLE<Event> 0x400600   432    2204            3            3   3
    Summary (5)          │  8   8 CFile         0x400700   656    2204            1            1   2
    Classes Data (4)     │
    Objects (8)          │
    References (37)      │
    Threads (2)          │
                         │
                         │
                         │
                         │
                         │
                         │─ Details ─ Creation Call Stack ─ References ─[Call Tree]─────────────────
                         │ Id Routine           RefCount Ch… Routine Hit…  Source Line Module  Sour…
                         │ 11 ▾ <Root>                     1            7           10
                         │ 12   ▾ Thread 2808             -2            2           11
                         │ 13     ▾ main                   2            2           12 com.dll obj0…
                         │ 14         main                 0            5           13 com.dll obj0…
                         │ 15       OpenFile               0            5           14 com.dll obj4…
                         │ 16       Worker::Run            2            4           15 com.dll obj5…
                         │
 aqtime-refcount.db │ refcount-tree │ row 1/6                                                ? help
SCREEN
)
expect_screen aqtime_objects_refcount_tree "$(pv_screen $'Shift-Tab j j Tab j j\nTab Right Right' aqtime-refcount.db --size 100x30)" "$expected"

# AQTime function trace, second result set: the call trace grouped by thread, its lane strip a lane per thread over the rows' order
expected=$(cat <<'SCREEN'
─ Explorer ──────────────│─ Report: Call Trace ─────────────────────────────────────────────────────
aqtime-trace.db          │ Id  Call No Routine                             Thread CPU Cache M… CPU …
  Run 1 - Elapsed Time   │             ▾ Thread 7001                         7001
    Summary (8)          │  1        1   ▾ WinMain                           7001        12898 34104
    Threads (2)          │  2        2     ▾ ReadFile(a, b)                  7001         5467 21206
    Call Trace (21)      │  3        3         exit_handler                  7001        15739 15739
    Routines (8)         │  4        4     render\x09frame                   7001        17315 17315
    Call Routes (17)     │             ▾ Thread 7002                         7002
    Lines (24)           │  5        1     WinMain                           7002         4194  4194
  Run 2 - Cache Misses   │  6        2   ▾ render\x09frame                   7002         9195 1872…
    Summary (8)          │  7        3     ▾ render\x09frame                 7002         1612 54606
    Threads (2)          │  8        4       ▾ CDocument::Serialize          7002         8922 52994
    Call Trace (23)      │  9        5         ▾ fib                         7002        15399 44072
    Routines (8)         │ 10        6           ▾ render\x09frame           7002        15215 28673
    Call Routes (20)     │ 11        7               CDocument::Serialize    7002         1672  1672
    Lines (24)           │ 12        8               CDocument::Serialize    7002        11786 11786
                         │ 13        9     ▾ CDocument::Serialize            7002         8326 1234…
                         │ 14       10       ▾ CDocument::Serialize          7002         2871 1150…
                         │─ Lanes rows 1..25 ───────────────────────────────────────────────────────
                         │ Thread 7001 █████████████
                         │ Thread 7002 │           █████████████████████████████████████████████████
                         │─ Details ─[Parameters on enter]─ Parameters on exit ─────────────────────
                         │Nothing of this kind for the selected row
                         │
                         │
                         │
                         │
                         │
 aqtime-trace.db │ call-trace │ row 1/25                                                     ? help
SCREEN
)
expect_screen aqtime_second_result_set "$(pv_screen $'Shift-Tab\nG k k k\nTab' aqtime-trace.db --size 100x30)" "$expected"

# AQTime call trace in ASCII: the lane strip (a lane per thread over the rows' order, the cursor column at the selected call)
expected=$(cat <<'SCREEN'
- Explorer --------------|- Report: Call Trace -----------------------------------------------------
aqtime-trace.db          | Id  Call No Routine                                     Thread       Time
  Run 1 - Elapsed Time   |             - Thread 4120                                 4120
    Summary (8)          |  1        1   - main                                      4120 298.921 us
    Threads (2)          |  2        2       load_config                             4120   3.596 ms
    Call Trace (21)      |  3        3     - Matrix::multiply                        4120   4.326 ms
    Routines (8)         |  4        4       - parse_args                            4120   1.257 ms
    Call Routes (17)     |  5        5           fib                                 4120   2.933 ms
    Lines (24)           |  6        6           fib                                 4120   2.813 ms
  Run 2 - Cache Misses   |  7        7           fib                                 4120   2.107 ms
    Summary (8)          |  8        8       log_write                               4120   3.203 ms
    Threads (2)          |  9        9   - log_write                                 4120   2.310 ms
    Call Trace (23)      | 10       10       Matrix::multiply                        4120   1.183 ms
    Routines (8)         | 11       11     - parse_args                              4120 276.851 us
    Call Routes (20)     | 12       12       - qsort_r                               4120 845.079 us
    Lines (24)           | 13       13         - log_write                           4120   4.576 ms
                         | 14       14           - load_config                       4120   1.107 ms
                         | 15       15               operator<<(std::ostream&, i>    4120 986.718 us
                         |- Lanes rows 1..23 -------------------------------------------------------
                         | Thread 4120 ######################################################
                         | Thread 5332                   |                                  ########
                         |- Details -[Parameters on enter]- Parameters on exit ---------------------
                         | Id  Param No Param Type   Param Value   Rec Id
                         |  5         1 int          528                0
                         |  6         2 const char * "a,b"              1
                         |
                         |
                         |
 aqtime-trace.db | call-trace | row 8/23                                                     ? help
SCREEN
)
expect_screen aqtime_trace_lanes_ascii "$(pv_screen $'Shift-Tab\nj j\nTab\nj j j j j j j' aqtime-trace.db --size 100x30 --ascii)" "$expected"

# <Dump> writes intermediate screens; Backspace returns from a drill-down.
s=$(pv_screen $'Shift-Tab j Tab j\n<Dump>\nEnter\n<Dump>\nBackspace' plist-func-timing.txt --size 80x24)
[ "$(printf '%s\n' "$s" | grep -c '^----$')" = 2 ] || fail "two <Dump> separators expected"
first=$(awk '/^----$/ { f = 1 } !f { print }' <<<"$s")
last=$(printf '%s\n' "$s" | awk 'f == 2 { print } /^----$/ { f++ }')
expect_contains "drill-down shows the callers as the report" "$(printf '%s\n' "$s" | awk 'f == 1 { print } /^----$/ { f++ }')" "Report: Callers of "
expect_screen back_returns "$last" "$first"

# Every view of every sample (every format, every result set) opens and
# draws: walk the Explorer with a <Dump> per item, then look for each view
# id of `profview info` in a status bar.
for f in *.txt *.db; do
  ids=$("$PROFVIEW" info --json "$f" | grep -o '"id":"[a-z-]*"' | cut -d'"' -f4 | sort -u)
  items=$("$PROFVIEW" info --json "$f" | grep -o '"id":' | wc -l)
  keys=$'Shift-Tab
<Dump>'
  for ((i = 0; i < items + 2; i++)); do keys="$keys"$'
j
<Dump>'; done
  s=$(pv_screen "$keys" "$f" --size 90x26)
  for id in $ids; do
    case "$s" in *"│ $id │"*) ;; *) fail "$f: view $id never shown" ;; esac
  done
done
echo "ok: every view of every sample draws"
echo PASS
