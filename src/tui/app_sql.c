/* app_sql.c - `:sql` (a query's result opens as a view, docs/sql.md) and
 * copying to the clipboard with OSC 52 (`y`, `Y`, `:copy`, docs/tui.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profview/output.h"
#include "profview/sql.h"
#include "profview/table.h"
#include "tui/app_internal.h"
#include "tui/worker.h"

/* ---- :sql */

/* Exposes the files loaded since the last query (the SQL results file
 * itself is not one of them). */
static void pv_app_sql_expose(pv_app *a)
{
    if (!a->sql.conn)
        a->sql.conn = pv_sql_new();
    for (; a->sql.files < a->file_count; a->sql.files++)
        if (a->sql.files != a->sql.file)
            pv_sql_add_file(a->sql.conn, a->files[a->sql.files]);
}

/* ---- the query as a job (jobs.h) whose call runs on a worker
 * (worker.h): a single sqlite3_step may aggregate every row, so the call
 * cannot be cut into steps; it runs in turns with the UI thread, within
 * each step's budget, and reports its progress from SQLite's progress
 * handler.  A stop interrupts it there (the handler answers "stop": SQLite's
 * interrupt); the result view is adopted on this thread, in the last step. */

typedef struct pv_sql_job {
    pv_job base;
    char *query;
    struct pv_sql *conn; /* a->sql.conn, read by the call only while it runs */
    pv_worker *w;        /* made at the first step */
    atomic_int stop;
    /* the call's: its progress (read between turns) and its result */
    uint64_t rows, visited;
    pv_view *view;
    pv_sql_error err;
} pv_sql_job;

/* SQLite's progress handler (every few thousand of its steps), on the
 * worker: the counts for the status bar; the turn goes back to the UI
 * thread when the step's budget is spent. */
static bool pv_sql_job_progress(void *ctx, uint64_t rows, uint64_t visited)
{
    pv_sql_job *j = ctx;
    j->rows = rows;
    j->visited = visited;
    pv_worker_yield(j->w, visited);
    return !atomic_load(&j->stop);
}

static void pv_sql_job_call(void *ctx)
{
    pv_sql_job *j = ctx;
    j->view = pv_sql_query(j->conn, j->query, &j->err);
}

/* Adds the result view to the SQL results file (made at the first query)
 * and shows it. */
static void pv_app_sql_show(pv_app *a, pv_view *v, const char *query)
{
    /* where q goes back to from this result (pv_app_sql.from) */
    a->sql.from = pv_xrealloc(a->sql.from, (a->sql.from_count + 1) * sizeof *a->sql.from);
    pv_app_here(a, &a->sql.from[a->sql.from_count]);
    /* the files it read (closed with them by :reload, reload.c) */
    a->sql.read = pv_xrealloc(a->sql.read, (a->sql.from_count + 1) * sizeof *a->sql.read);
    a->sql.read_n = pv_xrealloc(a->sql.read_n, (a->sql.from_count + 1) * sizeof *a->sql.read_n);
    bool *read = pv_xcalloc(a->sql.files ? a->sql.files : 1, sizeof *read);
    for (size_t i = 0; i < a->sql.files; i++)
        read[i] = i != a->sql.file && pv_sql_read_file(a->sql.conn, a->files[i]);
    a->sql.read[a->sql.from_count] = read;
    a->sql.read_n[a->sql.from_count] = a->sql.files;
    a->sql.from_count++;
    a->sql.count++;
    free(v->id);
    v->id = pv_xasprintf("sql-%zu", a->sql.count);
    free(v->title);
    v->title = pv_xasprintf("SQL %zu: %s", a->sql.count, query);
    if (a->sql.file == PV_NO_ROW) {
        a->sql.file = a->file_count;
        pv_app_adopt_file(a, pv_app_own_file("SQL results", "sql", "Queries", "SQL", v));
    } else {
        pv_result_set *set = a->files[a->sql.file]->sets[0];
        pv_set_add_view(set, v);
        /* after another file's items, the results get a heading again */
        if (a->items[a->item_count - 1].file != a->sql.file)
            pv_app_add_item(a, PV_ITEM_SET, a->sql.file, 0, 0);
        pv_app_add_item(a, PV_ITEM_VIEW, a->sql.file, 0, set->view_count - 1);
    }
    size_t item = a->item_count - 1;
    a->ex.cursor = item;
    pv_app_show_item(a, item);
    a->focus = PV_PANE_REPORT;
}

