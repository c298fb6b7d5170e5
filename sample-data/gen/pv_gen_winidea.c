/*
 * pv_gen_winidea.c - a deterministic winIDEA profiler-export generator.
 *
 * Simulates a small multi-task RTOS (periodic tasks with priorities, an idle
 * task, a timer ISR) and writes what winIDEA would export for it: a Text1
 * file (docs/formats.md §1) with mapping, per-context statistics and a TIMELINE,
 * or a Text1 mapping + statistics with a BIN v1.0 / v1.1 timeline beside it
 * (docs/formats.md §2).
 *
 * It shares no code with profview on purpose: the STATISTICS it writes come
 * from the simulation's own bookkeeping of intervals (docs/formats.md §3), so
 * profview's recomputation from the timeline can be checked against them.
 *
 * Output is a pure function of the command line (seeded PRNG, no clock, no
 * environment): the same arguments give byte-identical files.
 *
 * The simulation runs twice: the first pass only keeps the statistics (the
 * header sections need them and INFO needs the end time); the second pass
 * streams the timeline.  Memory is constant whatever --events is.
 *
 * It writes exactly --events events.
 *
 * Usage: pv_gen_winidea [--seed N] [--tasks K] [--events N]
 *                       [--format text|text-ctx|bin10|bin11] [--check] -o PATH
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- deterministic PRNG (splitmix64) */

static uint64_t rng_state;

static uint64_t rng_next(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform-enough integer in [lo, hi]. */
static int64_t rng_range(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng_next() % (uint64_t)(hi - lo + 1));
}

static int rng_percent(void) { return (int)(rng_next() % 100u); }

/* ---- the program being "profiled": areas */

#define MAX_TASKS 8
#define MAX_CONTEXTS (MAX_TASKS + 2) /* tasks, idle, ISR */
#define MAX_AREAS 128
#define MAX_DEPTH 12
#define MAX_CALLEES 4

typedef struct area {
    uint32_t handle;
    bool is_line;
    char name[64];
    int line_no;            /* lines: source line number */
    int func;               /* lines: index of the function area */
    /* functions only: */
    int first_line, line_count; /* its line areas are areas[first_line .. +line_count) */
    int callees[MAX_CALLEES];
    int callee_count;
    int min_steps, max_steps;
    bool endless;           /* never returns (the idle loop) */
} area;

static area areas[MAX_AREAS];
static int area_count;

static int add_function(const char *name, int min_steps, int max_steps, const char *const *lines,
                        int line_count)
{
    static int func_handles, line_handles;
    int f = area_count++;
    area *a = &areas[f];
    memset(a, 0, sizeof *a);
    a->handle = (uint32_t)func_handles++;
    snprintf(a->name, sizeof a->name, "%s", name);
    a->min_steps = min_steps;
    a->max_steps = max_steps;
    a->first_line = area_count;
    a->line_count = line_count;
    for (int i = 0; i < line_count; i++) {
        area *l = &areas[area_count++];
        memset(l, 0, sizeof *l);
        l->handle = 0x10000000u + (uint32_t)line_handles++;
        l->is_line = true;
        snprintf(l->name, sizeof l->name, "%s", lines[i]);
        l->line_no = 10 + 20 * f + i;
        l->func = f;
    }
    return f;
}

static void add_callee(int f, int callee) { areas[f].callees[areas[f].callee_count++] = callee; }

/* Data areas (docs/formats.md §1: 2xxxxxxx variables, 3xxxxxxx their states,
 * 4xxxxxxx AUX). */
enum { VAR_CONTEXT = 0, VAR_COUNTER = 1, VAR_MODE = 2, VAR_COUNT = 3 };
#define MODE_STATES 4
static const char *const var_names[VAR_COUNT] = {"OS_RunningTask", "iCounter",
                                                 "\"Test.c\"##s_eMode"};
static const char *const aux_name = "AUX_IN0";

/* ---- contexts */

typedef struct context {
    char name[32];
    const char *prefix; /* "TSK: " or "ISR: " in STATISTICS headers */
    int body;           /* function run on activation */
    int64_t period;     /* tasks: release period in ns; 0 idle/ISR */
    int64_t next_release;
    bool pending;
} context;

static context contexts[MAX_CONTEXTS];
static int context_count, task_count, idle_ctx, isr_ctx;

static const char *const task_names[MAX_TASKS] = {
    "ID_TASK_FAST", "ID_TASK_CONTROL", "ID_TASK_COMM", "ID_TASK_DIAG",
    "ID_TASK_LOG",  "ID_TASK_NVM",     "ID_TASK_HMI",  "ID_TASK_BG"};
