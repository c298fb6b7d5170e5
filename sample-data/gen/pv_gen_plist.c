/* pv_gen_plist.c - writes the MSVC PLIST /T sample reports of sample-data/
 * and, for each, expect files computed from the generator's own data.
 *
 * Standalone and deterministic: it does not use profview's code, only a
 * fixed pseudo-random sequence, so the same run writes the same bytes.
 *
 *     pv_gen_plist [OUTDIR]        (default ".")
 *
 * Files (docs/formats.md §4 records; field layouts as the seed gives them):
 *   plist-func-timing.txt   method 522, CRLF, full paths, attribution stacks
 *                           (innermost name first, the function included),
 *                           one name per 10 record or several on one record
 *   plist-func-count.txt    method 521, bare names, no stacks
 *   plist-line-count.txt    method 321
 *   plist-line-coverage.txt method 324, UTF-8 BOM, hits 1/0
 * Expect files, in OUTDIR/expect/ (what `profview cat` must print for them,
 * TSV-escaped):
 *   NAME.summary.tsv     key/value rows of `--view summary` without `file`
 *   NAME.routines.tsv    `--view routines --columns id,routine,module,exe,
 *                        source,hits,time,time_with_children,covered`
 *   NAME.call-trace.tsv  path (names joined " | ", outermost first), hits,
 *                        time, time_with_children; sorted by path
 *   NAME.edges.tsv       caller, callee, hits, time with children; sorted
 *   NAME.lines.tsv       `--view lines --columns id,exe,source,line,hits,
 *                        covered`
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define NS_PER_MS INT64_C(1000000)
#define MAX_NODES 256
#define MAX_ROUTINES 32
#define MAX_DEPTH 5

/* ---- deterministic pseudo-random numbers (64-bit LCG, high bits) */

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
    rng_state = seed;
}

static uint32_t rng_next(uint32_t bound)
{
    rng_state = rng_state * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return (uint32_t)((rng_state >> 33) % bound);
}

/* ---- output helpers */

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    return f;
}

static void close_out(FILE *f)
{
    if (fclose(f) != 0) {
        perror("write");
        exit(1);
    }
}

/* Writes a string as `profview cat` writes a TSV field. */
static void tsv(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '\t':
            fputs("\\t", f);
            break;
        case '\\':
            fputs("\\\\", f);
            break;
        case '\n':
            fputs("\\n", f);
            break;
        case '\r':
            fputs("\\r", f);
            break;
        default:
            fputc(*s, f);
            break;
        }
    }
}

/* Milliseconds as PLIST writes them: whole, 3 or 6 decimals. */
static void write_ms(FILE *f, int64_t ns)
{
    if (ns % NS_PER_MS == 0)
        fprintf(f, "%" PRId64, ns / NS_PER_MS);
    else if (ns % 1000 == 0)
        fprintf(f, "%" PRId64 ".%03" PRId64, ns / NS_PER_MS, ns % NS_PER_MS / 1000);
    else
        fprintf(f, "%" PRId64 ".%06" PRId64, ns / NS_PER_MS, ns % NS_PER_MS);
}

static void write_percent(FILE *f, const char *key, int64_t part, int64_t whole)
{
    if (whole <= 0)
        return;
    int64_t h = part * 10000 / whole;
    fprintf(f, "%s\t%" PRId64 ".%02" PRId64 "\n", key, h / 100, h % 100);
}

/* ---- function profiles */

typedef struct routine {
    const char *name;
    const char *exe;
    const char *obj;
    int callable; /* 0: never executed */
    int64_t hits, time, child;
    int64_t id; /* 1-based record order */
} routine;

typedef struct node {
    int routine;
    int parent; /* -1 at the top */
    int depth;
    int64_t hits, self, child;
} node;

static routine routines[MAX_ROUTINES];
static int routine_count;
static node nodes[MAX_NODES];
static int node_count;

