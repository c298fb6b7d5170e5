/*
 * load.c - the winidea-text1 and winidea-bin loaders: map the file,
 * parse it into a pv_wi_data (text1.c, bin.c), pair a Text1
 * file with its BIN (docs/formats.md §2) and hand the data to pv_wi_build.
 * A big Text1 timeline is indexed by a worker thread while it is read
 * (docs/winidea-input.md "Reading and indexing at once").
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formats/winidea/cache.h"
#include "formats/winidea/parse.h"
#include "formats/winidea/timeline.h"

/* ---- reading and indexing at once */

/* The index of a Text1 timeline that grows while the parser reads it.  The
 * parser (the loading thread) begins the index at its first chunk of
 * events, or, when the index's begin reads the first events to detect a
 * context area from written values, once it has more than
 * PV_WI_BIN_EARLY_RECORDS of them; then it publishes its count every
 * chunk, and the worker advances the index up to the published count.  The
 * index and its private diag belong to the worker until the loading thread
 * joins it; the records below the published count are never written
 * again, the ones above are never read. */
struct pv_wi_stream {
    pv_timeline_index ix;
    /* The worker's own copy of the timeline's header, which ix reads while
     * the stream lasts (its records, version and room never change then):
     * the parser writes d->timeline.count at every event, and the pass reads
     * tl->records and tl->version at every event, in the same cache line;
     * read there, the line went back and forth between the two cores at
     * every event and each thread ran about 1.3 times slower (docs/winidea-
     * input.md "Reading and indexing at once"). */
    pv_wi_timeline tl;
    const pv_wi_timeline *shared; /* &d->timeline, which ix reads again once taken */
    pv_diag diag; /* the index's warnings until take appends them to the file's */
    pv_tl_options opt;
    pthread_t thread;
    bool begun, running, dropped;
    bool wait_early; /* begin reads the first events: wait for all it reads */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    size_t published; /* under lock: events the worker may index */
    bool final;       /* under lock: published is the whole timeline */
    bool stop;        /* under lock: stop at the next step */
    /* The parser's thread gives back the pages of the text it is past (a
     * mapped file: read again from the page cache if ever needed; unmapping
     * at the end would cost the same), so that the text, the records and
     * the index are not all resident at once. */
    const unsigned char *text; /* the mapped text, NULL when it was read into memory */
    size_t text_released;
    /* The records' pages are mapped ahead of the parser (pv_prefault) in
     * blocks claimed on `mapped` (events below it are mapped or being
     * mapped): by the parser's thread before it writes them (wi_stream_map),
     * or by the worker while it waits for the parser (its chore), never both:
     * two threads populating the same pages fight over the page tables'
     * locks. */
    unsigned char *records; /* d->timeline.owned, fixed while the worker runs */
    size_t record_room;
    atomic_size_t mapped;
    /* The index's per-event columns as begin made them (room for
     * record_room events): the parser's thread maps their pages a chunk
     * ahead of the worker (wi_stream_map_columns). */
    unsigned char *column[3];
    size_t column_width[3];
    size_t columns_mapped;
    atomic_size_t indexed; /* events the worker has indexed (it stores, the parser reads) */
    /* for the test option text1-debug: the worker's CPU seconds; wall seconds
     * from the stream's start to the end of the parse, to the worker's end,
     * and spent by the worker waiting for the parser */
    double worker_cpu, start, parsed, worker_end, worker_waited;
};

