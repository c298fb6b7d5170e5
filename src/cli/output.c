/* output.c - the stderr that escapes whatever a message carries from the
 * input (the rows `profview cat` writes are profview/output.h's). */
#define _GNU_SOURCE /* fopencookie */
#include "output.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* ---- stderr: every message escaped on its way to the terminal
 *
 * Messages name files and quote input (a file name may hold an OSC 52
 * sequence that writes the clipboard, a CSI, an 8-bit C1 control or
 * invalid UTF-8): rather than escape at each of the many places that print
 * one, stderr itself escapes (pv_escape_terminal, keeping newlines and
 * tabs).  It writes with write(2) from a buffer on the stack, so that a
 * message about memory running out needs none. */

static FILE *pv_stderr_raw;
static char pv_stderr_pending[4]; /* an unfinished UTF-8 character */
static size_t pv_stderr_pending_len;

static void pv_stderr_put(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDERR_FILENO, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        p += w;
        n -= (size_t)w;
    }
}

/* The bytes at the end of s[0 .. len) that start a UTF-8 character they
 * do not finish (0-3). */
static size_t pv_utf8_unfinished(const char *s, size_t len)
{
    for (size_t back = 1; back <= 3 && back <= len; back++) {
        unsigned char c = (unsigned char)s[len - back];
        if ((c & 0xC0) == 0x80)
            continue;
        size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 1;
        return need > back && c <= 0xF4 ? back : 0;
    }
    return 0;
}

static void pv_stderr_escape(const char *s, size_t len)
{
    char out[4096];
    size_t o = 0, i = 0;
    while (i < len) {
        uint32_t c = 0;
        size_t n = pv_utf8_char(s + i, len - i, &c);
        bool bad = n == 0 || ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f ||
                              (c >= 0x80 && c <= 0x9f));
        if (n == 0)
            n = 1;
        if (o + 4 * n > sizeof out) {
            pv_stderr_put(out, o);
            o = 0;
        }
        for (size_t k = 0; k < n; k++) {
            unsigned char b = (unsigned char)s[i + k];
            if (bad) {
                static const char hex[] = "0123456789ABCDEF";
                out[o++] = '\\';
                out[o++] = 'x';
                out[o++] = hex[b >> 4];
                out[o++] = hex[b & 15];
            } else {
                out[o++] = (char)b;
            }
        }
        i += n;
    }
    pv_stderr_put(out, o);
}

static ssize_t pv_stderr_write(void *cookie, const char *buf, size_t size)
{
    (void)cookie;
    size_t done = 0;
    /* finish a character begun by the write before */
    while (pv_stderr_pending_len && done < size) {
        pv_stderr_pending[pv_stderr_pending_len++] = buf[done++];
        uint32_t c;
        if (pv_utf8_char(pv_stderr_pending, pv_stderr_pending_len, &c) ||
            !pv_utf8_unfinished(pv_stderr_pending, pv_stderr_pending_len) ||
            pv_stderr_pending_len == 4) {
            pv_stderr_escape(pv_stderr_pending, pv_stderr_pending_len);
            pv_stderr_pending_len = 0;
        }
    }
    size_t keep = pv_utf8_unfinished(buf + done, size - done);
    pv_stderr_escape(buf + done, size - done - keep);
    memcpy(pv_stderr_pending, buf + size - keep, keep);
    pv_stderr_pending_len = keep;
    return (ssize_t)size;
}

void pv_cli_escape_stderr(void)
{
    int fd = dup(STDERR_FILENO);
    FILE *raw = fd >= 0 ? fdopen(fd, "w") : NULL;
    cookie_io_functions_t io = {.write = pv_stderr_write};
    FILE *esc = raw ? fopencookie(NULL, "w", io) : NULL;
    if (!esc) {
        if (raw)
            fclose(raw);
        return;
    }
    setvbuf(raw, NULL, _IONBF, 0);
    setvbuf(esc, NULL, _IONBF, 0);
    pv_stderr_raw = raw;
    stderr = esc;
}

FILE *pv_cli_stderr_raw(void)
{
    return pv_stderr_raw ? pv_stderr_raw : stderr;
}