/* Said when a query is stopped: by Esc or Ctrl-C (the engine's stop), or
 * interrupted inside SQLite. */
static const char pv_sql_stopped[] = "query stopped: the view stays as it was";

/* The call has returned: its view shown, or its error said. */
static void pv_sql_job_done(pv_app *a, pv_sql_job *j)
{
    const char *query = j->query;
    pv_sql_error *err = &j->err;
    pv_view *v = j->view;
    j->view = NULL;
    if (!v) {
        char text[1024];
        if (err->interrupted) {
            pv_app_message(a, false, pv_sql_stopped);
        } else if (err->offset >= 0 && (size_t)err->offset <= strlen(query)) {
            /* the query, a caret under the place, the message (as :filter) */
            pv_buf line, before;
            pv_buf_init(&line);
            pv_buf_init(&before);
            pv_escape_controls(&line, query, strlen(query));
            pv_escape_controls(&before, query, (size_t)err->offset);
            snprintf(text, sizeof text, "%s\n%*s^\n%s", pv_buf_cstr(&line), (int)before.len, "",
                     err->message);
            pv_buf_free(&line);
            pv_buf_free(&before);
            pv_app_message(a, true, text);
        } else {
            snprintf(text, sizeof text, "SQL: %s", err->message);
            pv_app_message(a, true, text);
        }
    } else {
        char text[200];
        snprintf(text, sizeof text, "SQL %zu: %zu rows", a->sql.count + 1, pv_view_rows(v));
        pv_app_sql_show(a, v, query);
        pv_app_message(a, false, text);
    }
}

/* The call, run to its end (stopped first when `stop`), and its thread
 * gone; the connection's handler off. */
static void pv_sql_job_end(pv_app *a, pv_sql_job *j, bool stop)
{
    if (stop)
        atomic_store(&j->stop, 1);
    pv_worker_free(j->w);
    j->w = NULL;
    pv_sql_set_progress(j->conn, NULL, NULL);
    a->sql.running = false;
}

static bool pv_sql_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    pv_sql_job *j = (pv_sql_job *)job;
    if (!j->w) {
        /* Every file is indexed (pv_app_sql_start queued the query until
         * then), unless the query was started by a caller that does not
         * wait (a bench): then the index is finished here. */
        pv_app_index_all(a);
        pv_app_sql_expose(a);
        j->conn = a->sql.conn;
        a->sql.start = pv_clock_now();
        a->sql.rows = a->sql.visited = 0;
        a->sql.running = true;
        pv_buf_clear(&a->message); /* the status bar shows the progress */
        pv_sql_set_progress(j->conn, pv_sql_job_progress, j);
        j->w = pv_worker_new(pv_sql_job_call, j);
    }
    bool done = pv_worker_step(j->w, b);
    a->sql.rows = j->rows;
    a->sql.visited = j->visited;
    if (!done)
        return false;
    pv_sql_job_end(a, j, false);
    pv_sql_job_done(a, j);
    return true;
}

/* Esc, Ctrl-C (pv_jobs_stop): SQLite is interrupted; no view is made. */
static void pv_sql_job_stop(pv_app *a, pv_job *job, bool say)
{
    pv_sql_job *j = (pv_sql_job *)job;
    if (j->w)
        pv_sql_job_end(a, j, true);
    if (say)
        pv_app_message(a, false, pv_sql_stopped);
}