static const char *const timing_names[] = {
    "main",
    "CMainFrame::OnPaint(CDC *)",
    "compute_sum(int, char, double)",
    "parse, then check (v2)",
    "?Render@CView@@UAEXPAVCDC@@@Z",
    "?foo@@YAXH@Z",
    "_MATMUL@12",
    "SOLVE_SYSTEM",
    "std::vector<int,std::allocator<int> >::push_back(int const &)",
    "operator new(unsigned int)",
    "qsort_compare (static)",
    "Never Called(void)",
    "?unused@@YAXXZ",
    "LOG_MESSAGE",
};
static const int timing_never_from = 11; /* names from here on never run */

static const char *const timing_objs[] = {
    "C:\\src\\demo app\\main.obj",
    "C:\\src\\demo app\\view.obj",
    "C:\\src\\demo app\\solver.obj",
};

/* Builds routines and a calling-context tree (no recursion) from the seed. */
static void build_calls(const char *exe, const char *const *objs, int obj_count, int64_t unit)
{
    routine_count = (int)(sizeof timing_names / sizeof timing_names[0]);
    for (int i = 0; i < routine_count; i++) {
        routines[i] = (routine){
            timing_names[i], exe, objs[i % obj_count], i < timing_never_from, 0, 0, 0, i + 1};
    }
    node_count = 0;
    nodes[node_count++] = (node){0, -1, 0, 1, 0, 0};
    /* Breadth of the tree: each node gets 0-3 distinct children that are not
     * its ancestors, down to MAX_DEPTH - 1. */
    for (int n = 0; n < node_count; n++) {
        if (nodes[n].depth >= MAX_DEPTH - 1)
            continue;
        int want = (int)rng_next(4);
        if (n == 0)
            want = 4;
        for (int k = 0; k < want && node_count < MAX_NODES; k++) {
            int r = 1 + (int)rng_next((uint32_t)(timing_never_from - 1));
            int bad = 0;
            for (int a = n; a >= 0; a = nodes[a].parent)
                bad |= nodes[a].routine == r;
            for (int c = n + 1; c < node_count; c++)
                bad |= nodes[c].parent == n && nodes[c].routine == r;
            if (bad)
                continue;
            int64_t hits = 1 + rng_next(40);
            nodes[node_count++] = (node){r, n, nodes[n].depth + 1, hits, 0, 0};
        }
    }
    for (int n = 0; n < node_count; n++) {
        /* Mix time granularities: whole ms, us and ns. */
        int64_t gran = n % 5 == 0 ? NS_PER_MS : n % 5 == 3 ? 1 : 1000;
        int64_t ns = (int64_t)(1 + rng_next(90000)) * 1000 + (gran == 1 ? rng_next(1000) : 0);
        nodes[n].self = unit ? ns / gran * gran : 0;
        if (unit && nodes[n].self == 0)
            nodes[n].self = gran;
    }
    for (int n = node_count - 1; n >= 0; n--) {
        nodes[n].child += nodes[n].self;
        if (nodes[n].parent >= 0)
            nodes[nodes[n].parent].child += nodes[n].child;
    }
    for (int n = 0; n < node_count; n++) {
        routine *r = &routines[nodes[n].routine];
        r->hits += nodes[n].hits;
        r->time += nodes[n].self;
        r->child += nodes[n].child;
    }
}