static const char *const task_funcs[MAX_TASKS] = {
    "Task_Fast", "Task_Control", "Task_Comm", "Task_Diag",
    "Task_Log",  "Task_Nvm",     "Task_Hmi",  "Task_Bg"};
static const int64_t task_periods[MAX_TASKS] = {20000,  50000,   100000,  200000,
                                                500000, 1000000, 2000000, 5000000};

static void build_program(int tasks)
{
    static const char *const body_lines[] = {"{", "otm(a, b);", "Filter(x, \"raw\");", "}"};
    static const char *const static_lines[] = {"{", "s_eMode = MODE_RUN;", "}"};
    static const char *const can_lines[] = {"{", "len = CAN_Rx(buf, sizeof(buf));", "}"};
    int body[MAX_TASKS];

    task_count = tasks;
    for (int i = 0; i < tasks; i++)
        body[i] = add_function(task_funcs[i], 2, 6, body_lines, 4);
    int idle = add_function("Idle_Loop", 0, 0, NULL, 0);
    areas[idle].endless = true;
    int isr = add_function("ISR_Timer", 1, 3, NULL, 0);
    int stat = add_function("\"Test.c\"#Static", 1, 4, static_lines, 3);
    int sensor = add_function("Sensor_Read", 1, 3, NULL, 0);
    int can = add_function("CAN_Process", 1, 3, can_lines, 3);
    int crc = add_function("CRC_Calc", 0, 2, NULL, 0);
    int copy = add_function("memcpy_s", 0, 1, NULL, 0);
    int hook = add_function("Idle_Hook", 0, 1, NULL, 0);

    int mids[3] = {stat, sensor, can};
    for (int i = 0; i < tasks; i++) {
        add_callee(body[i], mids[i % 3]);
        add_callee(body[i], mids[(i + 1) % 3]);
    }
    add_callee(idle, hook);
    add_callee(isr, can);
    add_callee(isr, crc);
    add_callee(stat, crc);
    add_callee(stat, copy);
    add_callee(sensor, crc);
    add_callee(can, copy);
    add_callee(can, crc);

    for (int i = 0; i < tasks; i++) {
        context *c = &contexts[context_count++];
        snprintf(c->name, sizeof c->name, "%s", task_names[i]);
        c->prefix = "TSK: ";
        c->body = body[i];
        c->period = task_periods[i];
    }
    idle_ctx = context_count++;
    snprintf(contexts[idle_ctx].name, sizeof contexts[idle_ctx].name, "ID_TASK_IDLE");
    contexts[idle_ctx].prefix = "TSK: ";
    contexts[idle_ctx].body = idle;
    isr_ctx = context_count++;
    snprintf(contexts[isr_ctx].name, sizeof contexts[isr_ctx].name, "ID_ISR_TIMER");
    contexts[isr_ctx].prefix = "ISR: ";
    contexts[isr_ctx].body = isr;
}

/* ---- statistics bookkeeping (docs/formats.md §3, whole recording) */

/* Statistics of one (area, context), or of one data area / state. */
typedef struct stat {
    bool seen;          /* had at least one event: only such rows are written */
    int64_t count;      /* E events (functions, lines), writes (variables, AUX), entries (states) */
    int64_t net, gross, call;         /* totals, incl. implicit and still-open activations */
    int64_t net_min, net_max, gross_min, gross_max, call_min, call_max; /* complete only */
    int64_t complete;                 /* number of complete activations */
    int64_t period_n, period_sum, period_min, period_max;
    int64_t outside_n, outside_sum, outside_min, outside_max;
    bool has_last_entry, has_last_exit;
    int64_t last_entry, last_exit;
} stat;

static stat func_stats[MAX_AREAS][MAX_CONTEXTS];
static stat var_stats[VAR_COUNT];
static stat state_stats[VAR_COUNT][MAX_CONTEXTS > MODE_STATES ? MAX_CONTEXTS : MODE_STATES];
static stat aux_stats;

/* One activation of an area (function or line) on a context's stack.
 *
 * Time bookkeeping, kept obviously right:
 *  - call  = wall time from entry to exit:   exit_time - entry_wall.
 *  - gross = time inside while the context runs: every context has a "run
 *            clock" that advances only while it is the running context
 *            (run_clock below), so gross = run_clock(exit) - run_clock(entry).
 *  - net   = time active while the context runs: each [E|R, S|X) interval
 *            adds run_clock(end) - run_clock(start).
 * Implicit frames (already open when the recording starts) have entry 0 on
 * both clocks, since the recording starts at time 0 with every run clock 0. */