static double wi_clock(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double wi_thread_cpu(void)
{
    return wi_clock(CLOCK_THREAD_CPUTIME_ID);
}

/* The test option text1-debug: say on stderr what the stream did (the tests
 * check that it ran; the CPU seconds of the two threads so far show the
 * benchmark how the work was split). */
static void wi_stream_debug(const pv_wi_stream *s, const char *what, size_t done, size_t count)
{
    if (pv_test_get(&s->opt.test, PV_TEST_TEXT1_DEBUG, 0))
        fprintf(stderr,
                "profview: debug: Text1 index %s (%zu of %zu events indexed; CPU: reader "
                "%.3f s, worker %.3f s; wall: parsed at %.3f s, worker done at %.3f s, "
                "waited %.3f s)\n",
                what, done, count, wi_thread_cpu(), s->worker_cpu, s->parsed - s->start,
                s->worker_end - s->start, s->worker_waited);
}

/* Steps of the worker between looks at the lock (the stop request waits at
 * most one). */
#define WI_STREAM_STEP ((size_t)1 << 16)

/* The text goes back by MB; records are mapped by 64 K, at most
 * WI_STREAM_AHEAD ahead of the parser. */
#define WI_STREAM_TEXT_STEP ((size_t)1 << 20)
#define WI_STREAM_AHEAD ((size_t)1 << 18)

/* One chore (false: none); called and returns with the lock held. */
static bool wi_stream_chore(pv_wi_stream *s)
{
    size_t published = s->published;
    pthread_mutex_unlock(&s->lock);
    size_t m = atomic_load_explicit(&s->mapped, memory_order_relaxed);
    size_t from = m > published ? m : published; /* below: written already */
    size_t ahead =
        published + WI_STREAM_AHEAD < s->record_room ? published + WI_STREAM_AHEAD : s->record_room;
    bool did = false;
    if (from < ahead) {
        size_t to = from + WI_STREAM_STEP < ahead ? from + WI_STREAM_STEP : ahead;
        if (atomic_compare_exchange_strong_explicit(&s->mapped, &m, to, memory_order_relaxed,
                                                    memory_order_relaxed))
            pv_prefault(s->records + from * PV_WI_RECORD_SIZE, (to - from) * PV_WI_RECORD_SIZE);
        did = true; /* or the parser claimed it first: look again */
    }
    pthread_mutex_lock(&s->lock);
    return did;
}

/* pv_wi_text1_sink.map, on the parser's thread: maps what of [from, from +
 * n) the worker has not claimed. */
static void wi_stream_map(void *user, unsigned char *records, size_t from, size_t n)
{
    pv_wi_stream *s = user;
    size_t end = from + n;
    size_t m = atomic_load_explicit(&s->mapped, memory_order_relaxed);
    while (m < end) {
        size_t a = m > from ? m : from;
        if (atomic_compare_exchange_weak_explicit(&s->mapped, &m, end, memory_order_relaxed,
                                                  memory_order_relaxed)) {
            pv_prefault(records + a * PV_WI_RECORD_SIZE, (end - a) * PV_WI_RECORD_SIZE);
            return;
        }
    }
}

static void *wi_stream_run(void *arg)
{
    pv_wi_stream *s = arg;
    size_t done = s->ix.indexed;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->stop && !s->final && s->published == done)
            if (!wi_stream_chore(s)) {
                double t = wi_clock(CLOCK_MONOTONIC);
                pthread_cond_wait(&s->cond, &s->lock);
                s->worker_waited += wi_clock(CLOCK_MONOTONIC) - t;
            }
        size_t upto = s->published;
        bool stop = s->stop, final = s->final;
        pthread_mutex_unlock(&s->lock);
        if (stop || (final && done == upto))
            break;
        if (upto > done + WI_STREAM_STEP)
            upto = done + WI_STREAM_STEP;
        pv_timeline_index_grow(&s->ix, upto);
        (void)pv_timeline_index_advance(&s->ix, upto); /* no progress: never cancelled */
        done = upto;
        atomic_store_explicit(&s->indexed, done, memory_order_relaxed);
    }
    s->worker_cpu = wi_thread_cpu(); /* read after the join */
    s->worker_end = wi_clock(CLOCK_MONOTONIC);
    return NULL;
}

/* Stops the worker (after its current step, or when it has indexed every
 * published event: `whole`) and waits for it. */
static void wi_stream_join(pv_wi_stream *s, bool whole)
{
    if (!s->running)
        return;
    pthread_mutex_lock(&s->lock);
    if (!whole)
        s->stop = true;
    s->final = true;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    pthread_join(s->thread, NULL);
    s->running = false;
}

