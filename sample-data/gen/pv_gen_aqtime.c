/*
 * pv_gen_aqtime - writes small AQTime result databases (SQLite, the tables
 * and columns of the seeds aqtime-*-db.txt) and, beside each, a plain-text
 * record of what it wrote, computed from the generator's own structures, for
 * the tests to compare profview against.
 *
 *     pv_gen_aqtime OUTDIR
 *     pv_gen_aqtime --scale trace|sets|resource|refcount N OUT.db
 *
 * writes OUTDIR/aqtime-trace.db, aqtime-resource.db, aqtime-refcount.db and
 * their .expect.tsv files.  Deterministic: the same bytes of .expect and the
 * same `sqlite3 .dump` on every run.  Each database holds two result sets
 * whose ID and REC_ID values repeat, so that a join that forgets INST_ID
 * shows.  Standalone: it uses SQLite only, none of profview's code.
 *
 * --scale writes one database for the benchmark and the scale tests (no
 * .expect file): `trace N` a Function Trace result set of N calls over 4
 * threads and 256 routines (subtrees of up to 4096 calls, depth up to 24);
 * `sets N` N small Function Trace result sets (one thread, two routines,
 * three calls each) plus every tenth INST_ID without an INSTANCES row;
 * `resource N` / `refcount N` one Resource / Reference Count result set of
 * N objects (scale_objects).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

static uint64_t rng = 0x5eed1234abcdULL;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)((rng >> 33) % n);
}

static sqlite3 *db;
static FILE *expect;

static void die(const char *what)
{
    fprintf(stderr, "pv_gen_aqtime: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(1);
}

static void exec(const char *sql)
{
    char *err = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
        fprintf(stderr, "pv_gen_aqtime: %s\n  in: %s\n", err ? err : "?", sql);
        exit(1);
    }
}

/* Inserts one row; fmt has one letter per column: i int64, s text (NULL ->
 * NULL), d double. */