typedef struct frame {
    int area;
    bool implicit;
    bool active;
    bool line_called;      /* lines: already made their call */
    int steps_left;        /* functions: body steps still to run */
    int next_line;         /* functions: which of its lines comes next */
    int64_t entry_wall, entry_run, active_since_run, net;
    /* --check: the same quantities accumulated tick by tick */
    int64_t slow_call, slow_gross, slow_net;
} frame;

typedef struct stack {
    frame f[MAX_DEPTH];
    int depth;
} stack;

static stack stacks[MAX_CONTEXTS];
static int64_t now;            /* simulated time, ns */
static int running = -1;       /* running context (the context area's state) */
static int64_t run_total[MAX_CONTEXTS], run_since;
static bool check_mode;

static int64_t run_clock(int c) { return run_total[c] + (c == running ? now - run_since : 0); }

static void minmax(int64_t v, int64_t *mn, int64_t *mx, bool first)
{
    if (first || v < *mn)
        *mn = v;
    if (first || v > *mx)
        *mx = v;
}

static void check_failed(const char *what, int area_index, int64_t lazy, int64_t slow)
{
    fprintf(stderr, "pv_gen_winidea: --check: %s of %s: %" PRId64 " != %" PRId64 "\n", what,
            areas[area_index].name, lazy, slow);
    exit(3);
}

/* Closes frame fr of context c at the current time: its totals go to the
 * area's statistics; MIN/MAX only for a complete activation. */
static void frame_close(int c, frame *fr, bool complete)
{
    stat *s = &func_stats[fr->area][c];
    if (fr->active)
        fr->net += run_clock(c) - fr->active_since_run;
    int64_t call = now - fr->entry_wall;
    int64_t gross = run_clock(c) - fr->entry_run;
    if (check_mode) {
        if (call != fr->slow_call)
            check_failed("call", fr->area, call, fr->slow_call);
        if (gross != fr->slow_gross)
            check_failed("gross", fr->area, gross, fr->slow_gross);
        if (fr->net != fr->slow_net)
            check_failed("net", fr->area, fr->net, fr->slow_net);
    }
    s->net += fr->net;
    s->gross += gross;
    s->call += call;
    if (complete) {
        bool first = s->complete == 0;
        minmax(fr->net, &s->net_min, &s->net_max, first);
        minmax(gross, &s->gross_min, &s->gross_max, first);
        minmax(call, &s->call_min, &s->call_max, first);
        s->complete++;
    }
}

/* Time passes: the only place `now` moves. */
static void advance(int64_t d)
{
    if (check_mode) {
        for (int c = 0; c < context_count; c++)
            for (int i = 0; i < stacks[c].depth; i++) {
                frame *fr = &stacks[c].f[i];
                fr->slow_call += d;
                if (c == running) {
                    fr->slow_gross += d;
                    if (fr->active)
                        fr->slow_net += d;
                }
            }
    }
    now += d;
}

/* ---- output */

enum { FMT_TEXT, FMT_TEXT_CTX, FMT_BIN10, FMT_BIN11 };

typedef struct sink {
    FILE *f;      /* NULL: first pass, nothing is written */
    int format;
    char *buf;
    size_t len, cap;
    const char *path;
} sink;

static sink out;
static int64_t event_count;

static void sink_flush(sink *s)
{
    if (s->f && s->len && fwrite(s->buf, 1, s->len, s->f) != s->len) {
        fprintf(stderr, "pv_gen_winidea: %s: write failed\n", s->path);
        exit(2);
    }
    s->len = 0;
}

static void sink_reserve(sink *s, size_t n)
{
    if (s->len + n > s->cap)
        sink_flush(s);
}

static const char hex_digits[] = "0123456789ABCDEF";

static void put_hex8(char *p, uint32_t v)
{
    for (int i = 7; i >= 0; i--) {
        p[i] = hex_digits[v & 0xF];
        v >>= 4;
    }
}

/* Writes a signed decimal; returns its length. */
static size_t put_dec(char *p, int64_t v)
{
    char tmp[24];
    size_t n = 0, len = 0;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (v < 0)
        p[len++] = '-';
    while (n)
        p[len++] = tmp[--n];
    return len;
}

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Emits one timeline event at `now`.  kind: 'E','S','R','X','W'.  ctx is the
 * context of a function/line event, -1 for a data event. */