void pv_wi_stream_free(pv_wi_stream *s)
{
    if (!s)
        return;
    wi_stream_join(s, false);
    if (s->begun)
        pv_timeline_index_free(&s->ix);
    pv_diag_free(&s->diag);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* On the parser's thread, which has time to spare while the worker indexes
 * (it parses faster than the pass indexes): maps the pages of the index's
 * per-event columns for the chunk after `count`, which the worker's pass
 * would map itself when it gets there (tl_prefault_events; then it finds
 * them mapped).  Mapping changes no byte, so a column the pass has moved
 * meanwhile (widened: more than 65535 areas, 255 contexts or a depth over
 * 254) costs nothing but the call: its old pages are unmapped or another
 * block's, whose contents stay as they are. */
static void wi_stream_map_columns(pv_wi_stream *s, size_t count)
{
    /* only while the worker is behind: one that keeps up (the parse is the
     * longer thread, as for a %CONTEXT% file) has the time to do it */
    if (count < s->columns_mapped ||
        atomic_load_explicit(&s->indexed, memory_order_relaxed) + 2 * WI_STREAM_STEP > count)
        return;
    size_t to = count + WI_STREAM_STEP < s->record_room ? count + WI_STREAM_STEP : s->record_room;
    for (size_t c = 0; c < 3; c++)
        if (s->column[c])
            pv_prefault(s->column[c] + count * s->column_width[c],
                        (to - count) * s->column_width[c]);
    s->columns_mapped = to;
}

/* pv_wi_text1_sink.events: begins the index (on this, the loading thread)
 * once enough events are read, then hands the worker the new count. */
static bool wi_stream_events(void *user, pv_wi_data *d, size_t count, size_t done)
{
    pv_wi_stream *s = user;
    size_t text_to = done & ~(WI_STREAM_TEXT_STEP - 1);
    if (s->text && text_to > s->text_released) {
        pv_release((void *)(uintptr_t)(s->text + s->text_released), text_to - s->text_released);
        s->text_released = text_to;
    }
    if (s->dropped)
        return true; /* no index, but the text still goes back */
    if (!s->begun) {
        if (s->wait_early && count <= PV_WI_BIN_EARLY_RECORDS)
            return true;
        s->opt.event_capacity = d->timeline.owned_cap;
        if (!pv_timeline_index_begin(&s->ix, d, &s->opt, &s->diag)) {
            s->dropped = true; /* the index is freed; serial indexing says why */
            return false;
        }
        if (count <= PV_WI_BIN_EARLY_RECORDS && pv_timeline_index_begin_read_events(&s->ix)) {
            /* what it decided over these events may change with more */
            pv_timeline_index_free(&s->ix);
            pv_diag_free(&s->diag);
            pv_diag_init(&s->diag);
            s->wait_early = true;
            return true;
        }
        s->begun = true;
        s->tl = d->timeline;
        s->shared = &d->timeline;
        s->ix.tl = &s->tl;
        s->published = count;
        s->records = d->timeline.owned;
        s->record_room = d->timeline.owned_cap;
        s->column[0] = s->ix.event_area;
        s->column_width[0] = s->ix.area_wide ? 4 : 2;
        s->column[1] = s->ix.event_context;
        s->column_width[1] = s->ix.context_wide ? 2 : 1;
        s->column[2] = s->ix.event_depth;
        s->column_width[2] = s->ix.depth_wide ? 2 : 1;
        s->columns_mapped = count;
        if (pthread_create(&s->thread, NULL, wi_stream_run, s) != 0) {
            pv_timeline_index_free(&s->ix);
            s->begun = false;
            s->dropped = true;
            return false;
        }
        s->running = true;
        return true;
    }
    pthread_mutex_lock(&s->lock);
    s->published = count;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->lock);
    wi_stream_map_columns(s, count);
    return true;
}

/* pv_wi_text1_sink.abort: the mapping is about to change (a section after
 * the TIMELINE), or the events' contexts are known only after the parse (a
 * %CONTEXT% name that is no CONTEXTS entry's); index after the parse
 * instead. */
static void wi_stream_abort(void *user)
{
    pv_wi_stream *s = user;
    wi_stream_join(s, false);
    if (s->begun) {
        wi_stream_debug(s,
                        "dropped: the file goes on after its TIMELINE, or names a context "
                        "to resolve after it",
                        s->ix.indexed,
                        s->ix.event_count);
        pv_timeline_index_free(&s->ix);
    }
    s->begun = false;
    s->dropped = true;
    pv_diag_free(&s->diag);
    pv_diag_init(&s->diag);
}