static void pv_sql_job_free(pv_job *job)
{
    pv_sql_job *j = (pv_sql_job *)job;
    if (j->w) { /* freed without a stop (not by the engine) */
        atomic_store(&j->stop, 1);
        pv_worker_free(j->w);
    }
    pv_view_free(j->view); /* a result not shown (stopped at its end) */
    free(j->query);
}

static const pv_job_ops pv_sql_job_ops = {
    .keys = PV_JOB_KEYS_KEEP,
    .step = pv_sql_job_step,
    .stop = pv_sql_job_stop,
    .free = pv_sql_job_free,
};

void pv_app_sql_start(pv_app *a, const char *query)
{
    while (*query == ' ')
        query++;
    if (!query[0]) {
        pv_app_message(a, true, ":sql SELECT ... (tables: the views; see docs/sql.md)");
        return;
    }
    /* SQL reads every column of every row: while a file is indexed, the
     * query waits for the index, queued (docs/tui.md "Loading and
     * indexing"); other keys are answered meanwhile. */
    if (pv_app_command_queue(a, PV_JOB_SQL, PV_NO_ROW, query))
        return;
    /* it runs from the next frame, once the screen says so */
    pv_sql_job *j = (pv_sql_job *)pv_job_new(sizeof *j, &pv_sql_job_ops, PV_JOB_SQL);
    j->query = pv_xstrdup(query);
    atomic_init(&j->stop, 0);
    pv_jobs_start(a, &j->base);
    pv_app_message(a, false, "Running the query... (Esc stops)");
}

void pv_app_sql_complete(pv_app *a, const char *prefix, void (*fn)(void *ctx, const char *name),
                         void *ctx)
{
    pv_app_sql_expose(a);
    pv_sql_complete(a->sql.conn, prefix, fn, ctx);
}

/* ---- copying */

static const char pv_base64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void pv_osc52_sequence(const char *text, size_t len, bool screen, pv_buf *out)
{
    pv_buf seq;
    pv_buf_init(&seq);
    pv_buf_puts(&seq, "\033]52;c;");
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < len)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < len)
            v |= p[i + 2];
        pv_buf_putc(&seq, pv_base64[(v >> 18) & 63]);
        pv_buf_putc(&seq, pv_base64[(v >> 12) & 63]);
        pv_buf_putc(&seq, i + 1 < len ? pv_base64[(v >> 6) & 63] : '=');
        pv_buf_putc(&seq, i + 2 < len ? pv_base64[v & 63] : '=');
    }
    pv_buf_putc(&seq, '\a');
    if (!screen) {
        pv_buf_append(out, seq.data, seq.len);
    } else {
        /* GNU screen passes a DCS string through to the terminal; its
         * buffer is small, so the sequence goes in pieces. */
        for (size_t i = 0; i < seq.len; i += 76) {
            pv_buf_puts(out, "\033P");
            pv_buf_append(out, seq.data + i, seq.len - i < 76 ? seq.len - i : 76);
            pv_buf_puts(out, "\033\\");
        }
    }
    pv_buf_free(&seq);
}

/* Writes `rows` (model rows) of the report's shown columns (or only column
 * `only`) as TSV with cat's rules (a delta of the first row counts from
 * `prev`, PV_NO_ROW: none); without the header line when
 * !header.  Stops once more than `limit` bytes are written (returns
 * false). */
static bool pv_app_tsv_columns(const pv_view *v, const size_t *shown, size_t n, const pv_row *rows,
                               size_t count, size_t prev, bool header, size_t limit, pv_buf *out)
{
    char *mem = NULL;
    size_t mem_len = 0;
    /* a chunk of rows at a time, so that a view too big stops early */
    for (size_t done = 0; done < count || (done == 0 && header); done += 1024) {
        size_t k = count - done < 1024 ? count - done : 1024;
        FILE *fp = open_memstream(&mem, &mem_len);
        if (!fp)
            return false;
        pv_write_rows_after(fp, v, shown, n, rows + done, k, PV_OUT_TSV,
                            done ? rows[done - 1] : prev);
        fclose(fp);
        const char *body = mem;
        if (!(header && done == 0))
            body = strchr(mem, '\n') ? strchr(mem, '\n') + 1 : mem + mem_len;
        pv_buf_append(out, body, mem_len - (size_t)(body - mem));
        free(mem);
        mem = NULL;
        if (out->len > limit)
            return false;
        if (count == 0)
            break;
    }
    return true;
}