static void emit(uint32_t handle, char kind, bool has_value, uint32_t value, int ctx)
{
    event_count++;
    if (!out.f)
        return;
    sink_reserve(&out, 128);
    char *p = out.buf + out.len;
    if (out.format == FMT_BIN10 || out.format == FMT_BIN11) {
        static const char codes[] = "XSREW"; /* docs/formats.md §2: X0 S1 R2 E3 W4 */
        uint32_t code = (uint32_t)(strchr(codes, kind) - codes);
        /* v1.1: core index 0 (a single-core target) in bits 4-11 */
        uint32_t word = out.format == FMT_BIN10 ? code << 24 : code;
        unsigned char *r = (unsigned char *)p;
        put_le(r, handle, 4);
        put_le(r + 4, word, 4);
        put_le(r + 8, has_value ? value : 0, 8);
        put_le(r + 16, (uint64_t)now, 8);
        out.len += 24;
        return;
    }
    size_t n = 0;
    if (out.format == FMT_TEXT_CTX) {
        /* %TIME%,%CONTEXT%,%HANDLE%,%EVENT%,%VALUE% */
        n += put_dec(p + n, now);
        p[n++] = ',';
        if (ctx >= 0) {
            size_t l = strlen(contexts[ctx].name);
            memcpy(p + n, contexts[ctx].name, l);
            n += l;
        }
        p[n++] = ',';
        put_hex8(p + n, handle);
        n += 8;
        p[n++] = ',';
        p[n++] = kind;
        p[n++] = ',';
        if (has_value) {
            put_hex8(p + n, value);
            n += 8;
        }
    } else {
        /* %HANDLE%,%EVENT%,%VALUE%,%TIME% */
        put_hex8(p, handle);
        n = 8;
        p[n++] = ',';
        p[n++] = kind;
        p[n++] = ',';
        if (has_value) {
            put_hex8(p + n, value);
            n += 8;
        }
        p[n++] = ',';
        n += put_dec(p + n, now);
    }
    p[n++] = '\n';
    out.len += n;
}

/* ---- events with their bookkeeping */

static void func_event(int c, frame *fr, char kind)
{
    func_stats[fr->area][c].seen = true;
    emit(areas[fr->area].handle, kind, false, 0, c);
}

/* E: push a new activation of `a` on context c. */
static frame *ev_entry(int c, int a)
{
    stack *st = &stacks[c];
    if (st->depth == MAX_DEPTH) {
        fprintf(stderr, "pv_gen_winidea: internal: stack overflow\n");
        exit(3);
    }
    stat *s = &func_stats[a][c];
    s->count++;
    /* period: E to the next E; outside: X to the next E (docs/formats.md §3) */
    if (s->has_last_entry) {
        int64_t p = now - s->last_entry;
        minmax(p, &s->period_min, &s->period_max, s->period_n == 0);
        s->period_sum += p;
        s->period_n++;
    }
    s->has_last_entry = true;
    s->last_entry = now;
    if (s->has_last_exit) {
        int64_t o = now - s->last_exit;
        minmax(o, &s->outside_min, &s->outside_max, s->outside_n == 0);
        s->outside_sum += o;
        s->outside_n++;
        s->has_last_exit = false;
    }
    frame *fr = &st->f[st->depth++];
    memset(fr, 0, sizeof *fr);
    fr->area = a;
    fr->active = true;
    fr->entry_wall = now;
    fr->entry_run = run_clock(c);
    fr->active_since_run = fr->entry_run;
    if (!areas[a].is_line)
        fr->steps_left = (int)rng_range(areas[a].min_steps, areas[a].max_steps);
    func_event(c, fr, 'E');
    return fr;
}

static void ev_suspend(int c, frame *fr)
{
    fr->net += run_clock(c) - fr->active_since_run;
    fr->active = false;
    func_event(c, fr, 'S');
}

static void ev_resume(int c, frame *fr)
{
    fr->active = true;
    fr->active_since_run = run_clock(c);
    func_event(c, fr, 'R');
}

/* X: the top frame of context c returns. */
static void ev_exit(int c)
{
    stack *st = &stacks[c];
    frame *fr = &st->f[st->depth - 1];
    stat *s = &func_stats[fr->area][c];
    func_event(c, fr, 'X');
    frame_close(c, fr, !fr->implicit);
    s->has_last_exit = true;
    s->last_exit = now;
    st->depth--;
}

/* A state variable changes state (the context area, or s_eMode): count =
 * entries into the state, net = time in it until the next change. */
static void ev_state(int var, uint32_t value, int *current, int64_t *since)
{
    if (*current >= 0)
        state_stats[var][*current].net += now - *since;
    *current = (int)value;
    *since = now;
    state_stats[var][value].count++;
    state_stats[var][value].seen = true;
    var_stats[var].count++;
    var_stats[var].seen = true;
    if (out.format == FMT_TEXT_CTX) /* TimelineStates unchecked: E on the state handle */
        emit(0x30000000u + (uint32_t)var, 'E', true, value, -1);
    else                            /* TimelineStates checked: W on the variable */
        emit(0x20000000u + (uint32_t)var, 'W', true, value, -1);
}

static int state_current[VAR_COUNT];
static int64_t state_since[VAR_COUNT];

