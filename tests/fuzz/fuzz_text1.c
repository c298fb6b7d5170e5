/* libFuzzer target for the winIDEA Text1 parser and the model built from it
 * (built with -DPV_FUZZ=ON).  Parses the input and checks what was built;
 * then builds the timeline index, statistics and views from it and walks
 * them (fuzz_winidea.h).  An input with a line "*BIN*" is a Text1 file
 * followed by the BIN beside it (the bytes after that line): the mapping
 * and statistics of the text with the BIN's timeline, as the loader pairs
 * them (docs/formats.md §2). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_winidea.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fuzz_bin_marker[] = "\n*BIN*\n";

/* The first "*BIN*" line, or NULL (memmem is a GNU extension). */
static const uint8_t *fuzz_find_marker(const uint8_t *data, size_t size)
{
    size_t n = sizeof fuzz_bin_marker - 1;
    for (size_t i = 0; i + n <= size; i++)
        if (data[i] == '\n' && memcmp(data + i, fuzz_bin_marker, n) == 0)
            return data + i;
    return NULL;
}

static bool fuzz_parse_text1(pv_wi_data *d, pv_diag *diag, const uint8_t *data, size_t size)
{
    const uint8_t *bin = NULL;
    size_t bin_size = 0;
    const uint8_t *mark = fuzz_find_marker(data, size);
    if (mark) {
        bin = mark + sizeof fuzz_bin_marker - 1;
        bin_size = size - (size_t)(bin - data);
        size = (size_t)(mark - data) + 1;
    }
    d->text_path = pv_xstrdup("fuzz.txt");
    if (!pv_wi_parse_text1("fuzz.txt", data, size, d, diag))
        return false;
    if (bin && d->timeline.count == 0)
        pv_wi_bin_attach_memory(d, "fuzz.txt.BIN", bin, bin_size, 0, diag, PV_SEV_WARNING);
    return true;
}

static void fuzz_check_parse(const uint8_t *data, size_t size)
{
    pv_wi_data d;
    pv_wi_data_init(&d);
    pv_diag diag;
    pv_diag_init(&diag);
    (void)pv_wi_text1_probe(data, size);
    if (pv_wi_parse_text1("fuzz.txt", data, size, &d, &diag)) {
        for (size_t i = 0; i < d.area_count; i++)
            if (d.areas[i].parent != PV_WI_NONE && d.areas[i].parent >= d.area_count)
                __builtin_trap();
        for (size_t i = 0; i < d.timeline.count; i++) {
            pv_wi_event e;
            pv_wi_event_at(&d.timeline, i, &e);
            if (e.kind > PV_WI_WRITE)
                __builtin_trap();
            if (d.timeline.text_context && d.timeline.text_context[i] != UINT16_MAX &&
                d.timeline.text_context[i] >= d.context_count)
                __builtin_trap();
        }
    }
    pv_wi_data_free(&d);
    pv_diag_free(&diag);
}

#ifdef FUZZ_WI_FULL
/* A sink that takes every event as it comes (docs/winidea-input.md
 * "Reading and indexing at once") and checks what it is promised: the
 * records never move and the events handed out are never rewritten. */
typedef struct fuzz_sink_state {
    const unsigned char *records;
    size_t count;
    unsigned char first[24]; /* event 0 when it was handed out */
    bool aborted;
} fuzz_sink_state;

static bool fuzz_sink_events(void *user, pv_wi_data *d, size_t count, size_t done)
{
    fuzz_sink_state *st = user;
    (void)done;
    if (st->aborted || count < st->count || count > d->timeline.owned_cap)
        __builtin_trap();
    if (st->records && d->timeline.records != st->records)
        __builtin_trap();
    if (st->records && memcmp(st->first, d->timeline.records, 24) != 0)
        __builtin_trap();
    st->records = d->timeline.records;
    st->count = count;
    if (count > 0)
        memcpy(st->first, d->timeline.records, 24);
    return true;
}

static void fuzz_sink_abort(void *user)
{
    ((fuzz_sink_state *)user)->aborted = true;
}

/* The parse with a sink (every event handed out at once) equals the parse
 * without one: events, areas and their parents, every message. */
static void fuzz_check_sink(const uint8_t *data, size_t size)
{
    pv_wi_data a, b;
    pv_wi_data_init(&a);
    pv_wi_data_init(&b);
    pv_diag da, db;
    pv_diag_init(&da);
    pv_diag_init(&db);
    fuzz_sink_state st = {0};
    pv_wi_text1_sink sink = {fuzz_sink_events, fuzz_sink_abort, &st, 1, NULL};
    bool ok_a = pv_wi_parse_text1("fuzz.txt", data, size, &a, &da);
    bool ok_b = pv_wi_parse_text1_sink("fuzz.txt", data, size, &b, &db, NULL, &sink);
    if (ok_a != ok_b || a.timeline.count != b.timeline.count || a.area_count != b.area_count ||
        a.context_count != b.context_count || da.entry_count != db.entry_count ||
        da.warnings != db.warnings || da.errors != db.errors)
        __builtin_trap();
    if (a.timeline.count &&
        memcmp(a.timeline.records, b.timeline.records, a.timeline.count * 24) != 0)
        __builtin_trap();
    for (size_t i = 0; i < a.area_count; i++)
        if (a.areas[i].parent != b.areas[i].parent)
            __builtin_trap();
    /* the events' contexts (%CONTEXT%: handed out while each name is a
     * CONTEXTS entry's) and the contexts named */
    if ((a.timeline.text_context == NULL) != (b.timeline.text_context == NULL) ||
        (a.timeline.text_context && a.timeline.count &&
         memcmp(a.timeline.text_context, b.timeline.text_context,
                a.timeline.count * sizeof(uint16_t)) != 0))
        __builtin_trap();
    for (size_t i = 0; i < a.context_count; i++)
        if (strcmp(pv_strpool_get(&a.pool, a.contexts[i].name),
                   pv_strpool_get(&b.pool, b.contexts[i].name)) != 0)
            __builtin_trap();
    for (size_t i = 0; i < da.entry_count; i++)
        if (strcmp(da.entries[i].text, db.entries[i].text) != 0)
            __builtin_trap();
    pv_wi_data_free(&a);
    pv_wi_data_free(&b);
    pv_diag_free(&da);
    pv_diag_free(&db);
}

#endif /* FUZZ_WI_FULL */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_check_parse(data, size);
#ifdef FUZZ_WI_FULL
    fuzz_check_sink(data, size); /* the streaming parse: a third parse */
    fuzz_wi_model(fuzz_parse_text1, data, size); /* three ways, every view walked */
#else
    fuzz_wi_fast(fuzz_parse_text1, data, size); /* once, a sample walked */
#endif
    return 0;
}