static bool pv_app_tsv(const pv_report *r, const pv_row *rows, size_t count, size_t prev,
                       size_t only, bool header, size_t limit, pv_buf *out)
{
    size_t shown[PV_MAX_SHOWN];
    size_t n = only != PV_NO_ROW ? 1 : pv_report_shown(r, shown, PV_MAX_SHOWN);
    if (only != PV_NO_ROW)
        shown[0] = only;
    return pv_app_tsv_columns(r->view, shown, n, rows, count, prev, header, limit, out);
}

/* Sends text to the clipboard (OSC 52), or says why not. */
static void pv_app_clipboard(pv_app *a, const char *what, const pv_buf *text)
{
    pv_buf_clear(&a->clip.copied);
    pv_buf_append(&a->clip.copied, text->data ? text->data : "", text->len);
    char msg[300];
    if (a->clip.send) {
        pv_buf seq;
        pv_buf_init(&seq);
        const char *term = getenv("TERM");
        bool screen = !getenv("TMUX") && getenv("STY") && term && strncmp(term, "screen", 6) == 0;
        pv_osc52_sequence(text->data ? text->data : "", text->len, screen, &seq);
        a->clip.send(a->clip.ctx, seq.data, seq.len);
        pv_buf_free(&seq);
        snprintf(msg, sizeof msg, "copied %s (%zu bytes) to the clipboard", what, text->len);
    } else {
        snprintf(msg, sizeof msg, "copied %s (%zu bytes; no terminal to send it to)", what,
                 text->len);
    }
    pv_app_message(a, false, msg);
}

static void pv_app_too_large(pv_app *a, const char *what)
{
    char msg[300];
    snprintf(msg, sizeof msg,
             "%s is more than %d KiB, too large for the clipboard: :copy FILE writes it to a file",
             what, PV_COPY_MAX / 1024);
    pv_app_message(a, true, msg);
}

/* The column `y` copies, the selected column (docs/tui.md "Copying"):
 * the key column (a tree's column, else the name) while the columns are
 * not scrolled, else the first column scrolled to (as last drawn: the
 * first and key columns stay, docs/tui.md "Columns"). */
static size_t pv_app_copy_column(const pv_report *r, const size_t *shown, size_t n)
{
    for (size_t i = 0; r->hscroll > 0 && i < n; i++)
        if (shown[i] == r->scrolled_to)
            return shown[i];
    unsigned want[2] = {pv_view_is_tree(r->view) ? PV_COL_TREE : PV_COL_NAME, PV_COL_NAME};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < n; i++)
            if (r->view->columns[shown[i]].flags & want[k])
                return shown[i];
    return shown[0];
}

void pv_app_copy_selection(pv_app *a, bool whole_row)
{
    pv_report *r = pv_app_focused_report(a);
    size_t row = r ? pv_report_selected(r) : PV_NO_ROW;
    if (row == PV_NO_ROW) {
        pv_app_message(a, true, "nothing selected to copy");
        return;
    }
    size_t shown[PV_MAX_SHOWN];
    size_t n = pv_report_shown(r, shown, PV_MAX_SHOWN);
    if (!n)
        return;
    size_t col = pv_app_copy_column(r, shown, n);
    pv_buf text;
    pv_buf_init(&text);
    /* as shown: a delta from the row shown above it */
    size_t k = r->cursor < pv_report_count(r) ? r->cursor : pv_report_count(r) - 1;
    size_t above = k ? pv_report_row(r, k - 1) : PV_NO_ROW;
    pv_row one = (pv_row)row;
    bool fits = pv_app_tsv(r, &one, 1, above, whole_row ? PV_NO_ROW : col, false, PV_COPY_MAX,
                           &text);
    /* one line: the row without its line end */
    if (text.len && text.data[text.len - 1] == '\n')
        text.len--;
    char what[160];
    if (whole_row)
        snprintf(what, sizeof what, "the row");
    else
        snprintf(what, sizeof what, "the %s cell", r->view->columns[col].id);
    if (fits)
        pv_app_clipboard(a, what, &text);
    else
        pv_app_too_large(a, what);
    pv_buf_free(&text);
}

