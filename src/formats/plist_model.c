/* plist_model.c - the container both PLIST readers fill (plist_model.h):
 * interned names, the numbers as PLIST writes them, messages. */
#include <stdlib.h>
#include <string.h>

#include "formats/plist_model.h"

void plist_model_vwarn(plist_model *m, size_t line_no, const char *fmt, va_list ap)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_printf(&b, "%s: line %zu: ", m->path, line_no);
    pv_buf_vprintf(&b, fmt, ap);
    pv_warn(&m->f->diag, "%s", pv_buf_cstr(&b));
    pv_buf_free(&b);
}

void plist_model_init(plist_model *m, pv_file *f)
{
    memset(m, 0, sizeof *m);
    m->f = f;
    m->path = f->path;
    pv_strpool_init(&m->text);
    plist_names_init(&m->names);
}

void plist_model_free(plist_model *m)
{
    pv_strpool_free(&m->text);
    plist_names_free(&m->names);
    free(m->routines);
    free(m->lines);
    free(m->text_lines);
    free(m->stacks);
    free(m->stack_names);
    free(m->unknown);
    free(m->rec5);
    free(m->stats);
    free(m->modules);
}

void plist_names_init(plist_names *n)
{
    memset(n, 0, sizeof *n);
    pv_strpool_init(&n->pool);
    pv_hashmap_init(&n->index);
}

void plist_names_free(plist_names *n)
{
    pv_strpool_free(&n->pool);
    free(n->offsets);
    pv_hashmap_free(&n->index);
}

const char *plist_name(const plist_names *n, uint32_t id)
{
    return id < n->count ? pv_strpool_get(&n->pool, n->offsets[id]) : "";
}

/* Returns the id of the name `s` (len bytes), adding it when new.  Equal
 * hashes of different names are resolved by re-mixing the key. */
uint32_t plist_names_intern(plist_names *n, const char *s, size_t len)
{
    uint64_t key = pv_hash_bytes(s, len);
    for (;;) {
        uint32_t id;
        if (!pv_hashmap_get(&n->index, key, &id))
            break;
        const char *have = pv_strpool_get(&n->pool, n->offsets[id]);
        if (strlen(have) == len && memcmp(have, s, len) == 0)
            return id;
        key = key * UINT64_C(0x9E3779B97F4A7C15) + 1;
    }
    if (n->count >= PLIST_MAX_ITEMS)
        return 0; /* cannot happen below 4 G names; keeps the index 32-bit */
    n->offsets = pv_xgrow(n->offsets, &n->cap, n->count + 1, sizeof *n->offsets);
    n->offsets[n->count] = pv_strpool_add(&n->pool, s, len);
    uint32_t id = (uint32_t)n->count++;
    pv_hashmap_put(&n->index, key, id);
    return id;
}

/* Appends `s` for a message: control characters escaped, at most 60 bytes. */
void plist_quote(pv_buf *b, const char *s, size_t len)
{
    pv_buf_putc(b, '\'');
    if (len > 60) {
        pv_escape_controls(b, s, 57);
        pv_buf_puts(b, "...");
    } else {
        pv_escape_controls(b, s, len);
    }
    pv_buf_putc(b, '\'');
}

void plist_trim(const char **s, size_t *len)
{
    while (*len && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*len)--;
    }
    while (*len && ((*s)[*len - 1] == ' ' || (*s)[*len - 1] == '\t'))
        (*len)--;
}

/* A count: decimal digits only (blanks around allowed), fits in int64. */
bool plist_parse_count(const char *s, size_t len, int64_t *out)
{
    plist_trim(&s, &len);
    if (len == 0 || s[0] == '-' || s[0] == '+')
        return false;
    return pv_parse_int64(s, len, out);
}

/* Milliseconds with optional decimals ("12", "12.5", ".25") to ns, exactly:
 * integer arithmetic on the digits; a 7th decimal rounds half up, further
 * decimals are below a nanosecond and only checked to be digits. */
bool plist_parse_ms(const char *s, size_t len, int64_t *ns)
{
    plist_trim(&s, &len);
    size_t i = 0;
    int64_t whole = 0;
    bool digits = false;
    for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
        int d = s[i] - '0';
        if (whole > (INT64_MAX / PV_NS_PER_MS - d) / 10)
            return false;
        whole = whole * 10 + d;
        digits = true;
    }
    int64_t frac = 0;
    int scale = 0;
    bool round_up = false;
    if (i < len && s[i] == '.') {
        for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, scale++) {
            digits = true;
            if (scale < 6)
                frac = frac * 10 + (s[i] - '0');
            else if (scale == 6)
                round_up = s[i] >= '5';
        }
    }
    if (!digits || i != len)
        return false;
    for (int k = scale; k < 6; k++)
        frac *= 10;
    /* whole * 10^6 fits; adding the fraction may still pass INT64_MAX. */
    uint64_t v = (uint64_t)whole * (uint64_t)PV_NS_PER_MS + (uint64_t)frac + (round_up ? 1u : 0u);
    if (v > (uint64_t)INT64_MAX)
        return false;
    *ns = (int64_t)v;
    return true;
}

/* Adds `v` to a sum when `has`; every value read is >= 0, and a sum of
 * absurd values saturates at INT64_MAX instead of overflowing. */
void plist_sum(int64_t *acc, bool has, int64_t v)
{
    if (!has)
        return;
    *acc = v > INT64_MAX - *acc ? INT64_MAX : *acc + v;
}