/* text-ctx: the TIMELINE names each event's context (%CONTEXT%) and also
 * has the context area.  running(c) follows the area (docs/winidea-model.md,
 * "Which context runs"), so here a quarter of the switches are followed by a
 * long gap (1-4 us) before the new context's first event: a reader that took
 * the running context from the latest %CONTEXT% would charge that gap to
 * the context switched away from. */
static bool gap_after_switch;
static int64_t pending_gap;

static void switch_context(int c)
{
    if (gap_after_switch && rng_percent() < 25)
        pending_gap = rng_range(1000, 4000);
    if (running >= 0)
        run_total[running] += now - run_since;
    running = c;
    run_since = now;
    ev_state(VAR_CONTEXT, (uint32_t)c, &state_current[VAR_CONTEXT], &state_since[VAR_CONTEXT]);
}

static uint32_t counter_value;

static void ev_write(void)
{
    int r = rng_percent();
    if (r < 50) {
        var_stats[VAR_COUNTER].count++;
        var_stats[VAR_COUNTER].seen = true;
        emit(0x20000000u + VAR_COUNTER, 'W', true, ++counter_value, -1);
    } else if (r < 80) {
        /* always a different state, so every write is an entry */
        uint32_t v = (uint32_t)(state_current[VAR_MODE] + 1 + (int)rng_range(0, MODE_STATES - 2)) %
                     MODE_STATES;
        if (state_current[VAR_MODE] < 0)
            v = (uint32_t)rng_range(0, MODE_STATES - 1);
        ev_state(VAR_MODE, v, &state_current[VAR_MODE], &state_since[VAR_MODE]);
    } else {
        aux_stats.count++;
        aux_stats.seen = true;
        emit(0x40000000u, 'W', true, (uint32_t)rng_range(0, 4095), -1);
    }
}

/* ---- the simulation */

static int64_t duration(void)
{
    /* some zero-length steps: entry and exit at the same ns */
    return rng_percent() < 5 ? 0 : rng_range(10, 400);
}

/* Returns from the top function of context c: X, then the caller (and the
 * caller's line, if the call came from one) resumes, outer first. */
static void do_return(int c)
{
    stack *st = &stacks[c];
    ev_exit(c);
    if (st->depth == 0)
        return;
    frame *top = &st->f[st->depth - 1];
    if (areas[top->area].is_line) {
        ev_resume(c, &st->f[st->depth - 2]);
        ev_resume(c, top);
    } else {
        ev_resume(c, top);
    }
}

/* A call from function frame fn (and its active line, when ln is not NULL):
 * suspend innermost first, then enter the callee, all at the same ns. */
static void do_call(int c, frame *fn, frame *ln)
{
    const area *f = &areas[fn->area];
    int callee = f->callees[rng_range(0, f->callee_count - 1)];
    if (ln) {
        ln->line_called = true;
        ev_suspend(c, ln);
    }
    ev_suspend(c, fn);
    ev_entry(c, callee);
}

/* One step of the running context c: time passes (and, in text-ctx, the
 * gap after a switch), then 1-3 events. */
static void step(int c)
{
    stack *st = &stacks[c];
    if (pending_gap) {
        advance(pending_gap);
        pending_gap = 0;
    }
    if (st->depth == 0) { /* activation of a task or the ISR */
        contexts[c].pending = false;
        ev_entry(c, contexts[c].body);
        return;
    }
    advance(duration());
    frame *top = &st->f[st->depth - 1];
    if (areas[top->area].is_line) {
        frame *fn = &st->f[st->depth - 2];
        if (!top->line_called && areas[fn->area].callee_count && rng_percent() < 50)
            do_call(c, fn, top);
        else
            ev_exit(c);
        return;
    }
    const area *f = &areas[top->area];
    if (top->steps_left == 0 && !f->endless) {
        do_return(c);
        return;
    }
    if (!f->endless)
        top->steps_left--;
    int r = rng_percent();
    if (f->line_count && r < 50) {
        int line = f->first_line + top->next_line;
        top->next_line = (top->next_line + 1) % f->line_count;
        ev_entry(c, line);
    } else if (f->callee_count && r < 85) {
        do_call(c, top, NULL);
    } else {
        ev_write();
    }
}

static bool isr_pending;
static int64_t isr_next;

/* Highest priority first: the ISR, then tasks in index order, then idle. */
static int pick_context(void)
{
    for (int i = 0; i < task_count; i++)
        while (contexts[i].next_release <= now) {
            contexts[i].pending = true; /* an overrun keeps one activation pending */
            contexts[i].next_release += contexts[i].period;
        }
    if (isr_next <= now) {
        isr_pending = true;
        isr_next = now + rng_range(15000, 60000);
    }
    if (stacks[isr_ctx].depth || isr_pending) {
        if (!stacks[isr_ctx].depth)
            isr_pending = false;
        return isr_ctx;
    }
    for (int i = 0; i < task_count; i++)
        if (stacks[i].depth || contexts[i].pending)
            return i;
    return idle_ctx;
}