/* Writes the TSV to path through a temporary file renamed into place;
 * never over an existing file. */
static bool pv_app_write_file(pv_app *a, const char *path, const pv_buf *text)
{
    char msg[600];
    struct stat st;
    if (stat(path, &st) == 0) {
        snprintf(msg, sizeof msg, "%s exists: copy to a new file", path);
        pv_app_message(a, true, msg);
        return false;
    }
    char *tmp = pv_xasprintf("%s.profview-XXXXXX", path);
    int fd = mkstemp(tmp);
    bool ok = fd >= 0;
    int err = errno;
    if (ok) {
        FILE *fp = fdopen(fd, "w");
        ok = fp && fwrite(text->data ? text->data : "", 1, text->len, fp) == text->len;
        err = errno;
        if (fp)
            ok = fclose(fp) == 0 && ok;
        else
            close(fd);
        /* link() refuses an existing name, so a file made meanwhile stays */
        if (ok && link(tmp, path) != 0) {
            err = errno;
            ok = false;
        }
        unlink(tmp);
    }
    if (ok)
        snprintf(msg, sizeof msg, "wrote %zu bytes to %s", text->len, path);
    else
        snprintf(msg, sizeof msg, "cannot write %s: %s", path, strerror(err));
    pv_app_message(a, !ok, msg);
    free(tmp);
    return ok;
}

/* ---- :copy view and :copy FILE as a job (jobs.h): the rows as TSV a
 * chunk at a time within the step's budget; the clipboard or the file gets
 * the text only at its end, so a stop copies nothing */

typedef struct pv_copy_job {
    pv_job base;
    const pv_view *view; /* owned by its file (a reload stops the job) */
    size_t shown[PV_MAX_SHOWN], n;
    pv_row *rows; /* the report's rows in its order */
    size_t count, done;
    bool fits;    /* within `limit` bytes so far */
    size_t limit;
    char *path;   /* :copy FILE; NULL: the clipboard */
    char what[200];
    pv_buf text;
} pv_copy_job;

/* The text is written: to the file or the clipboard, or why not. */
static void pv_copy_job_done(pv_app *a, pv_copy_job *j)
{
    if (j->path)
        pv_app_write_file(a, j->path, &j->text);
    else if (j->fits)
        pv_app_clipboard(a, j->what, &j->text);
    else
        pv_app_too_large(a, j->what);
}

static bool pv_copy_job_step(pv_app *a, pv_job *job, pv_budget *b)
{
    pv_copy_job *j = (pv_copy_job *)job;
    for (bool first = true; j->fits && (j->done < j->count || first); first = false) {
        if (!first && (b->units == 0 || pv_budget_late(b)))
            break;
        size_t k = j->count - j->done < 1024 ? j->count - j->done : 1024;
        j->fits = pv_app_tsv_columns(j->view, j->shown, j->n, j->rows + j->done, k,
                                     j->done ? j->rows[j->done - 1] : PV_NO_ROW, j->done == 0,
                                     j->limit, &j->text);
        j->done += k;
        pv_budget_spend(b, k);
    }
    if (!j->fits || j->done == j->count) {
        pv_copy_job_done(a, j);
        return true;
    }
    pv_app_messagef(a, false, "Copying %s... %.0f%% (Esc stops)", j->what,
                    100.0 * (double)j->done / (double)j->count);
    return false;
}

static void pv_copy_job_stop(pv_app *a, pv_job *job, bool say)
{
    if (say)
        pv_app_messagef(a, false, "copy %s: nothing copied", job->queued ? "cancelled" : "stopped");
}

