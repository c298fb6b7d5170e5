/* diag.c - diagnostics, escaping and progress. */
#include "profview/core.h"

#include <stdio.h>
#include <stdlib.h>

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

void pv_escape_controls(pv_buf *out, const char *s, size_t len)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            pv_buf_append(out, s + start, i - start);
            pv_buf_printf(out, "\\x%02X", c);
            start = i + 1;
        }
    }
    pv_buf_append(out, s + start, len - start);
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
