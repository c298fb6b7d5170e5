/* memory.c - allocation that never returns NULL, growable buffers, the
 * string pool and the 64-bit hash map. */
#include "profview/core.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* What restores the terminal before a fatal exit (the viewer's, set while
 * it runs; async-signal-safe, as it may run on any thread). */
static void (*_Atomic pv_fatal_hook)(void);

void pv_set_fatal_hook(void (*restore)(void))
{
    atomic_store(&pv_fatal_hook, restore);
}

void pv_fatal_restore(void)
{
    void (*restore)(void) = atomic_exchange(&pv_fatal_hook, NULL);
    if (restore)
        restore();
}

/* docs/code-style.md: running out of memory ends profview with exit
 * status 2 and a message, the terminal restored first; no core dump (it
 * is no bug), no handler that could allocate. */
_Noreturn void pv_out_of_memory(size_t size)
{
    char msg[64];
    snprintf(msg, sizeof msg, "out of memory (asked for %zu bytes)", size);
    pv_fatal(msg);
}

_Noreturn void pv_fatal(const char *msg)
{
    void (*restore)(void) = atomic_exchange(&pv_fatal_hook, NULL);
    if (restore)
        restore();
    static const char prefix[] = "profview: ";
    (void)!write(STDERR_FILENO, prefix, sizeof prefix - 1);
    (void)!write(STDERR_FILENO, msg, strlen(msg));
    (void)!write(STDERR_FILENO, "\n", 1);
    _exit(2);
}

void *pv_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        pv_out_of_memory(size);
    return p;
}

void *pv_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        pv_out_of_memory(count * size);
    return p;
}

void *pv_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        pv_out_of_memory(size);
    return p;
}

void *pv_xgrow(void *ptr, size_t *capacity, size_t needed, size_t elem_size)
{
    if (needed <= *capacity)
        return ptr;
    size_t cap = *capacity ? *capacity : 8;
    while (cap < needed) {
        if (cap > SIZE_MAX / 2)
            pv_out_of_memory(SIZE_MAX);
        cap *= 2;
    }
    if (elem_size && cap > SIZE_MAX / elem_size)
        pv_out_of_memory(SIZE_MAX);
    ptr = pv_xrealloc(ptr, cap * elem_size);
    *capacity = cap;
    return ptr;
}

/* madvise over the whole pages inside [p, p + bytes): a partial page at
 * either end may hold other data. */