static void pv_copy_job_free(pv_job *job)
{
    pv_copy_job *j = (pv_copy_job *)job;
    free(j->rows);
    free(j->path);
    pv_buf_free(&j->text);
}

static const pv_job_ops pv_copy_job_ops = {
    .keys = PV_JOB_KEYS_STOP,
    .paced = true,
    .step = pv_copy_job_step,
    .stop = pv_copy_job_stop,
    .free = pv_copy_job_free,
};

/* Copies report r's rows (to `path`, NULL: the clipboard): at once when
 * small or `at_once` (r goes away), else as a job in steps. */
static void pv_app_copy_start(pv_app *a, const pv_report *r, const char *path, const char *what,
                              bool at_once)
{
    pv_copy_job *j = (pv_copy_job *)pv_job_new(sizeof *j, &pv_copy_job_ops, PV_JOB_COPY);
    j->view = r->view;
    j->n = pv_report_shown(r, j->shown, PV_MAX_SHOWN);
    j->count = pv_report_count(r);
    j->rows = pv_xmalloc((j->count ? j->count : 1) * sizeof *j->rows);
    for (size_t i = 0; i < j->count; i++)
        j->rows[i] = (pv_row)pv_report_row(r, i);
    j->fits = true;
    j->limit = path ? SIZE_MAX : PV_COPY_MAX;
    j->path = path ? pv_xstrdup(path) : NULL;
    snprintf(j->what, sizeof j->what, "%s", what);
    pv_buf_init(&j->text);
    if (!at_once && (a->jobs.fixed || j->count > PV_BIG_VIEW)) {
        pv_jobs_start(a, &j->base); /* Esc stops it: nothing copied */
        return;
    }
    pv_budget b = {SIZE_MAX, 0};
    while (!pv_copy_job_step(a, &j->base, &b)) /* small: at once */
        b.units = SIZE_MAX;
    pv_job_free(&j->base);
}

void pv_app_copy_command(pv_app *a, const char *arg)
{
    while (*arg == ' ')
        arg++;
    pv_report *r = pv_app_focused_report(a);
    if (!arg[0]) {
        pv_app_message(a, true, ":copy view | :copy row | :copy cell | :copy FILE");
        return;
    }
    if (strcmp(arg, "row") == 0 || strcmp(arg, "cell") == 0) {
        pv_app_copy_selection(a, strcmp(arg, "row") == 0);
        return;
    }
    /* :copy bookmarks: the Bookmarks view, from anywhere (docs/tui.md
     * "Bookmarks") */
    pv_report marks;
    bool bookmarks = strcmp(arg, "bookmarks") == 0;
    if (bookmarks) {
        pv_view *bv = pv_app_bookmarks_view(a);
        if (!bv) {
            pv_app_message(a, true, "no bookmarks to copy (b bookmarks the selected row)");
            return;
        }
        pv_report_open(&marks, bv, false, NULL);
        r = &marks;
        arg = "view";
    }
    if (!r) {
        pv_app_message(a, true, "no view to copy");
        return;
    }
    bool to_file = strcmp(arg, "view") != 0;
    /* Every cell of the view: while its file is indexed the rows not
     * indexed yet have none, so the copy waits for the index, queued
     * (docs/tui.md "Loading and indexing"). */
    if (!bookmarks && pv_app_report_indexing(a) &&
        pv_app_command_queue(a, PV_JOB_COPY, a->items[a->loc.item].file, arg))
        return;
    size_t count = pv_report_count(r);
    char what[200];
    snprintf(what, sizeof what, bookmarks ? "the bookmarks (%zu rows)" : "the view (%zu rows)", count);
    pv_app_copy_start(a, r, to_file ? arg : NULL, what, bookmarks);
    if (bookmarks)
        pv_report_close(&marks);
}

void pv_app_set_terminal(pv_app *a, void (*clipboard)(void *ctx, const char *bytes, size_t len),
                         void *ctx)
{
    a->clip.send = clipboard;
    a->clip.ctx = ctx;
}