static void ins(const char *table, const char *fmt, ...)
{
    char sql[512];
    size_t n = strlen(fmt);
    int len = snprintf(sql, sizeof sql, "INSERT INTO %s VALUES(", table);
    for (size_t k = 0; k < n; k++)
        len += snprintf(sql + len, sizeof sql - (size_t)len, k ? ",?" : "?");
    snprintf(sql + len, sizeof sql - (size_t)len, ")");
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(sql);
    va_list ap;
    va_start(ap, fmt);
    for (size_t k = 0; k < n; k++) {
        int idx = (int)k + 1;
        if (fmt[k] == 'i') {
            sqlite3_bind_int64(st, idx, va_arg(ap, int64_t));
        } else if (fmt[k] == 'd') {
            sqlite3_bind_double(st, idx, va_arg(ap, double));
        } else {
            const char *s = va_arg(ap, const char *);
            if (s)
                sqlite3_bind_text(st, idx, s, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(st, idx);
        }
    }
    va_end(ap);
    if (sqlite3_step(st) != SQLITE_DONE)
        die(table);
    sqlite3_finalize(st);
}

static void open_db(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.db", dir, name);
    unlink(path);
    if (sqlite3_open(path, &db) != SQLITE_OK)
        die(path);
    exec("PRAGMA page_size=4096; BEGIN");
    snprintf(path, sizeof path, "%s/%s.expect.tsv", dir, name);
    expect = fopen(path, "w");
    if (!expect) {
        perror(path);
        exit(1);
    }
}

static void close_db(void)
{
    exec("COMMIT; VACUUM");
    sqlite3_close(db);
    db = NULL;
    fclose(expect);
}

static void instances_table(void)
{
    exec("CREATE TABLE INSTANCES (INST_ID INTEGER, CAPTION TEXT, COUNTER_DESCRIPTION TEXT, "
         "COUNTER_FREQUENCY NUMERIC, COUNTER_NAME TEXT)");
    exec("CREATE TABLE RELATIONS (ID INTEGER, INST_ID INTEGER, COL_CHILD_TABLE TEXT, "
         "COL_PARENT_TABLE TEXT)");
}

static void relations(int64_t inst, const char *const pairs[][2], size_t n)
{
    for (size_t k = 0; k < n; k++)
        ins("RELATIONS", "iiss", (int64_t)k + 1, inst, pairs[k][0], pairs[k][1]);
}

/* A name as profview's TSV writes it (docs/cli.md): tab, newline, CR and
 * backslash escaped. */
static const char *tsv(const char *s)
{
    static char buf[4][256];
    static int which;
    char *out = buf[which++ & 3];
    size_t n = 0;
    for (; *s && n + 3 < sizeof buf[0]; s++) {
        const char *e = *s == '\t' ? "\\t" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r"
                        : *s == '\\' ? "\\\\" : NULL;
        if (e) {
            out[n++] = e[0];
            out[n++] = e[1];
        } else {
            out[n++] = *s;
        }
    }
    out[n] = '\0';
    return out;
}

/* round(cycles * 1e9 / freq), cycles >= 0, in 64 bits (small samples). */
static uint64_t cycles_ns(uint64_t cycles, uint64_t freq)
{
    return (cycles * 1000000000ULL + freq / 2) / freq;
}

/* ================================================================ trace */

#define FT_ROUTINES 8
#define FT_MAX_CALLS 64

typedef struct ft_call {
    int64_t id, rec, call_no, parent; /* parent: index in calls, -1 at top */
    int thread;
    int routine;
    int64_t own, wc, line;
    int depth;
} ft_call;

static const char *const ft_names[2][FT_ROUTINES] = {
    {"main", "parse_args", "load_config", "Matrix::multiply", "fib",
     "operator<<(std::ostream&, int)", "log_write", "qsort_r"},
    {"WinMain", "fib", "CDocument::Serialize", "memcpy", "ReadFile(a, b)", "fib_helper",
     "render\tframe", "exit_handler"},
};

/* The Function Trace tables of the seed, every column. */
static void ft_schema(void)
{
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_ROUTES (COL_RECID INTEGER, COL_HIT_COUNT "
         "INTEGER, COL_ROUTE_NO INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
         "INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_STACK (COL_CALL_NO INTEGER, COL_MODULE_NAME "
         "TEXT, COL_RECID INTEGER, COL_ROUTINE_NAME INTEGER, COL_SOURCE_FILE TEXT, "
         "COL_SOURCE_LINE NUMERIC, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
         "INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_CALL_TRACE (COL__S INTEGER, COL__S_WITH_CHILDREN "
         "INTEGER, COL_CALL_NO INTEGER, COL_LINE_NUMBER INTEGER, COL_NEXT INTEGER, COL_PARENT_NO "
         "INTEGER, COL_RECID INTEGER, COL_ROUTINE_NAME INTEGER, ID INTEGER, INST_ID INTEGER, "
         "PARENT_ID INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_META_LINES (COL_SOURCE_LINE INTEGER, ID INTEGER, "
         "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_META_ROUTINES (COL_ACTIONACTIVE INTEGER, "
         "COL_ACTIONDISABLEROUTINE INTEGER, COL_ACTIONPLACEMENT INTEGER, COL_ACTIONTYPE INTEGER, "
         "COL_ADDRESS NUMERIC, COL_ANALYSIS_RESULT TEXT, COL_CALLINGCONVETION INTEGER, "
         "COL_CLASS_NAME TEXT, COL_CODE_TYPE TEXT, COL_ISCLASSFUNCTION INTEGER, COL_LANGUAGEID "
         "INTEGER, COL_MODULE_NAME TEXT, COL_NAMESPACE TEXT, COL_PROFILELINES INTEGER, "
         "COL_ROUTINE_NAME TEXT, COL_SOURCE_FILE TEXT, COL_SOURCE_LINE INTEGER, "
         "COL_SYMBOL_MONIKER TEXT, COL_TOKEN INTEGER, COL_UNIT_NAME TEXT, COL_TRIGGERACTIVE "
         "INTEGER, COL_TRIGGERCYCLING INTEGER, COL_TRIGGERDISABLEROUTINE INTEGER, "
         "COL_TRIGGERENABLING INTEGER, COL_TRIGGERGLOBAL INTEGER, COL_TRIGGERGLOBALHITCOUNT "
         "INTEGER, COL_TRIGGERPASSCOUNT INTEGER, COL_TRIGGERWORKCOUNT INTEGER, ID INTEGER, "
         "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_METAPARAMETERS (COL_TYPEID INTEGER, "
         "COL_TYPEMEMSIZE INTEGER, COL_TYPENAME TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID "
         "INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER (COL_PARAM_NO INTEGER, "
         "COL_PARAM_TYPE TEXT, COL_PARAM_VALUE TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID "
         "INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_PARAMETERS_ON_EXIT (COL_COMMENT TEXT, "
         "COL_PARAM_NO INTEGER, COL_PARAM_TYPE TEXT, COL_PARAM_VALUE TEXT, ID INTEGER, INST_ID "
         "INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_ROUTINES (COL_ADDRESS NUMERIC, "
         "COL_ANALYSIS_RESULT TEXT, COL_CLASS_NAME TEXT, COL_CODE_TYPE TEXT, COL_HIT_COUNT "
         "INTEGER, COL_MODULE_NAME TEXT, COL_NAMESPACE TEXT, COL_SOURCE_FILE TEXT, "
         "COL_SOURCE_LINE INTEGER, COL_TOKEN INTEGER, COL_UNIT_NAME TEXT, ID INTEGER, INST_ID "
         "INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
    exec("CREATE TABLE FUNCTION_TRACE_PROFILER_THREADS (COL_LINE_NUMBER INTEGER, "
         "COL_WIN32THREADID INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
         "INTEGER)");
}

/* The meta routines of result set inst (ID 0..7, repeating across result
 * sets; REC_ID "Reserved", -1: the ID is the key the trace uses), their
 * lines and parameters. */
static void ft_gen_meta(int inst)
{
    /* Meta routines: ID 0..7 (repeating across result sets), REC_ID
     * "Reserved" (-1); the ID is the key the trace uses. */
    for (int r = 0; r < FT_ROUTINES; r++) {
        char src[64], moniker[64];
        snprintf(src, sizeof src, "src\\unit%d.cpp", r % 3);
        snprintf(moniker, sizeof moniker, "sym%d_%d", inst, r);
        ins("FUNCTION_TRACE_PROFILER_META_ROUTINES",
            "iiiiisissiississisisiiiiiiiiiiii", (int64_t)0, (int64_t)0, (int64_t)0,
            (int64_t)0, (int64_t)(4198400 + r * 64), "", (int64_t)1,
            r == 3 ? "Matrix" : "", "x86", (int64_t)(r == 3), (int64_t)1,
            inst == 1 ? "app.exe" : "game.exe", "", (int64_t)0, ft_names[inst - 1][r], src,
            (int64_t)(10 + r * 20), moniker, (int64_t)0, "unit", (int64_t)0, (int64_t)0,
            (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0, (int64_t)0,
            (int64_t)r, (int64_t)inst, (int64_t)-1, (int64_t)-1);
    }
    int64_t line_id = 1;
    for (int r = 0; r < FT_ROUTINES; r++)
        for (int k = 0; k < 3; k++) {
            ins("FUNCTION_TRACE_PROFILER_META_LINES", "iiiii", (int64_t)(10 + r * 20 + k),
                line_id++, (int64_t)inst, (int64_t)r, (int64_t)k);
            fprintf(expect, "line\t%d\t%d\t%d\n", inst, 100 + r, 10 + r * 20 + k);
        }
    for (int r = 0; r < FT_ROUTINES; r++)
        ins("FUNCTION_TRACE_PROFILER_METAPARAMETERS", "iisiiii", (int64_t)9, (int64_t)4, "int",
            (int64_t)(r + 1), (int64_t)inst, (int64_t)r, (int64_t)0);
}

/* The calls of a result set in pre-order per thread: two roots per
 * thread, a random walk below them; their own times, lines and times
 * with children.  Returns how many. */
static int ft_gen_calls(ft_call *calls)
{
    int ncalls = 0;
    int64_t next_id = 1;
    for (int t = 0; t < 2; t++) {
        int64_t rec = 0, call_no = 1;
        for (int root = 0; root < 2; root++) {
            int stack[8];
            int depth = 0;
            int budget = 10 + (int)rnd(8);
            ft_call *c = &calls[ncalls];
            memset(c, 0, sizeof *c);
            c->id = next_id++;
            c->rec = rec++;
            c->call_no = call_no++;
            c->parent = -1;
            c->thread = t;
            c->routine = root == 0 ? 0 : 6;
            stack[depth++] = ncalls++;
            while (depth > 0) {
                if (budget > 0 && depth < 6 && rnd(3) != 0) {
                    budget--;
                    int parent = stack[depth - 1];
                    ft_call *k = &calls[ncalls];
                    memset(k, 0, sizeof *k);
                    k->id = next_id++;
                    k->rec = rec++;
                    k->call_no = call_no++;
                    k->parent = parent;
                    k->thread = t;
                    /* Recursion: routine 4 ("fib" / "ReadFile") calls itself. */
                    if (calls[parent].routine == 4 && rnd(2) == 0)
                        k->routine = 4;
                    else
                        k->routine = 1 + (int)rnd(FT_ROUTINES - 1);
                    k->depth = depth;
                    stack[depth++] = ncalls++;
                } else {
                    depth--;
                }
            }
        }
    }
    for (int i = 0; i < ncalls; i++) {
        calls[i].own = 40 + (int64_t)rnd(20000);
        calls[i].line = 10 + (int64_t)rnd(400);
    }
    /* With children: children come after their parent, so go backwards. */
    for (int i = ncalls - 1; i >= 0; i--) {
        calls[i].wc += calls[i].own;
        if (calls[i].parent >= 0)
            calls[calls[i].parent].wc += calls[i].wc;
    }
    return ncalls;
}

/* The CALL_TRACE rows (in a shuffled order: only the keys may order them)
 * and the expected tree. */
static void ft_write_calls(int inst, const ft_call *calls, int ncalls, bool is_time,
                           uint64_t freq, const int64_t thread_os[2])
{
    int order[2 * FT_MAX_CALLS];
    for (int i = 0; i < ncalls; i++)
        order[i] = i;
    for (int i = ncalls - 1; i > 0; i--) {
        int j = (int)rnd((uint32_t)i + 1);
        int tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
    }
    for (int oi = 0; oi < ncalls; oi++) {
        const ft_call *c = &calls[order[oi]];
        int64_t next = -1;
        for (int j = order[oi] + 1; j < ncalls; j++)
            if (calls[j].parent == c->parent && calls[j].thread == c->thread) {
                next = calls[j].rec;
                break;
            }
        ins("FUNCTION_TRACE_PROFILER_CALL_TRACE", "iiiiiiiiiiii", c->own, c->wc, c->call_no,
            c->line, next, c->parent >= 0 ? calls[c->parent].rec : (int64_t)-1,
            (int64_t)c->routine, (int64_t)c->routine, c->id, (int64_t)inst,
            (int64_t)c->thread, c->rec);
    }
    /* Expected tree: calls were made in pre-order per thread. */
    for (int i = 0; i < ncalls; i++) {
        const ft_call *c = &calls[i];
        uint64_t t = is_time ? cycles_ns((uint64_t)c->own, freq) : (uint64_t)c->own;
        uint64_t w = is_time ? cycles_ns((uint64_t)c->wc, freq) : (uint64_t)c->wc;
        char parent[32] = "";
        if (c->parent >= 0)
            snprintf(parent, sizeof parent, "%lld", (long long)calls[c->parent].id);
        fprintf(expect, "call\t%d\t%lld\t%lld\t%s\t%d\t%s\t%llu\t%llu\n", inst,
                (long long)thread_os[c->thread], (long long)c->id, parent, c->depth,
                tsv(ft_names[inst - 1][c->routine]), (unsigned long long)t, (unsigned long long)w);
    }
}

/* Parameters on enter and exit of every third call. */
static void ft_gen_params(int inst, const ft_call *calls, int ncalls)
{
    int64_t pid = 1;
    for (int i = 0; i < ncalls; i += 3) {
        char v[64];
        snprintf(v, sizeof v, "%u", rnd(1000));
        ins("FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER", "issiiii", (int64_t)1, "int", v,
            pid, (int64_t)inst, calls[i].id, (int64_t)0);
        fprintf(expect, "param\t%d\tenter\t%lld\t1\t%s\n", inst, (long long)calls[i].id, v);
        ins("FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER", "issiiii", (int64_t)2,
            "const char *", "\"a,b\"", pid + 1, (int64_t)inst, calls[i].id, (int64_t)1);
        fprintf(expect, "param\t%d\tenter\t%lld\t2\t\"a,b\"\n", inst, (long long)calls[i].id);
        snprintf(v, sizeof v, "%d", (int)rnd(3) - 1);
        ins("FUNCTION_TRACE_PROFILER_PARAMETERS_ON_EXIT", "sissiiii", "result", (int64_t)0,
            "int", v, pid, (int64_t)inst, calls[i].id, (int64_t)0);
        fprintf(expect, "param\t%d\texit\t%lld\t0\t%s\n", inst, (long long)calls[i].id, v);
        pid += 2;
    }
}

/* The ROUTINES rows (ID 100+r, REC_ID the meta routine's ID) with their
 * hits and times summed from the calls. */
static void ft_gen_routines(int inst, const ft_call *calls, int ncalls, bool is_time,
                            uint64_t freq)
{
    for (int r = 0; r < FT_ROUTINES; r++) {
        int64_t hits = 0;
        uint64_t own = 0, wc = 0;
        for (int i = 0; i < ncalls; i++) {
            if (calls[i].routine != r)
                continue;
            hits++;
            own += (uint64_t)calls[i].own;
            bool nested = false;
            for (int p = (int)calls[i].parent; p >= 0; p = (int)calls[p].parent)
                nested = nested || calls[p].routine == r;
            if (!nested)
                wc += (uint64_t)calls[i].wc;
        }
        char src[64];
        snprintf(src, sizeof src, "src\\unit%d.cpp", r % 3);
        ins("FUNCTION_TRACE_PROFILER_ROUTINES", "isssisssiisiiii", (int64_t)(4198400 + r * 64),
            "", r == 3 ? "Matrix" : "", "x86", hits, inst == 1 ? "app.exe" : "game.exe", "",
            src, (int64_t)(10 + r * 20), (int64_t)0, "unit", (int64_t)(100 + r),
            (int64_t)inst, (int64_t)-1, (int64_t)r);
        fprintf(expect, "routine\t%d\t%d\t%s\t%lld\t%llu\t%llu\n", inst, 100 + r,
                tsv(ft_names[inst - 1][r]), (long long)hits,
                (unsigned long long)(is_time ? cycles_ns(own, freq) : own),
                (unsigned long long)(is_time ? cycles_ns(wc, freq) : wc));
    }
}

/* The call routes: the distinct stacks (routine up to the root) of each
 * routine's calls, in order of first appearance, and their call stacks. */
static void ft_gen_routes(int inst, const ft_call *calls, int ncalls)
{
    int64_t route_id = 1, stack_id = 1;
    for (int r = 0; r < FT_ROUTINES; r++) {
        int routes[2 * FT_MAX_CALLS][8];
        int route_len[2 * FT_MAX_CALLS];
        int64_t route_hits[2 * FT_MAX_CALLS];
        int nroutes = 0;
        for (int i = 0; i < ncalls; i++) {
            if (calls[i].routine != r)
                continue;
            int path[8], len = 0;
            for (int p = i; p >= 0 && len < 8; p = (int)calls[p].parent)
                path[len++] = calls[p].routine;
            int found = -1;
            for (int k = 0; k < nroutes && found < 0; k++)
                if (route_len[k] == len && memcmp(routes[k], path, sizeof(int) * (size_t)len) == 0)
                    found = k;
            if (found < 0) {
                found = nroutes++;
                memcpy(routes[found], path, sizeof path);
                route_len[found] = len;
                route_hits[found] = 0;
            }
            route_hits[found]++;
        }
        for (int k = 0; k < nroutes; k++) {
            ins("FUNCTION_TRACE_PROFILER_CALL_ROUTES", "iiiiiii", (int64_t)r, route_hits[k],
                (int64_t)(k + 1), route_id, (int64_t)inst, (int64_t)(100 + r), (int64_t)k);
            fprintf(expect, "route\t%d\t%lld\t%d\t%lld\n", inst, (long long)route_id, 100 + r,
                    (long long)route_hits[k]);
            for (int pos = 0; pos < route_len[k]; pos++) {
                int m = routes[k][pos];
                char src[64];
                snprintf(src, sizeof src, "src\\unit%d.cpp", m % 3);
                ins("FUNCTION_TRACE_PROFILER_CALL_STACK", "isiisiiiii", (int64_t)pos,
                    inst == 1 ? "app.exe" : "game.exe", (int64_t)m, (int64_t)m, src,
                    (int64_t)(10 + m * 20), stack_id++, (int64_t)inst, route_id, (int64_t)pos);
                fprintf(expect, "stack\t%d\t%lld\t%d\t%s\n", inst, (long long)route_id, pos,
                        tsv(ft_names[inst - 1][m]));
            }
            route_id++;
        }
    }
}

static void gen_trace(const char *dir)
{
    open_db(dir, "aqtime-trace");
    instances_table();
    ft_schema();
    static const char *const rel[][2] = {
        {"FUNCTION_TRACE_PROFILER_THREADS", NULL},
        {"FUNCTION_TRACE_PROFILER_CALL_TRACE", "FUNCTION_TRACE_PROFILER_THREADS"},
        {"FUNCTION_TRACE_PROFILER_PARAMETERS_ON_ENTER", "FUNCTION_TRACE_PROFILER_CALL_TRACE"},
        {"FUNCTION_TRACE_PROFILER_PARAMETERS_ON_EXIT", "FUNCTION_TRACE_PROFILER_CALL_TRACE"},
        {"FUNCTION_TRACE_PROFILER_ROUTINES", NULL},
        {"FUNCTION_TRACE_PROFILER_CALL_ROUTES", "FUNCTION_TRACE_PROFILER_ROUTINES"},
        {"FUNCTION_TRACE_PROFILER_CALL_STACK", "FUNCTION_TRACE_PROFILER_CALL_ROUTES"},
        {"FUNCTION_TRACE_PROFILER_META_ROUTINES", NULL},
        {"FUNCTION_TRACE_PROFILER_META_LINES", "FUNCTION_TRACE_PROFILER_META_ROUTINES"},
        {"FUNCTION_TRACE_PROFILER_METAPARAMETERS", "FUNCTION_TRACE_PROFILER_META_ROUTINES"},
    };
    fprintf(expect, "# call\tinst\tthread\tid\tparent\tdepth\troutine\ttime\ttime_with_children\n"
                    "# routine\tinst\tid\troutine\thits\ttime\ttime_with_children\n"
                    "# route\tinst\tid\troutine_id\thits\n"
                    "# stack\tinst\troute_id\tposition\troutine\n"
                    "# param\tinst\tenter|exit\tcall_id\tparam_no\tvalue\n"
                    "# line\tinst\troutine_id\tline\n");

    for (int inst = 1; inst <= 2; inst++) {
        /* Result set 1: Elapsed Time at an odd frequency (so rounding shows);
         * result set 2: a count counter. */
        const uint64_t freq = inst == 1 ? 3579545 : 1000000;
        const bool is_time = inst == 1;
        if (is_time)
            ins("INSTANCES", "issds", (int64_t)inst, "Run 1 - Elapsed Time", "Elapsed Time",
                (double)freq, "Time");
        else
            ins("INSTANCES", "issds", (int64_t)inst, "Run 2 - Cache Misses", "CPU Cache Misses",
                (double)freq, "Misses");
        relations(inst, rel, sizeof rel / sizeof rel[0]);
        const int64_t thread_os[2] = {inst == 1 ? 4120 : 7001, inst == 1 ? 5332 : 7002};
        for (int t = 0; t < 2; t++)
            ins("FUNCTION_TRACE_PROFILER_THREADS", "iiiiii", (int64_t)0, thread_os[t], (int64_t)t,
                (int64_t)inst, (int64_t)-1, (int64_t)t);

        ft_gen_meta(inst);
        ft_call calls[2 * FT_MAX_CALLS];
        int ncalls = ft_gen_calls(calls);
        ft_write_calls(inst, calls, ncalls, is_time, freq, thread_os);
        ft_gen_params(inst, calls, ncalls);
        ft_gen_routines(inst, calls, ncalls, is_time, freq);
        ft_gen_routes(inst, calls, ncalls);
    }
    close_db();
}

/* ===================================================== resource, refcount */

#define OB_CLASSES 4
#define OB_ROUTINES 6
#define OB_OBJECTS 8

static const char *const ob_classes[2][OB_CLASSES] = {
    {"CBitmap", "CString", "CFile", "HANDLE<Event>"},
    {"IStream", "IUnknown", "CWindow", "std::vector<int, alloc>"},
};
static const char *const ob_routines[2][OB_ROUTINES] = {
    {"main", "CreateBitmap", "LoadImage", "AllocString", "OpenFile", "Worker::Run"},
    {"wWinMain", "CoCreateInstance", "QueryInterface", "CWindow::Create", "Stream::Clone",
     "Render"},
};

static void ob_common_tables(const char *p, bool refcount)
{
    char sql[1024];
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s_CLASSES_DATA (COL_CLASS_NAME TEXT, COL_LIVE_COUNT INTEGER, "
             "COL_LIVE_SIZE INTEGER, COL_MODULE_NAME TEXT, COL_PEAK_CREATED INTEGER, "
             "COL_PEAK_SIZE INTEGER, COL_TOTAL_CREATED INTEGER, COL_TOTAL_SIZE INTEGER, ID "
             "INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)", p);
    exec(sql);
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s_CREATION_CALL_STACK (COL_HIT_COUNT INTEGER, COL_LINERID INTEGER, "
             "COL_ROUTINERID INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
             "INTEGER)", p);
    exec(sql);
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s_META_CLASSES_DATA (COL_CLASS_NAME TEXT, COL_MODULE_NAME TEXT, "
             "COL_SYMBOL_MONIKER TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
             "INTEGER)", p);
    exec(sql);
    snprintf(sql, sizeof sql,
             "CREATE TABLE %s_META_LINES (COL_SOURCE_LINE INTEGER, ID INTEGER, INST_ID INTEGER, "
             "PARENT_ID INTEGER, REC_ID INTEGER)", p);
    exec(sql);
    if (refcount)
        snprintf(sql, sizeof sql,
                 "CREATE TABLE %s_META_ROUTINES (COL_ADDRESS NUMERIC, COL_ANALYSIS_RESULT TEXT, "
                 "COL_CLASS_NAME TEXT, COL_CODE_TYPE TEXT, COL_HIT_COUNT INTEGER, "
                 "COL_MODULE_NAME TEXT, COL_NAMESPACE TEXT, COL_PROFILELINES INTEGER, "
                 "COL_ROUTINENAME TEXT, COL_SOURCE_FILE TEXT, COL_SOURCE_LINE INTEGER, "
                 "COL_SYMBOL_MONIKER TEXT, COL_TOKEN INTEGER, COL_UNIT_NAME TEXT, ID INTEGER, "
                 "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)", p);
    else
        snprintf(sql, sizeof sql,
                 "CREATE TABLE %s_META_ROUTINES (COL_HIT_COUNT INTEGER, COL_COMPILER INTEGER, "
                 "COL_ADDRESS NUMERIC, COL_ANALISYS_RESULT TEXT, COL_CLASS_NAME TEXT, "
                 "COL_CODE_TYPE TEXT, COL_MODULE_NAME TEXT, COL_NAMESPACE TEXT, "
                 "COL_PROFILELINES INTEGER, COL_ROUTINE_NAME TEXT, COL_SOURCE_FILE TEXT, "
                 "COL_SOURCE_LINE INTEGER, COL_SYMBOL_MONIKER TEXT, COL_TOKEN INTEGER, "
                 "COL_UNIT_NAME TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
                 "INTEGER)", p);
    exec(sql);
}

/* The tables of a Resource or Reference Count database. */
static void ob_schema(const char *p, bool refcount)
{
    ob_common_tables(p, refcount);
    if (refcount) {
        exec("CREATE TABLE REFERENCE_COUNT_PROFILER_OBJECTS (COL__ INTEGER, COL_ADDRESS INTEGER, "
             "COL_CLASSRID INTEGER, COL_GET_ INTEGER, COL_LIVE_REFERENCES INTEGER, "
             "COL_PEAK_REFERENCES INTEGER, COL_SIZE INTEGER, COL_THREADRID INTEGER, "
             "COL_TOTAL_REFERENCES INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, "
             "REC_ID INTEGER)");
        exec("CREATE TABLE REFERENCE_COUNT_PROFILER_THREADS (COL_NAME TEXT, COL_SIZE INTEGER, "
             "COL_WIN32THREADID TEXT, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
             "INTEGER)");
        exec("CREATE TABLE REFERENCE_COUNT_PROFILER_REFERENCES (COL__ INTEGER, "
             "COL_ADDREF_RELEASE INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID "
             "INTEGER)");
        exec("CREATE TABLE REFERENCE_COUNT_PROFILER_ADDREF_RELEASE_CALL_STACK (COL_CALL_NO "
             "INTEGER, COL_ROUTINE_NAME INTEGER, COL_SOURCE_LINE TEXT, ID INTEGER, INST_ID "
             "INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
        exec("CREATE TABLE REFERENCE_COUNT_PROFILER_REFCOUNT_TREE (COL_ROUTINE_HITCOUNT_ON_ENTER "
             "INTEGER, COL_PARENT_INDEX INTEGER, COL_RESULT_REFCOUNT INTEGER, COL_ROUTINE_NAME "
             "INTEGER, COL_SOURCE_LINE INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, "
             "REC_ID INTEGER)");
    } else {
        exec("CREATE TABLE RESOURCE_PROFILER_OBJECTS (COL__ NUMERIC, COL_ADDRESS NUMERIC, "
             "COL_CLASSRID INTEGER, COL_GET_ INTEGER, COL_SIZE NUMERIC, COL_THREADID INTEGER, ID "
             "INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
        exec("CREATE TABLE RESOURCE_PROFILER_THREADS (COL_SIZE INTEGER, COL_WIN32THREADID "
             "INTEGER, ID INTEGER, INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
        exec("CREATE TABLE RESOURCE_PROFILER_ERRORS (COL__ INTEGER, COL_DESCRIPTION TEXT, "
             "COL_ERROR_CODE INTEGER, COL_KIND INTEGER, COL_NAME TEXT, ID INTEGER, INST_ID "
             "INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
        exec("CREATE TABLE RESOURCE_PROFILER_CALL_STACK (COL_ROUTINERID INTEGER, ID INTEGER, "
             "INST_ID INTEGER, PARENT_ID INTEGER, REC_ID INTEGER)");
    }
}

typedef struct ob_object {
    int64_t id;
    int cls, thread;
    int64_t size, address;
    int refs[8]; /* 1 AddRef, 0 Release */
    int nrefs;
} ob_object;

/* The names of a Resource or Reference Count database's tables. */
typedef struct ob_tables {
    char objects[64], threads[64], classes[64], mclasses[64], cstack[64], meta[64], lines[64];
} ob_tables;

/* Threads, meta routines, their lines and the meta classes of result set
 * inst. */
static void ob_gen_meta(int inst, bool refcount, const ob_tables *T, const int64_t thread_os[2])
{
    for (int t = 0; t < 2; t++) {
        char os[32];
        snprintf(os, sizeof os, "%lld", (long long)thread_os[t]);
        if (refcount)
            ins(T->threads, "sisiiii", t == 0 ? "Main thread" : "Worker", (int64_t)4096, os,
                (int64_t)(t + 1), (int64_t)inst, (int64_t)-1, (int64_t)t);
        else
            ins(T->threads, "iiiiii", (int64_t)4096, thread_os[t], (int64_t)t, (int64_t)inst,
                (int64_t)-1, (int64_t)t);
    }
    for (int r = 0; r < OB_ROUTINES; r++) {
        char src[64];
        snprintf(src, sizeof src, "src/obj%d.cpp", r);
        if (refcount)
            ins(T->meta, "isssississisisiiii", (int64_t)(4096 + r * 32), "", "", "x86",
                (int64_t)r, "com.dll", "", (int64_t)0, ob_routines[inst - 1][r], src,
                (int64_t)(100 * (r + 1)), "", (int64_t)0, "u", (int64_t)r, (int64_t)inst,
                (int64_t)-1, (int64_t)r);
        else
            ins(T->meta, "iiisssssissisisiiii", (int64_t)r, (int64_t)1, (int64_t)(4096 + r * 32),
                "", "", "x86", "res.exe", "", (int64_t)0, ob_routines[inst - 1][r], src,
                (int64_t)(100 * (r + 1)), "", (int64_t)0, "u", (int64_t)r, (int64_t)inst,
                (int64_t)-1, (int64_t)r);
    }
    /* Lines: Resource numbers them within the routine, Reference Count
     * within the result set. */
    int64_t line_id = 1;
    for (int r = 0; r < OB_ROUTINES; r++)
        for (int k = 0; k < 3; k++) {
            ins(T->lines, "iiiii", (int64_t)(100 * (r + 1) + 5 * k), line_id, (int64_t)inst,
                (int64_t)r, refcount ? (int64_t)(r * 3 + k) : (int64_t)k);
            line_id++;
        }
    /* Classes: META ID 10+i, REC_ID i; objects name the REC_ID. */
    for (int c = 0; c < OB_CLASSES; c++)
        ins(T->mclasses, "sssiiii", ob_classes[inst - 1][c], "mod.dll", "", (int64_t)(10 + c),
            (int64_t)inst, (int64_t)-1, (int64_t)c);
}

/* The objects of a result set, with their AddRef/Release sequences. */
static void ob_gen_objects(ob_object *objs)
{
    for (int o = 0; o < OB_OBJECTS; o++) {
        ob_object *ob = &objs[o];
        ob->id = o + 1;
        ob->cls = (int)rnd(OB_CLASSES);
        ob->thread = (int)rnd(2);
        ob->size = 16 + 8 * (int64_t)rnd(100);
        ob->address = 0x00400000 + 0x100 * (int64_t)o;
        ob->nrefs = 2 + (int)rnd(5);
        int live = 0;
        for (int k = 0; k < ob->nrefs; k++) {
            ob->refs[k] = live == 0 || rnd(2) == 0;
            live += ob->refs[k] ? 1 : -1;
        }
    }
}

/* The classes' rows, their counts and sizes summed from the objects. */
static void ob_gen_classes(int inst, const ob_object *objs, const ob_tables *T)
{
    for (int c = 0; c < OB_CLASSES; c++) {
        int64_t count = 0, size = 0;
        for (int o = 0; o < OB_OBJECTS; o++)
            if (objs[o].cls == c) {
                count++;
                size += objs[o].size;
            }
        ins(T->classes, "siisiiiiiiii", ob_classes[inst - 1][c], count, size, "mod.dll", count,
            size, count, size, (int64_t)(c + 1), (int64_t)inst, (int64_t)-1, (int64_t)c);
        fprintf(expect, "class\t%d\t%d\t%s\t%lld\t%lld\t%lld\t%lld\t%lld\t%lld\n", inst, c + 1,
                ob_classes[inst - 1][c], (long long)count, (long long)size, (long long)count,
                (long long)size, (long long)count, (long long)size);
    }
}

/* An object's references and their AddRef/Release call stacks. */
static void ob_gen_refs(int inst, const ob_object *ob, const int64_t thread_os[2], int64_t *ref_id,
                        int64_t *as_id)
{
    for (int k = 0; k < ob->nrefs; k++) {
        ins("REFERENCE_COUNT_PROFILER_REFERENCES", "iiiiii", (int64_t)(k + 1),
            (int64_t)ob->refs[k], (*ref_id), (int64_t)inst, ob->id, (int64_t)k);
        fprintf(expect, "ref\t%d\t%lld\t%lld\t%d\t%s\n", inst, (long long)(*ref_id),
                (long long)ob->id, k + 1, ob->refs[k] ? "AddRef" : "Release");
        /* AddRef/Release stack: two routines, then the thread. */
        for (int pos = 0; pos < 3; pos++) {
            int r = 1 + (int)rnd(OB_ROUTINES - 1);
            int64_t v = pos == 2 ? -(int64_t)ob->thread - 2 : r;
            char line[16];
            snprintf(line, sizeof line, "%d", 100 * (r + 1));
            ins("REFERENCE_COUNT_PROFILER_ADDREF_RELEASE_CALL_STACK", "iisiiii",
                (int64_t)pos, v, pos == 2 ? "" : line, (*as_id)++, (int64_t)inst, (*ref_id),
                (int64_t)pos);
            if (pos == 2)
                fprintf(expect, "astack\t%d\t%lld\t%d\tThread %lld\n", inst,
                        (long long)(*ref_id), pos, (long long)thread_os[ob->thread]);
            else
                fprintf(expect, "astack\t%d\t%lld\t%d\t%s\n", inst, (long long)(*ref_id), pos,
                        ob_routines[inst - 1][r]);
        }
        (*ref_id)++;
    }
}

/* An object's ref-count call tree: <Root>, the thread, then routines whose
 * parents come earlier (REC_ID order), rows shuffled. */
static void ob_gen_tree(int inst, const ob_object *ob, const int64_t thread_os[2], int64_t *tree_id)
{
    int n = 3 + (int)rnd(5);
    int parent[8], routine[8], depth[8];
    int64_t change[8];
    for (int k = 0; k < n; k++) {
        parent[k] = k == 0 ? -1 : k == 1 ? 0 : 1 + (int)rnd((uint32_t)k - 1);
        routine[k] = k == 0 ? -1 : k == 1 ? -(ob->thread) - 2 : (int)rnd(OB_ROUTINES);
        depth[k] = k == 0 ? 0 : depth[parent[k]] + 1;
        change[k] = (int64_t)rnd(5) - 2;
    }
    int64_t ids[8];
    for (int k = 0; k < n; k++)
        ids[k] = (*tree_id)++;
    int order[8];
    for (int k = 0; k < n; k++)
        order[k] = n - 1 - k;
    for (int oi = 0; oi < n; oi++) {
        int k = order[oi];
        ins("REFERENCE_COUNT_PROFILER_REFCOUNT_TREE", "iiiiiiiii", (int64_t)(1 + rnd(9)),
            (int64_t)parent[k], change[k], (int64_t)routine[k], (int64_t)(10 + k),
            ids[k], (int64_t)inst, ob->id, (int64_t)k);
    }
    /* Pre-order with siblings by REC_ID. */
    int stack[8], sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        int k = stack[--sp];
        char name[64];
        if (routine[k] == -1)
            snprintf(name, sizeof name, "<Root>");
        else if (routine[k] <= -2)
            snprintf(name, sizeof name, "Thread %lld",
                     (long long)thread_os[-routine[k] - 2]);
        else
            snprintf(name, sizeof name, "%s", ob_routines[inst - 1][routine[k]]);
        char par[32] = "";
        if (parent[k] >= 0)
            snprintf(par, sizeof par, "%lld", (long long)ids[parent[k]]);
        fprintf(expect, "tree\t%d\t%lld\t%lld\t%s\t%d\t%s\t%lld\n", inst,
                (long long)ob->id, (long long)ids[k], par, depth[k], name,
                (long long)change[k]);
        for (int j = n - 1; j > k; j--)
            if (parent[j] == k)
                stack[sp++] = j;
    }
}

/* The Resource errors of a result set and their call stacks. */
static void ob_gen_errors(int inst, const int64_t thread_os[2])
{
    int64_t es_id = 1;
    for (int e = 0; e < 3; e++) {
        int thread = (int)rnd(2);
        int kind = e == 1 ? 2 : 1;
        char desc[96];
        snprintf(desc, sizeof desc, "The handle is invalid (%d)", e);
        ins("RESOURCE_PROFILER_ERRORS", "isiisiiii", (int64_t)(e + 1), desc,
            (int64_t)(6 + e), (int64_t)kind, e == 2 ? "ReleaseDC" : "CloseHandle",
            (int64_t)(e + 1), (int64_t)inst, (int64_t)thread, (int64_t)e);
        fprintf(expect, "error\t%d\t%d\t%s\t%s\t%lld\n", inst, e + 1,
                kind == 1 ? "Error" : "Warning", e == 2 ? "ReleaseDC" : "CloseHandle",
                (long long)thread_os[thread]);
        for (int pos = 0; pos < 2; pos++) {
            int r = pos == 1 ? 0 : 1 + (int)rnd(OB_ROUTINES - 1);
            ins("RESOURCE_PROFILER_CALL_STACK", "iiiii", (int64_t)r, es_id++,
                (int64_t)inst, (int64_t)(e + 1), (int64_t)pos);
            fprintf(expect, "estack\t%d\t%d\t%d\t%s\n", inst, e + 1, pos,
                    ob_routines[inst - 1][r]);
        }
    }
}

static void gen_objects(const char *dir, bool refcount)
{
    const char *p = refcount ? "REFERENCE_COUNT_PROFILER" : "RESOURCE_PROFILER";
    open_db(dir, refcount ? "aqtime-refcount" : "aqtime-resource");
    instances_table();
    ob_tables T;
    snprintf(T.objects, sizeof T.objects, "%s_OBJECTS", p);
    snprintf(T.threads, sizeof T.threads, "%s_THREADS", p);
    snprintf(T.classes, sizeof T.classes, "%s_CLASSES_DATA", p);
    snprintf(T.mclasses, sizeof T.mclasses, "%s_META_CLASSES_DATA", p);
    snprintf(T.cstack, sizeof T.cstack, "%s_CREATION_CALL_STACK", p);
    snprintf(T.meta, sizeof T.meta, "%s_META_ROUTINES", p);
    snprintf(T.lines, sizeof T.lines, "%s_META_LINES", p);
    ob_schema(p, refcount);
    fprintf(expect, "# class\tinst\tid\tclass\tlive_count\tlive_size\tpeak_created\tpeak_size\t"
                    "total_created\ttotal_size\n"
                    "# object\tinst\tid\tnumber\tclass\tsize\tthread%s\n"
                    "# cstack\tinst\tobject_id\tposition\troutine\tline\n",
            refcount ? "\tlive_references\tpeak_references\ttotal_references" : "");
    if (refcount)
        fprintf(expect, "# ref\tinst\tid\tobject\tnumber\tkind\n"
                        "# astack\tinst\tref_id\tposition\troutine\n"
                        "# tree\tinst\tobject_id\tid\tparent\tdepth\troutine\tchange\n");
    else
        fprintf(expect, "# error\tinst\tid\tkind\tname\tthread\n"
                        "# estack\tinst\terror_id\tposition\troutine\n");

    for (int inst = 1; inst <= 2; inst++) {
        ins("INSTANCES", "issss", (int64_t)inst, inst == 1 ? "Leaks - first run" : "Second run",
            NULL, NULL, NULL);
        const int64_t thread_os[2] = {inst == 1 ? 2204 : 9100, inst == 1 ? 2808 : 9104};
        ob_gen_meta(inst, refcount, &T, thread_os);
        ob_object objs[OB_OBJECTS];
        ob_gen_objects(objs);
        ob_gen_classes(inst, objs, &T);
        int64_t cs_id = 1, ref_id = 1, as_id = 1, tree_id = 1;
        for (int o = 0; o < OB_OBJECTS; o++) {
            ob_object *ob = &objs[o];
            int live = 0, peak = 0, total = 0;
            for (int k = 0; k < ob->nrefs; k++) {
                live += ob->refs[k] ? 1 : -1;
                total += ob->refs[k];
                if (live > peak)
                    peak = live;
            }
            if (refcount)
                ins(T.objects, "iiiiiiiiiiiii", (int64_t)(o + 1), ob->address, (int64_t)ob->cls,
                    (int64_t)o, (int64_t)live, (int64_t)peak, ob->size, (int64_t)ob->thread,
                    (int64_t)total, ob->id, (int64_t)inst, (int64_t)-1, (int64_t)o);
            else
                ins(T.objects, "iiiiiiiiii", (int64_t)(o + 1), ob->address, (int64_t)ob->cls,
                    (int64_t)o, ob->size, (int64_t)ob->thread, ob->id, (int64_t)inst, (int64_t)-1,
                    (int64_t)0);
            fprintf(expect, "object\t%d\t%lld\t%d\t%s\t%lld\t%lld", inst, (long long)ob->id, o + 1,
                    ob_classes[inst - 1][ob->cls], (long long)ob->size,
                    (long long)thread_os[ob->thread]);
            if (refcount)
                fprintf(expect, "\t%d\t%d\t%d", live, peak, total);
            fprintf(expect, "\n");
            /* Creation call stack: 3 entries, the top first. */
            for (int pos = 0; pos < 3; pos++) {
                int r = pos == 2 ? 0 : 1 + (int)rnd(OB_ROUTINES - 1);
                int k = (int)rnd(3);
                int64_t linerid = refcount ? r * 3 + k : k;
                ins(T.cstack, "iiiiiii", (int64_t)(1 + rnd(5)), linerid, (int64_t)r, cs_id++,
                    (int64_t)inst, ob->id, (int64_t)pos);
                fprintf(expect, "cstack\t%d\t%lld\t%d\t%s\t%d\n", inst, (long long)ob->id, pos,
                        ob_routines[inst - 1][r], 100 * (r + 1) + 5 * k);
            }
            if (!refcount)
                continue;
            ob_gen_refs(inst, ob, thread_os, &ref_id, &as_id);
            ob_gen_tree(inst, ob, thread_os, &tree_id);
        }
        if (!refcount)
            ob_gen_errors(inst, thread_os);
        static const char *const rs_rel[][2] = {
            {"RESOURCE_PROFILER_CLASSES_DATA", NULL},
            {"RESOURCE_PROFILER_OBJECTS", NULL},
            {"RESOURCE_PROFILER_CREATION_CALL_STACK", "RESOURCE_PROFILER_OBJECTS"},
            {"RESOURCE_PROFILER_THREADS", NULL},
            {"RESOURCE_PROFILER_ERRORS", "RESOURCE_PROFILER_THREADS"},
            {"RESOURCE_PROFILER_CALL_STACK", "RESOURCE_PROFILER_ERRORS"},
        };
        static const char *const rc_rel[][2] = {
            {"REFERENCE_COUNT_PROFILER_CLASSES_DATA", NULL},
            {"REFERENCE_COUNT_PROFILER_OBJECTS", NULL},
            {"REFERENCE_COUNT_PROFILER_CREATION_CALL_STACK", "REFERENCE_COUNT_PROFILER_OBJECTS"},
            {"REFERENCE_COUNT_PROFILER_REFERENCES", "REFERENCE_COUNT_PROFILER_OBJECTS"},
            {"REFERENCE_COUNT_PROFILER_ADDREF_RELEASE_CALL_STACK",
             "REFERENCE_COUNT_PROFILER_REFERENCES"},
            {"REFERENCE_COUNT_PROFILER_REFCOUNT_TREE", "REFERENCE_COUNT_PROFILER_OBJECTS"},
        };
        if (refcount)
            relations(inst, rc_rel, sizeof rc_rel / sizeof rc_rel[0]);
        else
            relations(inst, rs_rel, sizeof rs_rel / sizeof rs_rel[0]);
    }
    close_db();
}

/* ================================================================ scale */

static sqlite3_stmt *prep(const char *sql)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        die(sql);
    return st;
}

static void step_reset(sqlite3_stmt *st)
{
    if (sqlite3_step(st) != SQLITE_DONE)
        die("insert");
    sqlite3_reset(st);
}

static void scale_schema(void)
{
    exec("PRAGMA page_size=4096; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN");
    instances_table();
    ft_schema();
}

static const char *const meta_sql =
    "INSERT INTO FUNCTION_TRACE_PROFILER_META_ROUTINES (COL_MODULE_NAME, COL_ROUTINE_NAME, "
    "COL_SOURCE_FILE, COL_SOURCE_LINE, ID, INST_ID, PARENT_ID, REC_ID) VALUES(?,?,?,?,?,?,?,?)";
static const char *const routines_sql =
    "INSERT INTO FUNCTION_TRACE_PROFILER_ROUTINES (COL_HIT_COUNT, ID, INST_ID, PARENT_ID, REC_ID) "
    "VALUES(?,?,?,?,?)";

/* Meta routines 0..count-1 ("main", "routine_001", ...) and their ROUTINES
 * rows (ID 100 + r) with their hit counts. */
static void scale_meta(int64_t inst, int count, const int64_t *hits)
{
    sqlite3_stmt *meta = prep(meta_sql), *routines = prep(routines_sql);
    for (int r = 0; r < count; r++) {
        char name[64], src[64];
        snprintf(name, sizeof name, r == 0 ? "main" : "routine_%03d", r);
        snprintf(src, sizeof src, "src\\unit%d.cpp", r % 17);
        sqlite3_bind_text(meta, 1, "app.exe", -1, SQLITE_STATIC);
        sqlite3_bind_text(meta, 2, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(meta, 3, src, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(meta, 4, 10 + r * 7);
        sqlite3_bind_int64(meta, 5, r);
        sqlite3_bind_int64(meta, 6, inst);
        sqlite3_bind_int64(meta, 7, -1);
        sqlite3_bind_int64(meta, 8, -1);
        step_reset(meta);
        sqlite3_bind_int64(routines, 1, hits[r]);
        sqlite3_bind_int64(routines, 2, 100 + r);
        sqlite3_bind_int64(routines, 3, inst);
        sqlite3_bind_int64(routines, 4, -1);
        sqlite3_bind_int64(routines, 5, r);
        step_reset(routines);
    }
    sqlite3_finalize(meta);
    sqlite3_finalize(routines);
}

typedef struct sc_call {
    int64_t own, wc, rec, call_no, next;
    int parent; /* index in the subtree buffer, -1 for its root */
    int routine;
} sc_call;

#define SC_SUBTREE 4096
#define SC_DEPTH 24

static void scale_call(sqlite3_stmt *st, const sc_call *c, int64_t parent_rec, int64_t id,
                       int64_t inst, int64_t thread)
{
    int64_t v[12] = {c->own,  c->wc,           c->call_no, 10 + c->routine, c->next, parent_rec,
                     c->routine, c->routine, id,        inst,            thread,  c->rec};
    for (int k = 0; k < 12; k++)
        sqlite3_bind_int64(st, k + 1, v[k]);
    step_reset(st);
}

static void scale_trace(int64_t ncalls)
{
    scale_schema();
    /* A 1 GHz counter: cycles are ns, so sums stay exact in the tests. */
    ins("INSTANCES", "issds", (int64_t)1, "Scale - Elapsed Time", "Elapsed Time", 1e9, "Time");
    const int threads = 4, routines = 256;
    for (int t = 0; t < threads; t++)
        ins("FUNCTION_TRACE_PROFILER_THREADS", "iiiiii", (int64_t)0, (int64_t)(4000 + t),
            (int64_t)t, (int64_t)1, (int64_t)-1, (int64_t)t);
    static int64_t hits[256];
    sqlite3_stmt *st = prep("INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE "
                            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
    static sc_call buf[SC_SUBTREE];
    int64_t id = 1;
    for (int t = 0; t < threads; t++) {
        int64_t left = ncalls / threads + (t < ncalls % threads);
        int64_t rec = 0, call_no = 1;
        while (left > 0) {
            /* One root and its subtree, in pre-order. */
            int budget = (int)(left < SC_SUBTREE ? left : 1 + rnd(SC_SUBTREE));
            int n = 0, stack[SC_DEPTH], depth = 0;
            buf[n] = (sc_call){0, 0, rec++, call_no++, -1, -1, 0};
            stack[depth++] = n++;
            while (depth > 0) {
                if (n < budget && depth < SC_DEPTH && rnd(8) < 5) {
                    int parent = stack[depth - 1];
                    buf[n] = (sc_call){0, 0, rec++, call_no++, -1, parent,
                                       1 + (int)rnd(routines - 1)};
                    stack[depth++] = n++;
                } else {
                    depth--;
                }
            }
            /* own times, then with children (children follow their parent) */
            for (int i = 0; i < n; i++) {
                buf[i].own = 40 + (int64_t)rnd(20000);
                buf[i].wc = 0;
            }
            for (int i = n - 1; i >= 0; i--) {
                buf[i].wc += buf[i].own;
                if (buf[i].parent >= 0)
                    buf[buf[i].parent].wc += buf[i].wc;
            }
            /* COL_NEXT: the next sibling's REC_ID (pre-order: the next call
             * with the same parent); the next root's for a root. */
            static int last_at[SC_SUBTREE];
            for (int i = 0; i < n; i++)
                last_at[i] = -1;
            for (int i = 1; i < n; i++) {
                int p = buf[i].parent;
                if (last_at[p] >= 0)
                    buf[last_at[p]].next = buf[i].rec;
                last_at[p] = i;
            }
            left -= n;
            if (left > 0)
                buf[0].next = rec;
            for (int i = 0; i < n; i++)
                hits[buf[i].routine]++;
            for (int i = 0; i < n; i++)
                scale_call(st, &buf[i], buf[i].parent >= 0 ? buf[buf[i].parent].rec : -1, id++,
                           1, t);
        }
    }
    sqlite3_finalize(st);
    scale_meta(1, routines, hits);
}

/* N small result sets: INST_IDs 1..N, every tenth without an INSTANCES row. */
static void scale_sets(int64_t nsets)
{
    scale_schema();
    sqlite3_stmt *st = prep("INSERT INTO FUNCTION_TRACE_PROFILER_CALL_TRACE "
                            "VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
    for (int64_t inst = 1; inst <= nsets; inst++) {
        if (inst % 10 != 0) {
            char cap[64];
            snprintf(cap, sizeof cap, "Run %lld", (long long)inst);
            ins("INSTANCES", "issds", inst, cap, "Elapsed Time", 1000000.0, "Time");
        }
        ins("FUNCTION_TRACE_PROFILER_THREADS", "iiiiii", (int64_t)0, 5000 + inst, (int64_t)0,
            inst, (int64_t)-1, (int64_t)0);
        static const int64_t hits[2] = {1, 2};
        scale_meta(inst, 2, hits);
        /* main (inst us) calls routine_001 twice (1 us each). */
        sc_call c[3] = {{(int64_t)inst, (int64_t)inst + 2, 0, 1, -1, -1, 0},
                        {1, 1, 1, 2, 2, 0, 1},
                        {1, 1, 2, 3, -1, 0, 1}};
        for (int k = 0; k < 3; k++)
            scale_call(st, &c[k], k ? 0 : -1, k + 1, inst, 0);
    }
    sqlite3_finalize(st);
}


/* N objects in one Resource or Reference Count result set (docs/aqtime.md,
 * Scale): 64 classes, 4 threads, 32 routines; per object a creation call
 * stack of 2 entries and, for Reference Count, 2 references (an AddRef and
 * a Release) with a 1-entry call stack each and a 3-row ref-count tree
 * (<Root>, the thread, a routine). */
static void scale_objects(int64_t nobjects, bool refcount)
{
    const char *p = refcount ? "REFERENCE_COUNT_PROFILER" : "RESOURCE_PROFILER";
    exec("PRAGMA page_size=4096; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN");
    instances_table();
    ob_schema(p, refcount);
    ins("INSTANCES", "issss", (int64_t)1, "Scale - objects", NULL, NULL, NULL);
    const int threads = 4, classes = 64, routines = 32;
    char sql[512];
    for (int t = 0; t < threads; t++) {
        char os[32];
        snprintf(os, sizeof os, "%d", 7000 + t);
        snprintf(sql, sizeof sql, "%s_THREADS", p);
        if (refcount)
            ins(sql, "sisiiii", t == 0 ? "Main thread" : "Worker", (int64_t)4096, os,
                (int64_t)(t + 1), (int64_t)1, (int64_t)-1, (int64_t)t);
        else
            ins(sql, "iiiiii", (int64_t)4096, (int64_t)(7000 + t), (int64_t)t, (int64_t)1,
                (int64_t)-1, (int64_t)t);
    }
    snprintf(sql, sizeof sql, "%s_META_ROUTINES", p);
    for (int r = 0; r < routines; r++) {
        char name[64];
        snprintf(name, sizeof name, "routine_%03d", r);
        if (refcount)
            ins(sql, "isssississisisiiii", (int64_t)(4096 + r * 32), "", "", "x86", (int64_t)r,
                "com.dll", "", (int64_t)0, name, "src/scale.cpp", (int64_t)(100 + r), "",
                (int64_t)0, "u", (int64_t)r, (int64_t)1, (int64_t)-1, (int64_t)r);
        else
            ins(sql, "iiisssssissisisiiii", (int64_t)r, (int64_t)1, (int64_t)(4096 + r * 32), "",
                "", "x86", "res.exe", "", (int64_t)0, name, "src/scale.cpp", (int64_t)(100 + r),
                "", (int64_t)0, "u", (int64_t)r, (int64_t)1, (int64_t)-1, (int64_t)r);
    }
    snprintf(sql, sizeof sql, "%s_META_LINES", p);
    for (int r = 0; r < routines; r++)
        ins(sql, "iiiii", (int64_t)(100 + r), (int64_t)(r + 1), (int64_t)1, (int64_t)r,
            refcount ? (int64_t)r : (int64_t)0);
    static int64_t count[64], size[64];
    char t_objects[96], t_cstack[96];
    snprintf(t_objects, sizeof t_objects, "INSERT INTO %s_OBJECTS VALUES(%s)", p,
             refcount ? "?,?,?,?,?,?,?,?,?,?,?,?,?" : "?,?,?,?,?,?,?,?,?,?");
    snprintf(t_cstack, sizeof t_cstack, "INSERT INTO %s_CREATION_CALL_STACK VALUES(?,?,?,?,?,?,?)", p);
    sqlite3_stmt *obj = prep(t_objects), *cs = prep(t_cstack), *ref = NULL, *as = NULL, *tree = NULL;
    if (refcount) {
        ref = prep("INSERT INTO REFERENCE_COUNT_PROFILER_REFERENCES VALUES(?,?,?,?,?,?)");
        as = prep("INSERT INTO REFERENCE_COUNT_PROFILER_ADDREF_RELEASE_CALL_STACK "
                  "VALUES(?,?,?,?,?,?,?)");
        tree = prep("INSERT INTO REFERENCE_COUNT_PROFILER_REFCOUNT_TREE VALUES(?,?,?,?,?,?,?,?,?)");
    }
    int64_t cs_id = 1, ref_id = 1, as_id = 1, tree_id = 1;
    for (int64_t o = 0; o < nobjects; o++) {
        int64_t id = o + 1, cls = rnd((uint32_t)classes), thread = rnd((uint32_t)threads);
        int64_t sz = 16 + 8 * (int64_t)rnd(100), addr = 0x10000000 + 0x40 * o;
        count[cls]++;
        size[cls] += sz;
        if (refcount) {
            int64_t v[13] = {o + 1, addr, cls, o, 0, 1, sz, thread, 1, id, 1, -1, o};
            for (int k = 0; k < 13; k++)
                sqlite3_bind_int64(obj, k + 1, v[k]);
        } else {
            int64_t v[10] = {o + 1, addr, cls, o, sz, thread, id, 1, -1, 0};
            for (int k = 0; k < 10; k++)
                sqlite3_bind_int64(obj, k + 1, v[k]);
        }
        step_reset(obj);
        for (int pos = 0; pos < 2; pos++) {
            int64_t r = pos == 1 ? 0 : 1 + rnd((uint32_t)routines - 1);
            int64_t v[7] = {1 + rnd(5), refcount ? r : 0, r, cs_id++, 1, id, pos};
            for (int k = 0; k < 7; k++)
                sqlite3_bind_int64(cs, k + 1, v[k]);
            step_reset(cs);
        }
        if (!refcount)
            continue;
        for (int k = 0; k < 2; k++) {
            int64_t v[6] = {k + 1, k == 0, ref_id, 1, id, k};
            for (int j = 0; j < 6; j++)
                sqlite3_bind_int64(ref, j + 1, v[j]);
            step_reset(ref);
            int64_t r = 1 + rnd((uint32_t)routines - 1);
            sqlite3_bind_int64(as, 1, 0);
            sqlite3_bind_int64(as, 2, r);
            sqlite3_bind_text(as, 3, "100", -1, SQLITE_STATIC);
            sqlite3_bind_int64(as, 4, as_id++);
            sqlite3_bind_int64(as, 5, 1);
            sqlite3_bind_int64(as, 6, ref_id);
            sqlite3_bind_int64(as, 7, 0);
            step_reset(as);
            ref_id++;
        }
        /* <Root> (REC_ID 0), the thread (1), a routine (2) */
        int64_t routine[3] = {-1, -thread - 2, rnd((uint32_t)routines)};
        for (int k = 0; k < 3; k++) {
            int64_t v[9] = {1, k - 1, k == 2 ? 1 : 0, routine[k], 10 + k, tree_id++, 1, id, k};
            for (int j = 0; j < 9; j++)
                sqlite3_bind_int64(tree, j + 1, v[j]);
            step_reset(tree);
        }
    }
    sqlite3_finalize(obj);
    sqlite3_finalize(cs);
    if (refcount) {
        sqlite3_finalize(ref);
        sqlite3_finalize(as);
        sqlite3_finalize(tree);
    }
    char t_mclasses[96], t_classes[96];
    snprintf(t_mclasses, sizeof t_mclasses, "%s_META_CLASSES_DATA", p);
    snprintf(t_classes, sizeof t_classes, "%s_CLASSES_DATA", p);
    for (int c = 0; c < classes; c++) {
        char name[32];
        snprintf(name, sizeof name, "CClass%02d", c);
        ins(t_mclasses, "sssiiii", name, "mod.dll", "", (int64_t)(10 + c), (int64_t)1,
            (int64_t)-1, (int64_t)c);
        ins(t_classes, "siisiiiiiiii", name, count[c], size[c], "mod.dll", count[c], size[c],
            count[c], size[c], (int64_t)(c + 1), (int64_t)1, (int64_t)-1, (int64_t)c);
    }
}

int main(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: pv_gen_aqtime OUTDIR\n"
               "       pv_gen_aqtime --scale trace|sets|resource|refcount N OUT.db\n"
               "OUTDIR: the AQTime samples (docs/sample-data.md): a Function Trace, a Resource\n"
               "and a Reference Count database with their expected views.\n"
               "--scale: one database of N calls (trace), N small result sets (sets) or N\n"
               "objects (resource, refcount), for the benchmark (bench/README.md).\n");
        return 0;
    }
    if (argc == 5 && strcmp(argv[1], "--scale") == 0) {
        char *end;
        long long n = strtoll(argv[3], &end, 10);
        const char *kind = argv[2];
        if (*end || n < 1 ||
            (strcmp(kind, "trace") != 0 && strcmp(kind, "sets") != 0 &&
             strcmp(kind, "resource") != 0 && strcmp(kind, "refcount") != 0)) {
            fprintf(stderr, "usage: pv_gen_aqtime --scale trace|sets|resource|refcount N OUT.db\n");
            return 1;
        }
        unlink(argv[4]);
        if (sqlite3_open(argv[4], &db) != SQLITE_OK)
            die(argv[4]);
        if (strcmp(kind, "trace") == 0)
            scale_trace(n);
        else if (strcmp(kind, "sets") == 0)
            scale_sets(n);
        else
            scale_objects(n, strcmp(kind, "refcount") == 0);
        exec("COMMIT");
        if (sqlite3_close(db) != SQLITE_OK)
            die(argv[4]);
        return 0;
    }
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: pv_gen_aqtime OUTDIR\n       pv_gen_aqtime --scale "
                        "trace|sets|resource|refcount N OUT.db\n");
        return 1;
    }
    gen_trace(argv[1]);
    rng = 0x0b1ec75ULL;
    gen_objects(argv[1], false);
    rng = 0x2ef5ULL;
    gen_objects(argv[1], true);
    return 0;
}