bool pv_wi_stream_take(pv_wi_stream *s, pv_timeline_index *ix, pv_diag *diag,
                       const pv_tl_options *o, bool whole)
{
    if (!s->begun || s->dropped || o->has_from || o->has_to ||
        s->shared->count > PV_TL_MAX_EVENTS || s->shared->count > s->opt.event_capacity) {
        pv_wi_stream_free(s); /* serial indexing (and its messages) instead */
        return false;
    }
    size_t n = s->shared->count;
    s->parsed = wi_clock(CLOCK_MONOTONIC);
    pthread_mutex_lock(&s->lock);
    s->published = n;
    pthread_mutex_unlock(&s->lock);
    wi_stream_join(s, whole);
    wi_stream_debug(s, "taken", s->ix.indexed, n);
    s->ix.tl = s->shared; /* the parse is over: the timeline as it is now */
    pv_timeline_index_grow(&s->ix, n);
    pv_timeline_index_move(ix, &s->ix);
    s->begun = false;
    /* the warnings so far, as if they had gone to diag: after its entries */
    pv_timeline_index_rebase(ix, diag, &o->progress);
    size_t kept_warnings = 0;
    for (size_t i = 0; i < s->diag.entry_count; i++) {
        const pv_diag_entry *e = &s->diag.entries[i];
        pv_diag_add(diag, e->severity, "%s", e->text);
        kept_warnings += e->severity != PV_SEV_ERROR;
    }
    diag->warnings += s->diag.warnings - kept_warnings; /* counted, not kept */
    pv_wi_stream_free(s);
    return true;
}

/* Whether this load indexes its Text1 timeline while reading it: a full
 * load or a deferred one alike, not for a window (the window's bounds need
 * every time) and not with the test option text1-serial=1 (the tests
 * compare both ways). */
static pv_wi_stream *wi_stream_new(const pv_wi_data *d, const char *path, const pv_load_options *o,
                                   const pv_mapped_file *mf)
{
    if (o && (pv_test_get(&o->test, PV_TEST_TEXT1_SERIAL, 0) || o->has_from || o->has_to))
        return NULL;
    pv_wi_stream *s = pv_xcalloc(1, sizeof *s);
    pv_diag_init(&s->diag);
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->cond, NULL);
    atomic_init(&s->mapped, 0);
    atomic_init(&s->indexed, 0);
    pv_wi_index_options(&s->opt, d, path, o);
    memset(&s->opt.progress, 0, sizeof s->opt.progress); /* never from the worker */
    s->text = mf->mapped ? mf->data : NULL;
    s->start = wi_clock(CLOCK_MONOTONIC);
    return s;
}

/* The chunk the parser publishes in: the test option text1-chunk (events)
 * for the tests, else (0) the parser's default. */
static size_t wi_stream_chunk(const pv_load_options *o)
{
    int64_t v = o ? pv_test_get(&o->test, PV_TEST_TEXT1_CHUNK, 0) : 0;
    return v > 0 ? (size_t)v : 0;
}

static int wi_text1_probe(const unsigned char *head, size_t len, uint64_t file_size,
                          const char *path)
{
    (void)file_size;
    (void)path;
    return pv_wi_text1_probe(head, len);
}

static int wi_bin_probe(const unsigned char *head, size_t len, uint64_t file_size, const char *path)
{
    (void)path;
    return pv_wi_bin_probe(head, len, file_size);
}

static pv_wi_data *wi_data_new(void)
{
    pv_wi_data *d = pv_xmalloc(sizeof *d);
    pv_wi_data_init(d);
    return d;
}

static void wi_data_delete(pv_wi_data *d)
{
    pv_wi_data_free(d);
    free(d);
}

/* Reads the Text1 file, then the BIN beside it when the text has no
 * TIMELINE events of its own (docs/formats.md §2: when both have events, the
 * text wins).  A BIN that cannot be read is a warning: the text is usable. */