static frame *push_implicit(int c, int a, bool active)
{
    frame *fr = &stacks[c].f[stacks[c].depth++];
    memset(fr, 0, sizeof *fr);
    fr->area = a;
    fr->implicit = true;
    fr->active = active;
    if (!areas[a].is_line)
        fr->steps_left = (int)rng_range(areas[a].min_steps, areas[a].max_steps);
    return fr;
}

/* Resets everything and runs the simulation until `events` events exist;
 * returns the end time (the time of the last event). */
static int64_t simulate(uint64_t seed, int64_t events)
{
    rng_state = seed;
    now = 0;
    running = -1;
    run_since = 0;
    event_count = 0;
    counter_value = 0;
    isr_pending = false;
    pending_gap = 0;
    memset(func_stats, 0, sizeof func_stats);
    memset(var_stats, 0, sizeof var_stats);
    memset(state_stats, 0, sizeof state_stats);
    memset(&aux_stats, 0, sizeof aux_stats);
    memset(stacks, 0, sizeof stacks);
    memset(run_total, 0, sizeof run_total);
    for (int v = 0; v < VAR_COUNT; v++) {
        state_current[v] = -1;
        state_since[v] = 0;
    }
    for (int i = 0; i < task_count; i++) {
        contexts[i].pending = false;
        contexts[i].next_release = rng_range(1000, contexts[i].period);
    }
    isr_next = rng_range(5000, 30000);

    /* The recording starts in the middle of things (docs/formats.md §3 implicit
     * frames): the lowest-priority task is inside a call its body made
     * outside any line, and that callee is inside one of its lines (or
     * not).  Innermost first is how they reveal themselves; the idle loop
     * of the preempted idle task is open too.  Bodies with lines never
     * have an implicit suspended line: its R would come after its
     * function's R and reveal the two in the wrong order. */
    int low = task_count - 1;
    int body = contexts[low].body;
    push_implicit(low, body, false);
    int callee = areas[body].callees[0];
    push_implicit(low, callee, true);
    if (areas[callee].line_count) {
        push_implicit(low, areas[callee].first_line + 1, true);
        stacks[low].f[1].next_line = 2;
    }
    push_implicit(idle_ctx, contexts[idle_ctx].body, true);

    switch_context(low); /* the first event: the context area at time 0 */
    /* A switch and a step emit at most 1 + 3 events; the last few are data
     * writes (one event each, no stack touched), so the count is exact. */
    while (event_count < events) {
        if (events - event_count < 4) {
            advance(duration());
            ev_write();
            continue;
        }
        int c = pick_context();
        if (c != running)
            switch_context(c);
        step(c);
    }

    /* The end of the recording is the last event: close what is open. */
    for (int c = 0; c < context_count; c++)
        for (int i = stacks[c].depth - 1; i >= 0; i--)
            frame_close(c, &stacks[c].f[i], false);
    for (int v = 0; v < VAR_COUNT; v++)
        if (state_current[v] >= 0)
            state_stats[v][state_current[v]].net += now - state_since[v];
    return now;
}

/* ---- Text1 header sections */

static const char *eol = "\n";

static int64_t avg(int64_t total, int64_t n) { return n > 0 ? total / n : 0; }

/* The 19 T.* values of a row, in PV_WI_STATS order. */
static void stat_values(const stat *s, int64_t v[19])
{
    int64_t n = s->count;
    int64_t t[19] = {s->net,          s->net_min,     s->net_max,   avg(s->net, n),
                     s->gross,        s->gross_min,   s->gross_max, avg(s->gross, n),
                     s->call,         s->call_min,    s->call_max,  avg(s->call, n),
                     s->period_min,   s->period_max,  avg(s->period_sum, s->period_n),
                     s->outside_sum,  s->outside_min, s->outside_max,
                     avg(s->outside_sum, s->outside_n)};
    memcpy(v, t, sizeof t);
}

/* A data row (variable, state, AUX) carries only count and net; every
 * other column is 0 (docs/formats.md §3). */
static void write_stat_row(FILE *f, uint32_t handle, const char *name, const char *value,
                           const stat *s, bool data)
{
    int64_t v[19];
    stat_values(s, v);
    if (data)
        for (int i = 1; i < 19; i++)
            v[i] = 0;
    fprintf(f, "%08" PRIX32 ",", handle);
    if (name)
        fprintf(f, "%s,", name);
    fprintf(f, "%s,%" PRId64, value, s->count);
    for (int i = 0; i < 19; i++)
        fprintf(f, ",%" PRId64, v[i]);
    fputs(eol, f);
}

