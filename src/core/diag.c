/* diag.c - diagnostics, escaping and progress. */
#include "profview/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pv_diag_init(pv_diag *d)
{
    d->entries = NULL;
    d->entry_count = 0;
    d->entry_cap = 0;
    d->warnings = 0;
    d->errors = 0;
}

void pv_diag_free(pv_diag *d)
{
    for (size_t i = 0; i < d->entry_count; i++)
        free(d->entries[i].text);
    free(d->entries);
    pv_diag_init(d);
}

void pv_diag_take(pv_diag *to, pv_diag *from)
{
    to->warnings += from->warnings;
    to->errors += from->errors;
    for (size_t i = 0; i < from->entry_count; i++) {
        pv_diag_entry *e = &from->entries[i];
        if (e->severity != PV_SEV_ERROR && to->entry_count >= PV_DIAG_KEEP) {
            free(e->text);
            continue;
        }
        to->entries = pv_xgrow(to->entries, &to->entry_cap, to->entry_count + 1, sizeof *to->entries);
        to->entries[to->entry_count++] = *e;
    }
    free(from->entries);
    pv_diag_init(from);
}

void pv_diag_vadd(pv_diag *d, pv_severity sev, const char *fmt, va_list ap)
{
    if (sev == PV_SEV_ERROR)
        d->errors++;
    else
        d->warnings++;
    /* Errors are always kept: there are few, and each one matters. */
    if (sev != PV_SEV_ERROR && d->entry_count >= PV_DIAG_KEEP)
        return;
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_vprintf(&b, fmt, ap);
    d->entries = pv_xgrow(d->entries, &d->entry_cap, d->entry_count + 1, sizeof *d->entries);
    d->entries[d->entry_count].severity = sev;
    d->entries[d->entry_count].text = b.data ? b.data : pv_xstrdup("");
    d->entry_count++;
}

void pv_diag_add(pv_diag *d, pv_severity sev, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pv_diag_vadd(d, sev, fmt, ap);
    va_end(ap);
}

size_t pv_utf8_char(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (len == 0)
        return 0;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    size_t n;
    uint32_t c, min;
    if (u[0] >= 0xC2 && u[0] <= 0xDF) {
        n = 2;
        c = u[0] & 0x1F;
        min = 0x80;
    } else if (u[0] >= 0xE0 && u[0] <= 0xEF) {
        n = 3;
        c = u[0] & 0x0F;
        min = 0x800;
    } else if (u[0] >= 0xF0 && u[0] <= 0xF4) {
        n = 4;
        c = u[0] & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (len < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((u[i] & 0xC0) != 0x80)
            return 0;
        c = c << 6 | (u[i] & 0x3F);
    }
    if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

void pv_escape_terminal(pv_buf *out, const char *s, size_t len, const char *keep)
{
    size_t start = 0, i = 0;
    while (i < len) {
        uint32_t c = 0;
        size_t n = pv_utf8_char(s + i, len - i, &c);
        bool control = n == 0 || c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f);
        if (control && n == 1 && c && keep && strchr(keep, (int)c))
            control = false;
        if (!control) {
            i += n;
            continue;
        }
        pv_buf_append(out, s + start, i - start);
        if (n == 0)
            n = 1; /* one byte of invalid UTF-8 */
        for (size_t k = 0; k < n; k++)
            pv_buf_printf(out, "\\x%02X", (unsigned char)s[i + k]);
        i += n;
        start = i;
    }
    pv_buf_append(out, s + start, len - start);
}

void pv_escape_controls(pv_buf *out, const char *s, size_t len)
{
    pv_escape_terminal(out, s, len, NULL);
}

bool pv_progress_step(const pv_progress *p, const char *what, uint64_t done, uint64_t total)
{
    if (!p)
        return true;
    if (p->cancel && atomic_load(p->cancel))
        return false;
    if (p->report)
        p->report(p->user, what, done, total);
    return true;
}