static void pv_madvise_inner(const void *p, size_t bytes, int advice)
{
#if defined(__linux__)
    long ps = sysconf(_SC_PAGESIZE);
    size_t page = ps > 0 ? (size_t)ps : 4096;
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t b = ((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1);
    if (b > a)
        (void)madvise((void *)a, b - a, advice);
#else
    (void)p;
    (void)bytes;
    (void)advice;
#endif
}

#if defined(__linux__)
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* <linux/mman.h>; older C libraries lack the names */
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#endif

void pv_prefault(void *p, size_t bytes)
{
#if defined(__linux__)
    pv_madvise_inner(p, bytes, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)bytes;
#endif
}

void pv_prefault_read(const void *p, size_t bytes)
{
#if defined(__linux__)
    pv_madvise_inner(p, bytes, MADV_POPULATE_READ);
#else
    (void)p;
    (void)bytes;
#endif
}

void pv_release(void *p, size_t bytes)
{
#if defined(__linux__)
    pv_madvise_inner(p, bytes, MADV_DONTNEED);
#else
    (void)p;
    (void)bytes;
#endif
}

#define PV_RELEASE_APART (64u << 20) /* fewer bytes: one thread */

typedef struct pv_release_job {
    const pv_span *spans;
    const unsigned char *mine; /* which spans this thread gives back */
    size_t n;
} pv_release_job;

static void *pv_release_run(void *arg)
{
    const pv_release_job *j = arg;
    for (size_t i = 0; i < j->n; i++)
        if (j->mine[i])
            pv_release(j->spans[i].p, j->spans[i].bytes);
    return NULL;
}

void pv_release_spans(const pv_span *spans, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += spans[i].bytes;
    unsigned char *other = pv_xcalloc(n ? n : 1, 1);
    /* the largest first, each to the thread with fewer bytes so far */
    size_t here = 0, there = 0;
    bool *done = pv_xcalloc(n ? n : 1, sizeof *done);
    for (size_t round = 0; round < n && total >= PV_RELEASE_APART; round++) {
        size_t best = n;
        for (size_t i = 0; i < n; i++)
            if (!done[i] && (best == n || spans[i].bytes > spans[best].bytes))
                best = i;
        done[best] = true;
        if (there < here) {
            other[best] = 1;
            there += spans[best].bytes;
        } else {
            here += spans[best].bytes;
        }
    }
    free(done);
    pv_release_job job = {spans, other, n};
    pthread_t t;
    bool apart = there > 0 && pthread_create(&t, NULL, pv_release_run, &job) == 0;
    for (size_t i = 0; i < n; i++)
        if (!other[i] || !apart)
            pv_release(spans[i].p, spans[i].bytes);
    if (apart)
        pthread_join(t, NULL);
    free(other);
}

void pv_trash_add(pv_trash *t, void *p, size_t bytes)
{
    if (!p)
        return;
    if (bytes < PV_TRASH_AT_ONCE) {
        free(p);
        return;
    }
    t->blocks = pv_xgrow(t->blocks, &t->cap, t->count + 1, sizeof *t->blocks);
    t->blocks[t->count++] = (pv_trash_block){p, bytes, 0};
}

bool pv_trash_step(pv_trash *t, size_t bytes)
{
    while (t->count > 0 && bytes > 0) {
        pv_trash_block *b = &t->blocks[0];
        size_t piece = b->bytes - b->released < bytes ? b->bytes - b->released : bytes;
        pv_release((char *)b->p + b->released, piece);
        b->released += piece;
        bytes -= piece;
        if (b->released == b->bytes) {
            free(b->p); /* its pages are back already: cheap */
            memmove(t->blocks, t->blocks + 1, (t->count - 1) * sizeof *t->blocks);
            t->count--;
        }
    }
    if (t->count == 0) {
        free(t->blocks);
        t->blocks = NULL;
        t->cap = 0;
    }
    return t->count == 0;
}

void pv_trash_free(pv_trash *t)
{
    for (size_t i = 0; i < t->count; i++)
        free(t->blocks[i].p);
    free(t->blocks);
    t->blocks = NULL;
    t->count = t->cap = 0;
}

char *pv_xstrdup(const char *s)
{
    return pv_xstrndup(s, strlen(s));
}

char *pv_xstrndup(const char *s, size_t len)
{
    char *p = pv_xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

char *pv_xasprintf(const char *fmt, ...)
{
    pv_buf b;
    pv_buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    if (!b.data)
        return pv_xstrdup("");
    return b.data;
}

/* ---- pv_buf */

void pv_buf_init(pv_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void pv_buf_free(pv_buf *b)
{
    free(b->data);
    pv_buf_init(b);
}

void pv_buf_clear(pv_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void pv_buf_append(pv_buf *b, const char *s, size_t len)
{
    b->data = pv_xgrow(b->data, &b->cap, b->len + len + 1, 1);
    if (len)
        memcpy(b->data + b->len, s, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void pv_buf_puts(pv_buf *b, const char *s)
{
    pv_buf_append(b, s, strlen(s));
}

void pv_buf_putc(pv_buf *b, char c)
{
    pv_buf_append(b, &c, 1);
}

void pv_buf_vprintf(pv_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[256];
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return;
    }
    if ((size_t)n < sizeof small) {
        pv_buf_append(b, small, (size_t)n);
    } else {
        b->data = pv_xgrow(b->data, &b->cap, b->len + (size_t)n + 1, 1);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
        b->len += (size_t)n;
    }
    va_end(ap2);
}

void pv_buf_put_sql_ident(pv_buf *b, const char *s)
{
    pv_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            pv_buf_putc(b, '"');
        pv_buf_putc(b, *s);
    }
    pv_buf_putc(b, '"');
}

void pv_buf_put_immutable_uri(pv_buf *b, const char *path)
{
    pv_buf_puts(b, "file:");
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (isalnum(*p) || strchr("/._-~", *p))
            pv_buf_putc(b, (char)*p);
        else
            pv_buf_printf(b, "%%%02X", *p);
    }
    pv_buf_puts(b, "?immutable=1");
}

void pv_buf_printf(pv_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pv_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

const char *pv_buf_cstr(pv_buf *b)
{
    return b->data ? b->data : "";
}

/* ---- pv_strpool */

void pv_strpool_init(pv_strpool *p)
{
    p->data = pv_xmalloc(64);
    p->cap = 64;
    p->data[0] = '\0';
    p->len = 1; /* offset 0 is the empty string */
}

void pv_strpool_free(pv_strpool *p)
{
    free(p->data);
    p->data = NULL;
    p->len = p->cap = 0;
}

uint32_t pv_strpool_add(pv_strpool *p, const char *s, size_t len)
{
    if (len == 0)
        return 0;
    if (p->len + len + 1 > UINT32_MAX)
        pv_out_of_memory(p->len + len + 1);
    p->data = pv_xgrow(p->data, &p->cap, p->len + len + 1, 1);
    uint32_t off = (uint32_t)p->len;
    memcpy(p->data + off, s, len);
    p->data[off + len] = '\0';
    p->len += len + 1;
    return off;
}

/* ---- pv_hashmap */

static uint64_t pv_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    x *= UINT64_C(0xc4ceb9fe1a85ec53);
    x ^= x >> 33;
    return x;
}

uint64_t pv_hash_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return pv_mix64(h);
}

void pv_hashmap_init(pv_hashmap *m)
{
    memset(m, 0, sizeof *m);
}

void pv_hashmap_free(pv_hashmap *m)
{
    free(m->keys);
    free(m->values);
    free(m->used);
    pv_hashmap_init(m);
}

static void pv_hashmap_insert_raw(pv_hashmap *m, uint64_t key, uint32_t value)
{
    size_t mask = m->cap - 1;
    size_t i = (size_t)pv_mix64(key) & mask;
    while (m->used[i]) {
        if (m->keys[i] == key) {
            m->values[i] = value;
            return;
        }
        i = (i + 1) & mask;
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->values[i] = value;
    m->count++;
}

void pv_hashmap_put(pv_hashmap *m, uint64_t key, uint32_t value)
{
    if ((m->count + 1) * 2 > m->cap) {
        pv_hashmap old = *m;
        size_t cap = old.cap ? old.cap * 2 : 16;
        m->keys = pv_xmalloc(cap * sizeof *m->keys);
        m->values = pv_xmalloc(cap * sizeof *m->values);
        m->used = pv_xcalloc(cap, 1);
        m->cap = cap;
        m->count = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.used[i])
                pv_hashmap_insert_raw(m, old.keys[i], old.values[i]);
        pv_hashmap_free(&old);
    }
    pv_hashmap_insert_raw(m, key, value);
}

bool pv_hashmap_get(const pv_hashmap *m, uint64_t key, uint32_t *value)
{
    if (m->cap == 0)
        return false;
    size_t mask = m->cap - 1;
    size_t i = (size_t)pv_mix64(key) & mask;
    while (m->used[i]) {
        if (m->keys[i] == key) {
            *value = m->values[i];
            return true;
        }
        i = (i + 1) & mask;
    }
    return false;
}