static void write_header(FILE *f, int format, int64_t end)
{
    /* rtos-v10 style carries NAME in its statistics (a free-text field with
     * commas) and writes one macro with a blank, as the vendor document does. */
    bool names = format == FMT_BIN10;
    const char *outside_min = format == FMT_BIN10 ? "%T. OUTSIDE.MIN%" : "%T.OUTSIDE.MIN%";
    char stat_format[512];
    snprintf(stat_format, sizeof stat_format,
             "%%HANDLE%%,%s%%VALUE%%,%%COUNT%%,%%T.NET%%,%%T.NET.MIN%%,%%T.NET.MAX%%,"
             "%%T.NET.AVG%%,%%T.GROSS%%,%%T.GROSS.MIN%%,%%T.GROSS.MAX%%,%%T.GROSS.AVG%%,"
             "%%T.CALL%%,%%T.CALL.MIN%%,%%T.CALL.MAX%%,%%T.CALL.AVG%%,%%T.PERIOD.MIN%%,"
             "%%T.PERIOD.MAX%%,%%T.PERIOD.AVG%%,%%T.OUTSIDE%%,%s,%%T.OUTSIDE.MAX%%,"
             "%%T.OUTSIDE.AVG%%",
             names ? "%NAME%," : "", outside_min);

    fprintf(f, "* INFO %%TOTAL_TIME%%%s%" PRId64 "%s%s", eol, end, eol, eol);
    fprintf(f, "* CONTEXTS %%NAME%%,%%HANDLE%%%s", eol);
    for (int c = 0; c < context_count; c++)
        fprintf(f, "%s,0x%X%s", contexts[c].name, (unsigned)c, eol);
    fputs(eol, f);

    fprintf(f, "* HANDLE(Functions) %%HANDLE%%,%%NAME%%,%%VALUE%%%s", eol);
    for (int a = 0; a < area_count; a++) {
        if (areas[a].is_line)
            fprintf(f, "%08" PRIX32 ",%s,%d%s", areas[a].handle, areas[a].name, areas[a].line_no,
                    eol);
        else
            fprintf(f, "%08" PRIX32 ",%s,%s", areas[a].handle, areas[a].name, eol);
    }
    fputs(eol, f);
    fprintf(f, "* HANDLE(Data) %%HANDLE%%,%%NAME%%,%%VALUE%%%s", eol);
    for (int v = 0; v < VAR_COUNT; v++) {
        fprintf(f, "%08X,%s,%s", 0x20000000u + (unsigned)v, var_names[v], eol);
        int states = v == VAR_CONTEXT ? context_count : v == VAR_MODE ? MODE_STATES : 0;
        for (int s = 0; s < states; s++)
            fprintf(f, "%08X,,%X%s", 0x30000000u + (unsigned)v, (unsigned)s, eol);
    }
    fputs(eol, f);
    fprintf(f, "* HANDLE(AUX) %%HANDLE%%,%%NAME%%,%%VALUE%%%s40000000,%s,%s%s", eol, aux_name,
            eol, eol);

    /* docs/formats.md §3: one block per context, rows only for areas with events */
    for (int c = 0; c < context_count; c++) {
        bool any = false;
        for (int a = 0; a < area_count; a++)
            any |= func_stats[a][c].seen;
        if (!any)
            continue;
        fprintf(f, "* STATISTICS(Functions) CONTEXT(%s%s) %s%s", contexts[c].prefix,
                contexts[c].name, stat_format, eol);
        for (int a = 0; a < area_count; a++) {
            if (!func_stats[a][c].seen)
                continue;
            char value[16] = "";
            if (areas[a].is_line)
                snprintf(value, sizeof value, "%d", areas[a].line_no);
            write_stat_row(f, areas[a].handle, names ? areas[a].name : NULL, value,
                           &func_stats[a][c], false);
        }
        fputs(eol, f);
    }
    fprintf(f, "* STATISTICS(Data) %s%s", stat_format, eol);
    for (int v = 0; v < VAR_COUNT; v++) {
        if (!var_stats[v].seen)
            continue;
        write_stat_row(f, 0x20000000u + (uint32_t)v, names ? var_names[v] : NULL, "",
                       &var_stats[v], true);
        for (int s = 0; s < MAX_CONTEXTS; s++) {
            if (!state_stats[v][s].seen)
                continue;
            char value[16];
            snprintf(value, sizeof value, "%X", (unsigned)s);
            write_stat_row(f, 0x30000000u + (uint32_t)v, names ? "" : NULL, value,
                           &state_stats[v][s], true);
        }
    }
    fputs(eol, f);
    if (aux_stats.seen) {
        fprintf(f, "* STATISTICS(AUX) %s%s", stat_format, eol);
        write_stat_row(f, 0x40000000u, names ? aux_name : NULL, "", &aux_stats, true);
        fputs(eol, f);
    }
    /* A BIN export: v1.0 keeps an empty TIMELINE section, v1.1 has none. */
    if (format == FMT_TEXT)
        fprintf(f, "* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%%s", eol);
    else if (format == FMT_TEXT_CTX)
        fprintf(f, "* TIMELINE %%TIME%%,%%CONTEXT%%,%%HANDLE%%,%%EVENT%%,%%VALUE%%%s", eol);
    else if (format == FMT_BIN10)
        fprintf(f, "* TIMELINE %%HANDLE%%,%%EVENT%%,%%VALUE%%,%%TIME%%%s", eol);
}