/* Path of names of node n, outermost first, joined " | ". */
static void node_path(int n, char *out, size_t size)
{
    int chain[MAX_DEPTH + 1], len = 0;
    for (int a = n; a >= 0 && len <= MAX_DEPTH; a = nodes[a].parent)
        chain[len++] = a;
    out[0] = '\0';
    for (int i = len - 1; i >= 0; i--) {
        if (i != len - 1)
            strncat(out, " | ", size - strlen(out) - 1);
        strncat(out, routines[nodes[chain[i]].routine].name, size - strlen(out) - 1);
    }
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Writes `count` lines sorted bytewise (as `LC_ALL=C sort` does). */
static void write_sorted(FILE *f, char **lines, int count)
{
    qsort(lines, (size_t)count, sizeof *lines, compare_lines);
    for (int i = 0; i < count; i++) {
        fputs(lines[i], f);
        free(lines[i]);
    }
}

/* A malloc'ed copy of a formatted line (names only: nothing to escape). */
static char *line_dup(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *line_dup(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *r = malloc(strlen(buf) + 1);
    if (!r)
        exit(1);
    strcpy(r, buf);
    return r;
}

typedef struct function_profile {
    const char *base; /* file name without .txt */
    int method;
    const char *description;
    const char *eol;
    int stacks; /* write attribution records */
    int64_t outside;
} function_profile;

static void write_function_profile(const char *dir, const function_profile *fp)
{
    char name[256];
    snprintf(name, sizeof name, "%s.txt", fp->base);
    FILE *f = open_out(dir, name);
    const char *eol = fp->eol;
    int64_t total_hits = 0, routine_time = 0, executed = 0, depth = 0, stacks = 0;
    for (int i = 0; i < routine_count; i++) {
        total_hits += routines[i].hits;
        routine_time += routines[i].time;
        executed += routines[i].hits > 0;
    }
    for (int n = 0; n < node_count; n++)
        if (nodes[n].depth + 1 > depth)
            depth = nodes[n].depth + 1;
    int64_t total_time = nodes[0].child + fp->outside;

    fprintf(f, "0\t3\tProfiler sample generated by pv_gen_plist%s", eol);
    fprintf(f, "1\t%d\t%s%s", fp->method, fp->description, eol);
    fputs("2\t", f);
    write_ms(f, total_time);
    fputs("\t", f);
    write_ms(f, fp->outside);
    fprintf(f, "\t%" PRId64 "%s", depth, eol);
    fprintf(f, "3\t%" PRId64 "\t%d\t%" PRId64 "%s", total_hits, routine_count, executed, eol);
    fprintf(f, "4\t11/22/2026 04:30:00\tPROFILE /I demo.pbi /O demo.pbo demo.exe --fast%s", eol);
    fprintf(f, "5\t0\t%d%s", fp->method, eol);
    for (int i = 0; i < routine_count; i++) {
        const routine *r = &routines[i];
        fprintf(f, "6\t%s\t%s\t%" PRId64 "\t", r->exe, r->obj, r->hits);
        write_ms(f, r->time);
        fputs("\t", f);
        write_ms(f, r->child);
        fprintf(f, "\t%s%s", r->name, eol);
        if (!fp->stacks)
            continue;
        int own = 0;
        for (int n = 0; n < node_count; n++)
            own += nodes[n].routine == i;
        if (own == 0 && i % 2 == 0)
            continue; /* some never-run functions have no 8 record at all */
        fprintf(f, "8\t%d%s", own, eol);
        for (int n = 0; n < node_count; n++) {
            if (nodes[n].routine != i)
                continue;
            stacks++;
            const char *names[MAX_DEPTH + 1];
            int len = 0;
            for (int a = n; a >= 0 && len <= MAX_DEPTH; a = nodes[a].parent)
                names[len++] = routines[nodes[a].routine].name;
            fprintf(f, "9\t%d\t%" PRId64 "\t", len, nodes[n].hits);
            write_ms(f, nodes[n].self);
            fputs("\t", f);
            write_ms(f, nodes[n].child);
            fputs(eol, f);
            /* Innermost first; one name per record, all on one, or 1 + rest. */
            int mode = (int)(stacks % 3);
            for (int k = 0; k < len; k++) {
                if (k > 0 && (mode == 0 || (mode == 2 && k == 1)))
                    fputs(eol, f);
                if (k == 0 || mode == 0 || (mode == 2 && k == 1))
                    fputs("10", f);
                fprintf(f, "\t%s", names[k]);
            }
            fputs(eol, f);
        }
    }
    close_out(f);

    /* summary */
    snprintf(name, sizeof name, "expect/%s.summary.tsv", fp->base);
    f = open_out(dir, name);
    fputs("key\tvalue\nformat\tplist\n", f);
    fputs("version\t3\nbanner\tProfiler sample generated by pv_gen_plist\n", f);
    fprintf(f, "method\t%d\nmethod description\t%s\nprofile\t%s\nprofile kind\tfunction\n",
            fp->method, fp->description, fp->description);
    fprintf(f,
            "total time\t%" PRId64 "\noutside time\t%" PRId64 "\ntime in functions\t%" PRId64
            "\ncall depth\t%" PRId64 "\n",
            total_time, fp->outside, total_time - fp->outside, depth);
    fprintf(f,
            "total hits\t%" PRId64 "\nunits\t%d\nunits hit\t%" PRId64 "\nunits not hit\t%" PRId64
            "\n",
            total_hits, routine_count, executed, routine_count - executed);
    write_percent(f, "coverage percent", executed, routine_count);
    fputs("date\t11/22/2026 04:30:00\ncommand line\tPROFILE /I demo.pbi /O demo.pbo demo.exe "
          "--fast\n",
          f);
    fprintf(f, "record 5\t0\\t%d\n", fp->method);
    fprintf(f,
            "routines\t%d\nroutines executed\t%" PRId64 "\nroutines never executed\t%" PRId64 "\n",
            routine_count, executed, routine_count - executed);
    write_percent(f, "routine coverage percent", executed, routine_count);
    fprintf(f, "routine hits\t%" PRId64 "\nroutine time\t%" PRId64 "\n", total_hits, routine_time);
    if (stacks)
        fprintf(f, "attribution stacks\t%" PRId64 "\nunattached stacks\t0\n", stacks);
    close_out(f);

    /* routines */
    snprintf(name, sizeof name, "expect/%s.routines.tsv", fp->base);
    f = open_out(dir, name);
    fputs("id\troutine\tmodule\texe\tsource\thits\ttime\ttime_with_children\tcovered\n", f);
    for (int i = 0; i < routine_count; i++) {
        const routine *r = &routines[i];
        fprintf(f, "%" PRId64 "\t", r->id);
        tsv(f, r->name);
        fputs("\t", f);
        tsv(f, r->obj);
        fputs("\t", f);
        tsv(f, r->exe);
        fputs("\t", f);
        tsv(f, r->obj);
        fprintf(f, "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%d\n", r->hits, r->time, r->child,
                r->hits > 0);
    }
    close_out(f);

    if (!fp->stacks)
        return;
    /* call-trace paths: every node is one stack, so one path. */
    char *lines[MAX_NODES];
    char path[1024];
    for (int n = 0; n < node_count; n++) {
        node_path(n, path, sizeof path);
        lines[n] = line_dup("%s\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\n", path, nodes[n].hits,
                            nodes[n].self, nodes[n].child);
    }
    snprintf(name, sizeof name, "expect/%s.call-trace.tsv", fp->base);
    f = open_out(dir, name);
    write_sorted(f, lines, node_count);
    close_out(f);

    /* caller -> callee edges, summed over nodes with the same pair. */
    int count = 0;
    for (int n = 1; n < node_count; n++) {
        int seen = 0;
        for (int m = 1; m < n; m++)
            seen |= nodes[m].routine == nodes[n].routine &&
                    nodes[nodes[m].parent].routine == nodes[nodes[n].parent].routine;
        if (seen)
            continue;
        int64_t hits = 0, child = 0;
        for (int m = n; m < node_count; m++)
            if (nodes[m].routine == nodes[n].routine &&
                nodes[nodes[m].parent].routine == nodes[nodes[n].parent].routine) {
                hits += nodes[m].hits;
                child += nodes[m].child;
            }
        lines[count++] = line_dup("%s\t%s\t%" PRId64 "\t%" PRId64 "\n",
                                  routines[nodes[nodes[n].parent].routine].name,
                                  routines[nodes[n].routine].name, hits, child);
    }
    snprintf(name, sizeof name, "expect/%s.edges.tsv", fp->base);
    f = open_out(dir, name);
    write_sorted(f, lines, count);
    close_out(f);
}

/* ---- line profiles */

typedef struct line_rec {
    const char *source;
    int64_t line, hits;
} line_rec;

static void write_line_profile(const char *dir, const char *base, int method,
                               const char *description, const char *exe, const char *const *sources,
                               int source_count, int coverage, int bom)
{
    line_rec recs[200];
    int count = 0;
    for (int s = 0; s < source_count; s++) {
        int64_t line = 1 + rng_next(20);
        int n = 8 + (int)rng_next(20);
        for (int k = 0; k < n && count < 200; k++) {
            int64_t hits = rng_next(4) == 0 ? 0 : 1 + rng_next(5000);
            if (coverage)
                hits = hits > 0;
            recs[count++] = (line_rec){sources[s], line, hits};
            line += 1 + rng_next(6);
        }
    }
    int64_t total = 0, executed = 0;
    for (int i = 0; i < count; i++) {
        total += recs[i].hits;
        executed += recs[i].hits > 0;
    }
    char name[256];
    snprintf(name, sizeof name, "%s.txt", base);
    FILE *f = open_out(dir, name);
    if (bom)
        fputs("\xEF\xBB\xBF", f);
    fputs("0\t3\tProfiler sample generated by pv_gen_plist\n", f);
    fprintf(f, "1\t%d\t%s\n", method, description);
    fputs("2\t0\t0\t0\n", f);
    fprintf(f, "3\t%" PRId64 "\t%d\t%" PRId64 "\n", total, count, executed);
    fputs("4\t11/22/2026 04:31:00\tPROFILE /I demo.pbi demo.exe\n", f);
    for (int i = 0; i < count; i++)
        fprintf(f, "7\t%s\t%s\t%" PRId64 "\t%" PRId64 "\n", exe, recs[i].source, recs[i].line,
                recs[i].hits);
    close_out(f);

    snprintf(name, sizeof name, "expect/%s.summary.tsv", base);
    f = open_out(dir, name);
    fputs("key\tvalue\nformat\tplist\n", f);
    fputs("version\t3\nbanner\tProfiler sample generated by pv_gen_plist\n", f);
    fprintf(f, "method\t%d\nmethod description\t%s\nprofile\t%s\nprofile kind\tline\n", method,
            description, description);
    fputs("total time\t0\noutside time\t0\ntime in functions\t0\ncall depth\t0\n", f);
    fprintf(f,
            "total hits\t%" PRId64 "\nunits\t%d\nunits hit\t%" PRId64 "\nunits not hit\t%" PRId64
            "\n",
            total, count, executed, count - executed);
    write_percent(f, "coverage percent", executed, count);
    fputs("date\t11/22/2026 04:31:00\ncommand line\tPROFILE /I demo.pbi demo.exe\n", f);
    fprintf(f, "lines\t%d\nlines executed\t%" PRId64 "\nlines never executed\t%" PRId64 "\n", count,
            executed, count - executed);
    write_percent(f, "line coverage percent", executed, count);
    fprintf(f, "line hits\t%" PRId64 "\n", total);
    close_out(f);

    snprintf(name, sizeof name, "expect/%s.lines.tsv", base);
    f = open_out(dir, name);
    fputs("id\texe\tsource\tline\thits\tcovered\n", f);
    for (int i = 0; i < count; i++) {
        fprintf(f, "%d\t", i + 1);
        tsv(f, exe);
        fputs("\t", f);
        tsv(f, recs[i].source);
        fprintf(f, "\t%" PRId64 "\t%" PRId64 "\t%d\n", recs[i].line, recs[i].hits,
                recs[i].hits > 0);
    }
    close_out(f);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char expect[4096];
    snprintf(expect, sizeof expect, "%s/expect", dir);
    mkdir(expect, 0777); /* may exist; open_out reports real failures */

    rng_seed(20261122);
    build_calls("C:\\Program Files\\Demo App\\bin\\demo.exe", timing_objs, 3, 1);
    const function_profile timing = {"plist-func-timing", 522, "function timing", "\r\n", 1,
                                     INT64_C(12345678)};
    write_function_profile(dir, &timing);

    static const char *const bare_objs[] = {"main.obj", "view.obj", "solver.obj"};
    rng_seed(7);
    build_calls("demo.exe", bare_objs, 3, 0);
    const function_profile count = {"plist-func-count", 521, "function count", "\n", 0, 0};
    write_function_profile(dir, &count);

    static const char *const line_sources[] = {"main.c", "view.cpp", "solver.f90"};
    rng_seed(321);
    write_line_profile(dir, "plist-line-count", 321, "line count", "demo.exe", line_sources, 3, 0,
                       0);
    static const char *const full_sources[] = {"C:\\src\\demo app\\main.c",
                                               "C:\\src\\demo app\\solver.f90"};
    rng_seed(324);
    write_line_profile(dir, "plist-line-coverage", 324, "line coverage",
                       "C:\\Program Files\\Demo App\\bin\\demo.exe", full_sources, 2, 1, 1);
    return 0;
}
