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
 *   plist-func-coverage.txt method 524, two executables, hits 1/0
 *   plist-line-modules.txt  method 321, two executables
 * and the text report of each run (PLIST without /T, docs/plist.md "Text
 * reports"): NAME.report*.txt, from the same data.
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
#include <stdbool.h>
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
static void build_calls(const char *exe, const char *const *objs, int obj_count, int64_t unit,
                        const char *dll)
{
    routine_count = (int)(sizeof timing_names / sizeof timing_names[0]);
    for (int i = 0; i < routine_count; i++) {
        /* With a DLL, every third routine is in it: a second module. */
        const char *in = dll && i % 3 == 2 ? dll : exe;
        routines[i] = (routine){
            timing_names[i], in, objs[i % obj_count], i < timing_never_from, 0, 0, 0, i + 1};
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

/* The expected routines of a function profile (expect/BASE.routines.tsv). */
static void write_expected_routines(const char *dir, const function_profile *fp)
{
    char name[256];
    FILE *f;
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
}

/* The expected call-trace paths (every node is one stack, so one path) and
 * the caller -> callee edges, summed over nodes with the same pair
 * (expect/BASE.call-trace.tsv, expect/BASE.edges.tsv). */
static void write_expected_paths(const char *dir, const function_profile *fp)
{
    char name[256];
    FILE *f;
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

    write_expected_routines(dir, fp);
    if (fp->stacks)
        write_expected_paths(dir, fp);
}

/* ---- text reports: what PLIST prints without /T (docs/plist.md "Text
 * reports"), written from the same data as the /T file of the run */

typedef struct report_options {
    const char *suffix; /* the report is BASE.SUFFIX.txt */
    const char *sort;   /* "time", "function name", "counts", "line" */
    const char *eol;
    int width;       /* wrap names (or source text) past this column; 0: never */
    int page_length; /* rows per page before a form feed and the titles (/PL); 0: one page */
} report_options;

/* The run's call depth and total time, as its /T record 2 says. */
static int64_t run_depth(void)
{
    int64_t depth = 0;
    for (int n = 0; n < node_count; n++)
        if (nodes[n].depth + 1 > depth)
            depth = nodes[n].depth + 1;
    return depth;
}

static int64_t run_total_time(const function_profile *fp)
{
    return nodes[0].child + fp->outside;
}

/* Milliseconds with 3 decimals, rounded half up (the report's precision). */
static void report_ms(char *out, size_t size, int64_t ns)
{
    int64_t us = (ns + 500) / 1000;
    snprintf(out, size, "%" PRId64 ".%03" PRId64, us / 1000, us % 1000);
}

/* part/whole as a percentage with one decimal, rounded half up. */
static void report_percent(char *out, size_t size, int64_t part, int64_t whole)
{
    int64_t tenths = whole > 0 ? (part * 1000 + whole / 2) / whole : 0;
    snprintf(out, size, "%" PRId64 ".%" PRId64, tenths / 10, tenths % 10);
}

typedef struct report_page {
    FILE *f;
    const report_options *o;
    const char *const *titles; /* NULL-terminated, the rule last */
    int rows;
} report_page;

static void report_titles(report_page *pg)
{
    for (int i = 0; pg->titles[i]; i++)
        fprintf(pg->f, "%s%s", pg->titles[i], pg->o->eol);
    pg->rows = 0;
}

/* Writes a row: `prefix` then `text` starting at column `col`, wrapped at
 * the report's width onto lines indented to `col`.  A piece never ends with
 * a blank (a reader cannot tell it from trailing blanks). */
static void report_row(report_page *pg, const char *prefix, int col, const char *text)
{
    if (pg->o->page_length && pg->rows == pg->o->page_length) {
        fprintf(pg->f, "\f%s", pg->o->eol);
        report_titles(pg);
    }
    pg->rows++;
    fputs(prefix, pg->f);
    size_t len = strlen(text);
    size_t room = pg->o->width > col + 8 ? (size_t)(pg->o->width - col) : len;
    size_t at = 0;
    for (;;) {
        size_t n = len - at < room ? len - at : room;
        if (at + n < len)
            while (n > 1 && text[at + n - 1] == ' ')
                n--;
        fwrite(text + at, 1, n, pg->f);
        at += n;
        if (at >= len)
            break;
        fprintf(pg->f, "%s%*s", pg->o->eol, col, "");
    }
    fputs(pg->o->eol, pg->f);
}

static const report_options *sort_options;

static int compare_routines(const void *a, const void *b)
{
    const routine *x = &routines[*(const int *)a], *y = &routines[*(const int *)b];
    const char *by = sort_options->sort;
    if (strcmp(by, "time") == 0 && x->time != y->time)
        return x->time > y->time ? -1 : 1;
    if (strcmp(by, "counts") == 0 && x->hits != y->hits)
        return x->hits > y->hits ? -1 : 1;
    return strcmp(x->name, y->name);
}

static const char *const timing_titles[] = {
    "        Func          Func+Child           Hit",
    "        Time   %         Time      %      Count  Function",
    "---------------------------------------------------------", NULL};
static const char *const counting_titles[] = {"     Hit", "    Count     %  Function",
                                              "-------------------------", NULL};
static const char *const coverage_titles[] = {"Covered  Function", "-----------------", NULL};

static void write_function_report(const char *dir, const function_profile *fp,
                                  const report_options *o, int64_t total_time, int64_t depth)
{
    char name[256], a[64], b[64], c[64], d[64], prefix[256];
    snprintf(name, sizeof name, "%s.%s.txt", fp->base, o->suffix);
    FILE *f = open_out(dir, name);
    const char *eol = o->eol;
    const char *kind = fp->method == 522 ? "Function timing"
                       : fp->method == 521 ? "Function counting"
                                           : "Function coverage";
    int64_t total_hits = 0, executed = 0;
    for (int i = 0; i < routine_count; i++) {
        total_hits += routines[i].hits;
        executed += routines[i].hits > 0;
    }
    fprintf(f, "Profile: %s, sorted by %s%s", kind, o->sort, eol);
    fprintf(f, "Date:    Sun Nov 22 04:30:00 2026%s%s%s", eol, eol, eol);
    fprintf(f, "Program Statistics%s------------------%s", eol, eol);
    fprintf(f, "    Command line at 2026 Nov 22 04:30: \"PROFILE /I demo.pbi /O demo.pbo demo.exe "
               "--fast\" %s",
            eol);
    if (fp->method == 522) {
        report_ms(a, sizeof a, total_time);
        report_ms(b, sizeof b, fp->outside);
        fprintf(f, "    Total time: %s millisecond%s", a, eol);
        fprintf(f, "    Time outside of functions: %s millisecond%s", b, eol);
    }
    fprintf(f, "    Call depth: %" PRId64 "%s", depth, eol);
    fprintf(f, "    Total functions: %d%s", routine_count, eol);
    if (fp->method != 524)
        fprintf(f, "    Total hits: %" PRId64 "%s", total_hits, eol);
    report_percent(a, sizeof a, executed, routine_count);
    fprintf(f, "    Function coverage: %s%%%s", a, eol);
    if (fp->method == 522)
        fprintf(f, "    Overhead Calculated 7%s    Overhead Average 7%s", eol, eol);

    /* One Module Statistics block and table per executable, in the order
     * the routines first name them. */
    const char *mods[MAX_ROUTINES];
    int mod_count = 0;
    for (int i = 0; i < routine_count; i++) {
        int k = 0;
        while (k < mod_count && strcmp(mods[k], routines[i].exe) != 0)
            k++;
        if (k == mod_count)
            mods[mod_count++] = routines[i].exe;
    }
    for (int m = 0; m < mod_count; m++) {
        int idx[MAX_ROUTINES], n = 0;
        int64_t time = 0, hits = 0, ran = 0;
        for (int i = 0; i < routine_count; i++)
            if (strcmp(routines[i].exe, mods[m]) == 0) {
                idx[n++] = i;
                time += routines[i].time;
                hits += routines[i].hits;
                ran += routines[i].hits > 0;
            }
        snprintf(a, sizeof a, "Module Statistics for %s", mods[m]);
        fprintf(f, "%s%s%s", eol, a, eol);
        for (size_t k = 0; k < strlen(a); k++)
            fputc('-', f);
        fputs(eol, f);
        if (fp->method == 522) {
            report_ms(b, sizeof b, time);
            report_percent(c, sizeof c, time, total_time);
            fprintf(f, "    Time in module: %s millisecond%s", b, eol);
            fprintf(f, "    Percent of time in module: %s%%%s", c, eol);
        }
        fprintf(f, "    Functions in module: %d%s", n, eol);
        if (fp->method != 524)
            fprintf(f, "    Hits in module: %" PRId64 "%s", hits, eol);
        report_percent(c, sizeof c, ran, n);
        fprintf(f, "    Module function coverage: %s%%%s%s", c, eol, eol);

        sort_options = o;
        qsort(idx, (size_t)n, sizeof *idx, compare_routines);
        report_page pg = {f, o,
                          fp->method == 522   ? timing_titles
                          : fp->method == 521 ? counting_titles
                                              : coverage_titles,
                          0};
        report_titles(&pg);
        for (int k = 0; k < n; k++) {
            const routine *r = &routines[idx[k]];
            char text[1024];
            snprintf(text, sizeof text, "%s (%s)", r->name, r->obj);
            int col;
            if (fp->method == 522) {
                report_ms(a, sizeof a, r->time);
                report_percent(b, sizeof b, r->time, total_time);
                report_ms(c, sizeof c, r->child);
                report_percent(d, sizeof d, r->child, total_time);
                col = snprintf(prefix, sizeof prefix, "%12s %5s %12s %5s %8" PRId64 " ", a, b, c,
                               d, r->hits);
            } else if (fp->method == 521) {
                report_percent(b, sizeof b, r->hits, total_hits);
                col = snprintf(prefix, sizeof prefix, "%9" PRId64 " %5s  ", r->hits, b);
            } else {
                col = snprintf(prefix, sizeof prefix, "   %c     ", r->hits > 0 ? '*' : '.');
            }
            report_row(&pg, prefix, col, text);
        }
    }
    close_out(f);
}

/* ---- line profiles */

typedef struct line_rec {
    const char *exe;
    const char *source;
    int64_t line, hits;
} line_rec;

/* The text of a source line (a report shows it; /T does not): code,
 * braces, comments (one a block comment's ` * `), an empty line, a tab. */
static const char *source_text(int64_t line, int counted)
{
    static const char *const code[] = {
        "    total += values[i];",
        "    lX = 57L;",
        "\tif (count > limit) {",
        "        result = compute_sum(a, b, 2.5);",
        "    return std::max<int>(a, b);  // 100% sure",
        "      CALL SOLVE(N, A, B)",
        "    printf(\"%d: %s\\n\", id, name);",
    };
    static const char *const other[] = {"{", "}", "", "    // nothing to run here",
                                        " * part of a block comment", "    int unused;"};
    if (counted)
        return code[line % (int64_t)(sizeof code / sizeof code[0])];
    return other[line % (int64_t)(sizeof other / sizeof other[0])];
}

static void write_line_report(const char *dir, const char *base, const line_rec *recs,
                              int count, int coverage, const report_options *o)
{
    char name[256], a[64], prefix[128];
    snprintf(name, sizeof name, "%s.%s.txt", base, o->suffix);
    FILE *f = open_out(dir, name);
    const char *eol = o->eol;
    int64_t total = 0, executed = 0;
    for (int i = 0; i < count; i++) {
        total += recs[i].hits;
        executed += recs[i].hits > 0;
    }
    fprintf(f, "Profile: Line %s, sorted by %s%s", coverage ? "coverage" : "counting", o->sort,
            eol);
    fprintf(f, "Date:    Sun Nov 22 04:31:00 2026%s%s%s", eol, eol, eol);
    fprintf(f, "Program Statistics%s------------------%s", eol, eol);
    fprintf(f, "    Command line at 2026 Nov 22 04:31: \"PROFILE /I demo.pbi demo.exe\"%s", eol);
    fprintf(f, "    Total lines: %d%s", count, eol);
    if (!coverage)
        fprintf(f, "    Total hits: %" PRId64 "%s", total, eol);
    report_percent(a, sizeof a, executed, count);
    fprintf(f, "    Line coverage: %s%%%s", a, eol);
    static char title[64];
    static const char *const rule[] = {title, "--------------------------------------", NULL};
    int col = coverage ? 19 : 28; /* where `Source` starts */
    if (coverage)
        snprintf(title, sizeof title, "%8s  %7s  %s", "Line", "Covered", "Source");
    else
        snprintf(title, sizeof title, "%8s  %9s  %5s  %s", "Line", "Hit count", "%", "Source");
    /* Every line of each source file from its first counted line to its
     * last; the lines without a record have no count. */
    for (int i = 0; i < count;) {
        if (i == 0 || strcmp(recs[i].exe, recs[i - 1].exe) != 0) {
            /* A module's block: its records are consecutive. */
            int64_t hits = 0, ran = 0;
            int n = 0;
            for (int k = i; k < count && strcmp(recs[k].exe, recs[i].exe) == 0; k++, n++) {
                hits += recs[k].hits;
                ran += recs[k].hits > 0;
            }
            snprintf(name, sizeof name, "Module Statistics for %s", recs[i].exe);
            fprintf(f, "%s%s%s", eol, name, eol);
            for (size_t k = 0; k < strlen(name); k++)
                fputc('-', f);
            fprintf(f, "%s    Lines in module: %d%s", eol, n, eol);
            if (!coverage)
                fprintf(f, "    Hits in module: %" PRId64 "%s", hits, eol);
            report_percent(a, sizeof a, ran, n);
            fprintf(f, "    Module line coverage: %s%%%s", a, eol);
        }
        int end = i;
        while (end < count && strcmp(recs[end].source, recs[i].source) == 0 &&
               strcmp(recs[end].exe, recs[i].exe) == 0)
            end++;
        fprintf(f, "%sSource file: %s%s%s", eol, recs[i].source, eol, eol);
        report_page pg = {f, o, rule, 0};
        report_titles(&pg);
        for (int64_t line = recs[i].line, k = i; k < end; line++) {
            int counted = recs[k].line == line;
            const char *text = source_text(line, counted);
            if (!counted)
                snprintf(prefix, sizeof prefix, "%7" PRId64 ":%*s", line, *text ? col - 8 : 0, "");
            else if (coverage)
                snprintf(prefix, sizeof prefix, "%7" PRId64 ":     %c     ", line,
                         recs[k].hits > 0 ? '*' : '.');
            else {
                report_percent(a, sizeof a, recs[k].hits, total);
                snprintf(prefix, sizeof prefix, "%7" PRId64 ":  %9" PRId64 "  %5s  ", line,
                         recs[k].hits, a);
            }
            report_row(&pg, prefix, col, text);
            k += counted;
        }
        i = end;
    }
    close_out(f);
}

static void write_line_profile(const char *dir, const char *base, int method,
                               const char *description, const char *exe, const char *const *sources,
                               int source_count, int coverage, int bom, const report_options *o,
                               const char *dll)
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
            /* With a DLL, the second half of the source files is in it: a
             * second module, whose records follow the first's. */
            recs[count++] = (line_rec){dll && s * 2 >= source_count ? dll : exe, sources[s], line,
                                       hits};
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
        fprintf(f, "7\t%s\t%s\t%" PRId64 "\t%" PRId64 "\n", recs[i].exe, recs[i].source, recs[i].line,
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
    write_line_report(dir, base, recs, count, coverage, o);

    snprintf(name, sizeof name, "expect/%s.lines.tsv", base);
    f = open_out(dir, name);
    fputs("id\texe\tsource\tline\thits\tcovered\n", f);
    for (int i = 0; i < count; i++) {
        fprintf(f, "%d\t", i + 1);
        tsv(f, recs[i].exe);
        fputs("\t", f);
        tsv(f, recs[i].source);
        fprintf(f, "\t%" PRId64 "\t%" PRId64 "\t%d\n", recs[i].line, recs[i].hits,
                recs[i].hits > 0);
    }
    close_out(f);
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        bool help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr,
                "usage: pv_gen_plist [OUTDIR]\n"
                "Writes the PLIST samples (docs/sample-data.md) into OUTDIR (default: .):\n"
                "each run's /T report (plist-*.txt), its text reports (PLIST without /T:\n"
                "every kind and sort order) and the expected figures under OUTDIR/expect.\n");
        return help ? 0 : 1;
    }
    const char *dir = argc > 1 ? argv[1] : ".";
    char expect[4096];
    snprintf(expect, sizeof expect, "%s/expect", dir);
    mkdir(expect, 0777); /* may exist; open_out reports real failures */

    /* Every run writes its /T file and its text reports: every kind and
     * sort order, with wrapped names, page breaks, two modules and CRLF
     * spread over them (tests/cli/plist_text_samples.sh compares each
     * report with the /T file of its run). */
    rng_seed(20261122);
    build_calls("C:\\Program Files\\Demo App\\bin\\demo.exe", timing_objs, 3, 1, NULL);
    const function_profile timing = {"plist-func-timing", 522, "function timing", "\r\n", 1,
                                     INT64_C(12345678)};
    write_function_profile(dir, &timing);
    const report_options by_time = {"report-time", "time", "\r\n", 100, 12};
    const report_options by_name = {"report-name", "function name", "\n", 79, 0};
    const report_options by_counts = {"report-counts", "counts", "\n", 0, 8};
    write_function_report(dir, &timing, &by_time, run_total_time(&timing), run_depth());
    write_function_report(dir, &timing, &by_name, run_total_time(&timing), run_depth());
    write_function_report(dir, &timing, &by_counts, run_total_time(&timing), run_depth());

    static const char *const bare_objs[] = {"main.obj", "view.obj", "solver.obj"};
    rng_seed(7);
    build_calls("demo.exe", bare_objs, 3, 0, NULL);
    const function_profile count = {"plist-func-count", 521, "function count", "\n", 0, 0};
    write_function_profile(dir, &count);
    const report_options count_report = {"report", "counts", "\n", 72, 0};
    write_function_report(dir, &count, &count_report, 0, run_depth());

    static const char *const line_sources[] = {"main.c", "view.cpp", "solver.f90"};
    rng_seed(321);
    const report_options line_report = {"report", "line", "\n", 60, 15};
    write_line_profile(dir, "plist-line-count", 321, "line count", "demo.exe", line_sources, 3, 0,
                       0, &line_report, NULL);
    static const char *const full_sources[] = {"C:\\src\\demo app\\main.c",
                                               "C:\\src\\demo app\\solver.f90"};
    rng_seed(324);
    const report_options coverage_lines = {"report", "line", "\r\n", 0, 0};
    write_line_profile(dir, "plist-line-coverage", 324, "line coverage",
                       "C:\\Program Files\\Demo App\\bin\\demo.exe", full_sources, 2, 1, 1,
                       &coverage_lines, NULL);

    /* Function coverage: two modules (an EXE and a DLL), hits 1 or 0. */
    rng_seed(524);
    build_calls("demo.exe", bare_objs, 3, 0, "render.dll");
    for (int i = 0; i < routine_count; i++)
        routines[i].hits = routines[i].hits > 0;
    const function_profile coverage = {"plist-func-coverage", 524, "function coverage", "\r\n", 0,
                                       0};
    write_function_profile(dir, &coverage);
    const report_options coverage_report = {"report", "function name", "\r\n", 60, 6};
    write_function_report(dir, &coverage, &coverage_report, 0, run_depth());

    /* Line counting in two modules (an EXE and a DLL), CRLF, pages. */
    static const char *const module_sources[] = {"main.c", "render.c", "util.c"};
    rng_seed(3210);
    const report_options modules_report = {"report", "line", "\r\n", 0, 10};
    write_line_profile(dir, "plist-line-modules", 321, "line count", "demo.exe", module_sources, 3,
                       0, 0, &modules_report, "render.dll");
    return 0;
}