/* ---- main */

static void usage_to(FILE *fp, int status)
{
    fprintf(fp, "usage: pv_gen_winidea [--seed N] [--tasks K(1-%d)] [--events N]\n"
                    "                      [--format text|text-ctx|bin10|bin11] [--check] -o PATH\n"
                    "  text      Text1 with a TIMELINE section\n"
                    "  text-ctx  Text1, TIMELINE with %%CONTEXT%%, states as E on 3xxxxxxx\n"
                    "  bin10     PATH: Text1 mapping + statistics; PATH.BIN: BIN v1.0\n"
                    "  bin11     the same with BIN v1.1 (CRLF line ends in PATH)\n"
                    "  --check   verify the interval bookkeeping tick by tick (slow)\n",
            MAX_TASKS);
    exit(status);
}

static void usage(void)
{
    usage_to(stderr, 1);
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(2);
    }
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (fclose(f) != 0) {
        fprintf(stderr, "pv_gen_winidea: %s: write failed\n", path);
        exit(2);
    }
}

int main(int argc, char **argv)
{
    uint64_t seed = 1;
    int tasks = 3;
    int64_t events = 2000;
    int format = FMT_TEXT;
    const char *path = NULL;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(arg, "--check")) {
            check_mode = true;
            continue;
        }
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
            usage_to(stdout, 0);
        if (!val)
            usage();
        i++;
        if (!strcmp(arg, "--seed"))
            seed = strtoull(val, NULL, 0);
        else if (!strcmp(arg, "--tasks"))
            tasks = atoi(val);
        else if (!strcmp(arg, "--events"))
            events = strtoll(val, NULL, 0);
        else if (!strcmp(arg, "-o"))
            path = val;
        else if (!strcmp(arg, "--format")) {
            if (!strcmp(val, "text"))
                format = FMT_TEXT;
            else if (!strcmp(val, "text-ctx"))
                format = FMT_TEXT_CTX;
            else if (!strcmp(val, "bin10"))
                format = FMT_BIN10;
            else if (!strcmp(val, "bin11"))
                format = FMT_BIN11;
            else
                usage();
        } else
            usage();
    }
    if (!path || tasks < 1 || tasks > MAX_TASKS || events < 1)
        usage();

    build_program(tasks);
    if (format == FMT_BIN11)
        eol = "\r\n";
    gap_after_switch = format == FMT_TEXT_CTX;

    /* Pass 1: statistics and the end time only. */
    out.format = format;
    int64_t end = simulate(seed, events);
    static stat saved[MAX_AREAS][MAX_CONTEXTS];
    memcpy(saved, func_stats, sizeof saved);

    FILE *text = open_out(path);
    write_header(text, format, end);

    /* Pass 2: the same run again, streaming the timeline. */
    char *bin_path = NULL;
    out.cap = 4u << 20;
    out.buf = malloc(out.cap);
    if (!out.buf) {
        fprintf(stderr, "pv_gen_winidea: out of memory\n");
        return 2;
    }
    if (format == FMT_BIN10 || format == FMT_BIN11) {
        bin_path = malloc(strlen(path) + 5);
        if (!bin_path)
            return 2;
        sprintf(bin_path, "%s.BIN", path);
        out.f = open_out(bin_path);
        out.path = bin_path;
    } else {
        out.f = text;
        out.path = path;
    }
    int64_t end2 = simulate(seed, events);
    sink_flush(&out);
    if (end2 != end || memcmp(saved, func_stats, sizeof saved) != 0) {
        fprintf(stderr, "pv_gen_winidea: internal: the two passes differ\n");
        return 3;
    }
    if (out.f != text)
        close_out(out.f, bin_path);
    close_out(text, path);
    free(out.buf);
    free(bin_path);
    return 0;
}