static pv_load_status wi_text1_load(pv_file *f, const pv_load_options *o)
{
    pv_wi_data *d = wi_data_new();
    d->text_path = pv_xstrdup(f->path);
    /* docs/cache.md "Text1 files": what an earlier parse read, unchanged,
     * replaces the parse (and its indexing beside it: the index has an
     * entry of its own) */
    pv_cache_key key;
    bool cache = o->cache && !pv_input_is_stream(f->path);
    if (cache)
        pv_wi_text1_cache_key(&key, f->path);
    pv_wi_stream *stream = NULL;
    if (!cache || !pv_wi_text1_cache_load(&key, d, &f->diag)) {
        pv_mapped_file mf;
        int err = pv_map_file(f->path, &mf);
        if (err) {
            pv_error(&f->diag, "%s: cannot read: %s", f->path, strerror(err));
            wi_data_delete(d);
            if (cache)
                pv_cache_key_free(&key);
            return PV_LOAD_ERROR;
        }
        size_t diag_from = f->diag.entry_count;
        size_t warnings = f->diag.warnings, errors = f->diag.errors;
        stream = wi_stream_new(d, f->path, o, &mf);
        pv_wi_text1_sink sink = {wi_stream_events, wi_stream_abort, stream, wi_stream_chunk(o),
                                 wi_stream_map};
        bool ok = pv_wi_parse_text1_sink(f->path, mf.data, mf.size, d, &f->diag, &o->progress,
                                         stream ? &sink : NULL);
        pv_unmap_file(&mf);
        if (!ok) {
            pv_wi_stream_free(stream);
            wi_data_delete(d);
            if (cache)
                pv_cache_key_free(&key);
            return PV_LOAD_ERROR;
        }
        if (cache)
            pv_wi_text1_cache_save(&key, d, &f->diag, diag_from, warnings, errors,
                                   o->cache_max_bytes);
    }
    if (cache)
        pv_cache_key_free(&key);
    char *bin = pv_wi_bin_find_pair(f->path);
    if (bin) {
        if (d->timeline.count > 0)
            pv_warn(&f->diag,
                    "%s: not read: the TIMELINE section of %s has its own %zu events, and "
                    "the text wins",
                    bin, f->path, d->timeline.count);
        else
            pv_wi_bin_attach_file(d, bin, o->bin_version, &f->diag, PV_SEV_WARNING);
        free(bin);
    } else if (d->timeline.count == 0 && pv_input_is_stream(f->path)) {
        pv_warn(&f->diag,
                "%s: the TIMELINE section has no events, and a Text1 read from a pipe has no "
                ".BIN beside it: open the file itself (its BIN is found beside it) or the BIN",
                f->path);
    }
    /* A windowed export carries its window (docs/export.md "Windows"): the
     * events before it are the state at its start, so the file loads with
     * it, within the one asked for (the later start, the earlier end). */
    pv_load_options windowed = *o;
    if (d->has_window_from && (!o->has_from || d->window_from > o->from)) {
        windowed.has_from = true;
        windowed.from = d->window_from;
    }
    if (d->has_window_to && (!o->has_to || d->window_to < o->to)) {
        windowed.has_to = true;
        windowed.to = d->window_to;
    }
    return pv_wi_build_stream(f, d, &windowed, stream);
}

/* A BIN opened alone: no areas are known, the views show handles in hex and
 * the type from the top nibble (docs/formats.md §2). */
static pv_load_status wi_bin_load(pv_file *f, const pv_load_options *o)
{
    pv_wi_data *d = wi_data_new();
    if (!pv_wi_bin_attach_file(d, f->path, o->bin_version, &f->diag, PV_SEV_ERROR)) {
        wi_data_delete(d);
        return PV_LOAD_ERROR;
    }
    return pv_wi_build(f, d, o);
}

const pv_loader pv_loader_winidea_text1 = {
    .name = "winidea-text1",
    .description = "winIDEA profiler Text1 export (with its .BIN timeline when present)",
    .probe = wi_text1_probe,
    .load = wi_text1_load,
    .export = pv_wi_export,
};

const pv_loader pv_loader_winidea_bin = {
    .name = "winidea-bin",
    .description = "winIDEA profiler BIN timeline (24-byte records, v1.0 or v1.1)",
    .probe = wi_bin_probe,
    .load = wi_bin_load,
    .export = pv_wi_export,
};
