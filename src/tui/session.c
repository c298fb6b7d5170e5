/* session.c - where the user was, per input file (docs/tui.md "Sessions"):
 * the record (pv_session), its text, where it is kept and how it is
 * written, and the viewer's side: capture, restore as views open, save at
 * quit, :session (:reload, reload.c, keeps the place through the same
 * record). */
#include "tui/session.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "profview/cache.h"
#include "profview/hooks.h"
#include "profview/sql.h"
#include "tui/panel.h"

#define PV_SESSION_MAGIC "profview-session 1"
#define PV_SESSION_MAX_BYTES (4u << 20) /* a session is small; more is not ours */

/* ---- the record */

void pv_bookmark_free(pv_bookmark *b)
{
    free(b->view);
    free(b->note);
    b->view = b->note = NULL;
}

static void pv_session_view_free(pv_session_view *v)
{
    free(v->view);
    free(v->filter);
    free(v->sort);
    free(v->columns);
}

void pv_session_free(pv_session *s)
{
    if (!s)
        return;
    free(s->path);
    for (size_t i = 0; i < s->view_count; i++)
        pv_session_view_free(&s->views[i]);
    free(s->views);
    for (size_t i = 0; i < s->bookmark_count; i++)
        pv_bookmark_free(&s->bookmarks[i]);
    free(s->bookmarks);
    memset(s, 0, sizeof *s);
}

/* The record of view (set, id), made when `make` and missing. */
static pv_session_view *pv_session_find(pv_session *s, size_t set, const char *id, bool make)
{
    for (size_t i = 0; i < s->view_count; i++)
        if (s->views[i].set == set && strcmp(s->views[i].view, id) == 0)
            return &s->views[i];
    if (!make)
        return NULL;
    s->views = pv_xrealloc(s->views, (s->view_count + 1) * sizeof *s->views);
    pv_session_view *v = &s->views[s->view_count++];
    memset(v, 0, sizeof *v);
    v->set = set;
    v->view = pv_xstrdup(id);
    v->row = PV_NO_ROW;
    v->filter = pv_xstrdup("");
    v->sort = pv_xstrdup("");
    return v;
}

static void pv_session_add_bookmark(pv_session *s, const pv_bookmark *b)
{
    s->bookmarks = pv_xrealloc(s->bookmarks, (s->bookmark_count + 1) * sizeof *s->bookmarks);
    pv_bookmark *d = &s->bookmarks[s->bookmark_count++];
    *d = *b;
    d->view = pv_xstrdup(b->view);
    d->note = pv_xstrdup(b->note ? b->note : "");
}

/* ---- its text: one record a line, fields separated by tabs, each field
 * escaped (\\ \t \n \r, other control bytes \xNN), ending with "end"
 * (docs/tui.md "Sessions") */

static void pv_session_field(pv_buf *out, const char *s)
{
    pv_buf_putc(out, '\t');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '\\')
            pv_buf_puts(out, "\\\\");
        else if (*p == '\t')
            pv_buf_puts(out, "\\t");
        else if (*p == '\n')
            pv_buf_puts(out, "\\n");
        else if (*p == '\r')
            pv_buf_puts(out, "\\r");
        else if (*p < 0x20 || *p == 0x7f)
            pv_buf_printf(out, "\\x%02x", *p);
        else
            pv_buf_putc(out, (char)*p);
    }
}

static void pv_session_num(pv_buf *out, int64_t v)
{
    pv_buf_printf(out, "\t%" PRId64, v);
}

static void pv_session_row(pv_buf *out, size_t row)
{
    if (row == PV_NO_ROW)
        pv_buf_puts(out, "\t-");
    else
        pv_buf_printf(out, "\t%zu", row);
}

void pv_session_format(const pv_session *s, pv_buf *out)
{
    pv_buf_puts(out, PV_SESSION_MAGIC "\ninput");
    pv_session_field(out, s->path ? s->path : "");
    pv_buf_printf(out, "\t%" PRIu64, s->size);
    pv_session_num(out, s->mtime_s);
    pv_session_num(out, s->mtime_ns);
    pv_buf_putc(out, '\n');
    for (size_t i = 0; i < s->view_count; i++) {
        const pv_session_view *v = &s->views[i];
        pv_buf_printf(out, "view\t%zu", v->set);
        pv_session_field(out, v->view);
        pv_session_row(out, v->row);
        pv_session_field(out, v->filter ? v->filter : "");
        pv_session_field(out, v->sort ? v->sort : "");
        pv_buf_printf(out, "\t%d\n", v->current ? 1 : 0);
        if (v->columns) {
            pv_buf_printf(out, "columns\t%zu", v->set);
            pv_session_field(out, v->view);
            pv_session_field(out, v->columns);
            pv_buf_putc(out, '\n');
        }
        for (int m = 0; m < 2; m++)
            if (v->mark[m]) {
                pv_buf_printf(out, "mark\t%c\trow\t%zu", "AB"[m], v->set);
                pv_session_field(out, v->view);
                pv_buf_printf(out, "\t%zu\n", v->mark_row[m]);
            }
        if (v->pins) {
            pv_buf_printf(out, "pins\t%zu", v->set);
            pv_session_field(out, v->view);
            for (size_t k = 0; k < v->pins; k++)
                pv_buf_printf(out, "\t%" PRIu64, v->pin[k]);
            pv_buf_putc(out, '\n');
        }
        if (v->zoomed) {
            pv_buf_printf(out, "zoom\t%zu", v->set);
            pv_session_field(out, v->view);
            pv_session_num(out, v->t0);
            pv_session_num(out, v->t1);
            pv_buf_putc(out, '\n');
        }
    }
    for (int m = 0; m < 2; m++)
        if (s->mark_time[m])
            pv_buf_printf(out, "mark\t%c\ttime\t%" PRId64 "\n", "AB"[m], s->mark_at[m]);
    for (size_t i = 0; i < s->bookmark_count; i++) {
        const pv_bookmark *b = &s->bookmarks[i];
        pv_buf_printf(out, "bookmark\t%zu", b->set);
        pv_session_field(out, b->view);
        pv_session_row(out, b->row);
        pv_session_num(out, b->id);
        pv_session_num(out, b->time);
        pv_session_field(out, b->note ? b->note : "");
        pv_buf_putc(out, '\n');
    }
    pv_buf_puts(out, "end\n");
}

#define PV_SESSION_FIELDS 16

/* Splits a line into unescaped fields (owned by `store`); false when an
 * escape is bad. */
static bool pv_session_split(const char *line, size_t len, pv_buf *store, size_t *count,
                             size_t offs[PV_SESSION_FIELDS])
{
    pv_buf_clear(store);
    *count = 0;
    offs[(*count)++] = 0;
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (c == '\t') {
            pv_buf_putc(store, '\0');
            if (*count == PV_SESSION_FIELDS)
                return false;
            offs[(*count)++] = store->len;
        } else if (c == '\\') {
            if (++i >= len)
                return false;
            char e = line[i];
            if (e == '\\')
                pv_buf_putc(store, '\\');
            else if (e == 't')
                pv_buf_putc(store, '\t');
            else if (e == 'n')
                pv_buf_putc(store, '\n');
            else if (e == 'r')
                pv_buf_putc(store, '\r');
            else if (e == 'x' && i + 2 < len) {
                char hex[3] = {line[i + 1], line[i + 2], 0};
                char *end;
                long v = strtol(hex, &end, 16);
                if (*end || v <= 0)
                    return false;
                pv_buf_putc(store, (char)v);
                i += 2;
            } else {
                return false;
            }
        } else if ((unsigned char)c < 0x20) {
            return false;
        } else {
            pv_buf_putc(store, c);
        }
    }
    pv_buf_putc(store, '\0');
    return true;
}

static bool pv_session_int(const char *s, int64_t *out)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno)
        return false;
    *out = v;
    return true;
}

static bool pv_session_size(const char *s, size_t *out)
{
    if (strcmp(s, "-") == 0) {
        *out = PV_NO_ROW;
        return true;
    }
    int64_t v;
    if (!pv_session_int(s, &v) || v < 0)
        return false;
    *out = (size_t)v;
    return true;
}

bool pv_session_parse(const char *text, size_t len, pv_session *s, pv_buf *why)
{
    memset(s, 0, sizeof *s);
    pv_buf store;
    pv_buf_init(&store);
    size_t offs[PV_SESSION_FIELDS];
    size_t pos = 0, lineno = 0;
    bool ended = false, input = false;
    const char *bad = NULL;
    while (pos < len && !bad) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - (text + pos)) : len - pos;
        const char *line = text + pos;
        pos += l + (nl != NULL);
        lineno++;
        if (lineno == 1) {
            if (l != strlen(PV_SESSION_MAGIC) || memcmp(line, PV_SESSION_MAGIC, l) != 0)
                bad = "not a profview session (its first line)";
            continue;
        }
        if (ended) {
            bad = "text after its end";
            break;
        }
        if (!nl) {
            bad = "cut short";
            break;
        }
        size_t n;
        if (!pv_session_split(line, l, &store, &n, offs)) {
            bad = "a bad escape or control character";
            break;
        }
        const char *f[PV_SESSION_FIELDS] = {0};
        for (size_t i = 0; i < n; i++)
            f[i] = store.data + offs[i];
        const char *kw = f[0];
        int64_t x = 0, y = 0;
        size_t set = 0, row = 0;
        if (strcmp(kw, "end") == 0 && n == 1) {
            ended = true;
        } else if (strcmp(kw, "input") == 0 && n == 5 && !input) {
            int64_t size = 0;
            if (!pv_session_int(f[2], &size) || size < 0 || !pv_session_int(f[3], &s->mtime_s) ||
                !pv_session_int(f[4], &s->mtime_ns))
                bad = "a bad number";
            s->path = pv_xstrdup(f[1]);
            s->size = (uint64_t)size;
            input = true;
        } else if (strcmp(kw, "view") == 0 && n == 7 && pv_session_size(f[1], &set) &&
                   set != PV_NO_ROW && pv_session_size(f[3], &row) &&
                   (strcmp(f[6], "0") == 0 || strcmp(f[6], "1") == 0)) {
            pv_session_view *v = pv_session_find(s, set, f[2], true);
            v->row = row;
            free(v->filter);
            free(v->sort);
            v->filter = pv_xstrdup(f[4]);
            v->sort = pv_xstrdup(f[5]);
            v->current = f[6][0] == '1';
        } else if (strcmp(kw, "columns") == 0 && n == 4 && pv_session_size(f[1], &set) &&
                   set != PV_NO_ROW) {
            pv_session_view *v = pv_session_find(s, set, f[2], true);
            free(v->columns);
            v->columns = pv_xstrdup(f[3]);
        } else if (strcmp(kw, "mark") == 0 && n == 6 && (!strcmp(f[1], "A") || !strcmp(f[1], "B")) &&
                   strcmp(f[2], "row") == 0 && pv_session_size(f[3], &set) && set != PV_NO_ROW &&
                   pv_session_size(f[5], &row) && row != PV_NO_ROW) {
            pv_session_view *v = pv_session_find(s, set, f[4], true);
            v->mark[f[1][0] - 'A'] = true;
            v->mark_row[f[1][0] - 'A'] = row;
        } else if (strcmp(kw, "mark") == 0 && n == 4 && (!strcmp(f[1], "A") || !strcmp(f[1], "B")) &&
                   strcmp(f[2], "time") == 0 && pv_session_int(f[3], &x)) {
            s->mark_time[f[1][0] - 'A'] = true;
            s->mark_at[f[1][0] - 'A'] = x;
        } else if (strcmp(kw, "pins") == 0 && n >= 4 && n <= 3 + PV_SESSION_PINS &&
                   pv_session_size(f[1], &set) && set != PV_NO_ROW) {
            pv_session_view *v = pv_session_find(s, set, f[2], true);
            v->pins = 0;
            for (size_t i = 3; i < n && !bad; i++) {
                if (!pv_session_int(f[i], &x))
                    bad = "a bad number";
                v->pin[v->pins++] = (uint64_t)x;
            }
        } else if (strcmp(kw, "zoom") == 0 && n == 5 && pv_session_size(f[1], &set) &&
                   set != PV_NO_ROW && pv_session_int(f[3], &x) && pv_session_int(f[4], &y) &&
                   x <= y) {
            pv_session_view *v = pv_session_find(s, set, f[2], true);
            v->zoomed = true;
            v->t0 = x;
            v->t1 = y;
        } else if (strcmp(kw, "bookmark") == 0 && n == 7 && pv_session_size(f[1], &set) &&
                   set != PV_NO_ROW && pv_session_size(f[3], &row) && pv_session_int(f[4], &x) &&
                   pv_session_int(f[5], &y) && y >= -1) {
            pv_bookmark b = {.set = set, .view = (char *)f[2], .row = row, .id = x, .time = y,
                             .note = (char *)f[6]};
            pv_session_add_bookmark(s, &b);
        } else {
            bad = "an unknown or malformed record";
        }
    }
    if (!bad && !ended)
        bad = lineno == 0 ? "empty" : "cut short (no end)";
    if (!bad && !input)
        bad = "no input line";
    pv_buf_free(&store);
    if (bad) {
        pv_buf_printf(why, "line %zu: %s", lineno, bad);
        pv_session_free(s);
        return false;
    }
    return true;
}

/* ---- where sessions are kept: a private directory (the cache's rules,
 * docs/cache.md "Trust"), one file per input named by a hash of its real
 * path */

char *pv_session_dir(void)
{
    const char *xdg = getenv("XDG_STATE_HOME");
    const char *ci = getenv("CI");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        return pv_xasprintf("%s/profview", xdg);
    if (ci && strcmp(ci, "true") == 0)
        return NULL; /* a CI run never writes to a user's state */
    if (home && *home)
        return pv_xasprintf("%s/.local/state/profview", home);
    return NULL;
}

char *pv_session_name(const char *real)
{
    size_t len = strlen(real);
    size_t padded = (len + 31) / 32 * 32;
    unsigned char *buf = pv_xcalloc(1, padded ? padded : 32);
    memcpy(buf, real, len);
    uint64_t h = pv_cache_hash(buf, padded ? padded : 32, len);
    uint64_t h2 = pv_cache_hash(buf, padded ? padded : 32, h ^ UINT64_C(0x5e5510));
    free(buf);
    return pv_xasprintf("%016" PRIx64 "%016" PRIx64 ".session", h, h2);
}

/* The input's identity: its real path, size, modification time. */
bool pv_session_identity(const char *path, char **real, uint64_t *size, int64_t *s, int64_t *ns)
{
    struct stat st;
    *real = realpath(path, NULL);
    if (!*real || stat(*real, &st) != 0 || !S_ISREG(st.st_mode)) {
        free(*real);
        *real = NULL;
        return false;
    }
    *size = (uint64_t)st.st_size;
    *s = (int64_t)st.st_mtim.tv_sec;
    *ns = (int64_t)st.st_mtim.tv_nsec;
    return true;
}

/* Writes the session atomically: a temporary file of our own
 * (O_EXCL|O_NOFOLLOW) in the private directory, renamed into place with
 * renameat. Not fsynced (docs/tui.md "Sessions"): the write happens at
 * quit, after the terminal is restored, and an fsync waits for the disk
 * behind whatever else the machine is writing (seconds on a busy shared
 * server) while the user waits for the prompt; after a crash of the
 * machine a short or empty session is one that cannot be read, said when
 * its input is opened, as the index cache's rule (docs/cache.md). */
static bool pv_session_write(const pv_session *s, pv_buf *why)
{
    char *dir = pv_session_dir();
    if (!dir) {
        pv_buf_puts(why, "no place for it (set XDG_STATE_HOME or HOME)");
        return false;
    }
    char reason[64];
    int dirfd = -1;
    if (!pv_private_mkdir(dir))
        pv_buf_printf(why, "cannot create %s: %s", dir, strerror(errno));
    else if ((dirfd = pv_private_dir_open(dir, reason, sizeof reason)) < 0)
        pv_buf_printf(why, "%s %s (it must be a directory of your own that no one else can write)",
                      dir, reason[0] ? reason : strerror(errno));
    if (dirfd < 0) {
        free(dir);
        return false;
    }
    char *name = pv_session_name(s->path);
    pv_buf text, tmp;
    pv_buf_init(&text);
    pv_buf_init(&tmp);
    pv_session_format(s, &text);
    int fd = pv_private_temp(dirfd, name, &tmp);
    bool ok = fd >= 0;
    size_t done = 0;
    while (ok && done < text.len) {
        ssize_t n = write(fd, text.data + done, text.len - done);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        if (ok)
            done += (size_t)n;
    }
    if (fd >= 0)
        ok = close(fd) == 0 && ok;
    ok = ok && renameat(dirfd, pv_buf_cstr(&tmp), dirfd, name) == 0;
    if (!ok) {
        pv_buf_printf(why, "%s/%s: %s", dir, name, strerror(errno ? errno : EIO));
        if (fd >= 0)
            unlinkat(dirfd, pv_buf_cstr(&tmp), 0);
    }
    close(dirfd);
    pv_buf_free(&text);
    pv_buf_free(&tmp);
    free(name);
    free(dir);
    return ok;
}

/* Reads session file `name` of directory dirfd (dir, for messages): 1
 * read, 0 none (no message), -1 not usable (why says so). */
static int pv_session_load_at(int dirfd, const char *dir, const char *name, pv_session *s,
                              pv_buf *why)
{
    int rc = 0;
    int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        if (errno != ENOENT) {
            pv_buf_printf(why, "%s/%s: %s", dir, name, strerror(errno));
            rc = -1;
        }
    } else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
               st.st_size > PV_SESSION_MAX_BYTES) {
        pv_buf_printf(why, "%s/%s: not a file of your own of at most 4 MiB", dir, name);
        rc = -1;
    } else {
        char *text = pv_xmalloc((size_t)st.st_size + 1);
        size_t got = 0;
        while (got < (size_t)st.st_size) {
            ssize_t n = read(fd, text + got, (size_t)st.st_size - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        pv_buf where;
        pv_buf_init(&where);
        if (got != (size_t)st.st_size) {
            pv_buf_printf(why, "%s/%s: cannot read it", dir, name);
            rc = -1;
        } else if (!pv_session_parse(text, got, s, &where)) {
            pv_buf_printf(why, "%s (%s/%s)", pv_buf_cstr(&where), dir, name);
            rc = -1;
        } else {
            rc = 1;
        }
        pv_buf_free(&where);
        free(text);
    }
    if (fd >= 0)
        close(fd);
    return rc;
}

/* Reads the session of the input at real path `real`: 1 read, 0 none
 * (no message), -1 not usable (why says so), -2 the directory is not to
 * be trusted (why says which and why). */
static int pv_session_read(const char *real, pv_session *s, pv_buf *why)
{
    char *dir = pv_session_dir();
    if (!dir)
        return 0;
    char reason[64];
    int dirfd = pv_private_dir_open(dir, reason, sizeof reason);
    if (dirfd < 0) {
        if (reason[0])
            pv_buf_printf(why, "%s %s", dir, reason);
        free(dir);
        return reason[0] ? -2 : 0;
    }
    char *name = pv_session_name(real);
    int rc = pv_session_load_at(dirfd, dir, name, s, why);
    close(dirfd);
    free(name);
    free(dir);
    return rc;
}

/* What a name in the session directory is: 1 a session
 * (pv_session_name: 32 lowercase hex digits, ".session"), 2 the temporary
 * file of its write (pv_private_temp: ".XXXXXX" more), 0 anything else,
 * never touched. */
static int pv_session_name_kind(const char *name)
{
    for (int i = 0; i < 32; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return 0;
    if (strncmp(name + 32, ".session", 8) != 0)
        return 0;
    if (name[40] == '\0')
        return 1;
    if (name[40] != '.' || strlen(name + 41) != 6)
        return 0;
    for (int i = 41; i < 47; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return 0;
    return 2;
}

typedef struct pv_session_entry {
    char *name;
    struct timespec written;
} pv_session_entry;

static int pv_session_entry_cmp(const void *x, const void *y)
{
    const pv_session_entry *a = x, *b = y; /* newest first */
    if (a->written.tv_sec != b->written.tv_sec)
        return a->written.tv_sec > b->written.tv_sec ? -1 : 1;
    if (a->written.tv_nsec != b->written.tv_nsec)
        return a->written.tv_nsec > b->written.tv_nsec ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Whether the session file `name` is of an input that no longer exists:
 * it names its input's real path (pv_session_name of it: the file is
 * that input's), and nothing is there. */
static bool pv_session_orphan(int dirfd, const char *dir, const char *name)
{
    pv_session s;
    pv_buf why;
    pv_buf_init(&why);
    bool gone = false;
    if (pv_session_load_at(dirfd, dir, name, &s, &why) == 1) {
        char *own = pv_session_name(s.path);
        struct stat st;
        gone = s.path[0] == '/' && strcmp(own, name) == 0 && stat(s.path, &st) != 0 &&
               (errno == ENOENT || errno == ENOTDIR);
        free(own);
        pv_session_free(&s);
    }
    pv_buf_free(&why);
    return gone;
}

size_t pv_session_prune(size_t keep)
{
    char *dir = pv_session_dir();
    if (!dir)
        return 0;
    char reason[64];
    int dirfd = pv_private_dir_open(dir, reason, sizeof reason);
    int fd = dirfd >= 0 ? fcntl(dirfd, F_DUPFD_CLOEXEC, 0) : -1;
    DIR *dp = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dp) {
        if (fd >= 0)
            close(fd);
        if (dirfd >= 0)
            close(dirfd);
        free(dir);
        return 0;
    }
    pv_session_entry *kept = NULL;
    size_t n = 0, cap = 0, removed = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        int kind = pv_session_name_kind(de->d_name);
        struct stat st;
        if (!kind || fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode) || st.st_uid != geteuid())
            continue;
        bool drop;
        if (kind == 2) /* a write that never finished (a crash): gone after a day */
            drop = st.st_mtim.tv_sec < time(NULL) - 86400;
        else
            drop = pv_session_orphan(dirfd, dir, de->d_name);
        if (drop) {
            removed += unlinkat(dirfd, de->d_name, 0) == 0;
        } else if (kind == 1) {
            kept = pv_xgrow(kept, &cap, n + 1, sizeof *kept);
            kept[n].name = pv_xstrdup(de->d_name);
            kept[n].written = st.st_mtim;
            n++;
        }
    }
    closedir(dp);
    if (n > keep) {
        qsort(kept, n, sizeof *kept, pv_session_entry_cmp);
        for (size_t i = keep; i < n; i++)
            removed += unlinkat(dirfd, kept[i].name, 0) == 0;
    }
    for (size_t i = 0; i < n; i++)
        free(kept[i].name);
    free(kept);
    close(dirfd);
    free(dir);
    return removed;
}

static bool pv_session_remove(const char *real)
{
    char *dir = pv_session_dir();
    if (!dir)
        return false;
    char reason[64];
    int dirfd = pv_private_dir_open(dir, reason, sizeof reason);
    char *name = pv_session_name(real);
    bool ok = dirfd >= 0 && (unlinkat(dirfd, name, 0) == 0 || errno == ENOENT);
    if (dirfd >= 0)
        close(dirfd);
    free(name);
    free(dir);
    return ok;
}

/* ---- the viewer's side */

void pv_app_session_init(pv_app *a)
{
    a->sess.on = a->opt.session && !a->cfg.session_off;
    a->sess.bm_pos = PV_NO_ROW;
    a->sess.bm_file = PV_NO_ROW;
}

void pv_app_session_free(pv_app *a)
{
    for (size_t i = 0; i < a->sess.file_cap; i++) {
        free(a->sess.files[i].say);
        pv_session_free(a->sess.files[i].pending);
        free(a->sess.files[i].pending);
    }
    free(a->sess.files);
    for (size_t i = 0; i < a->sess.bm_count; i++)
        pv_bookmark_free(&a->sess.bm[i]);
    free(a->sess.bm);
    for (size_t i = 0; i < a->sess.reload_count; i++) {
        free(a->sess.reload[i].path);
        pv_session_free(a->sess.reload[i].state);
        free(a->sess.reload[i].state);
    }
    free(a->sess.reload);
}

pv_session_file *pv_app_session_file(pv_app *a, size_t fi)
{
    if (fi >= a->sess.file_cap) {
        size_t cap = fi + 8;
        a->sess.files = pv_xrealloc(a->sess.files, cap * sizeof *a->sess.files);
        memset(a->sess.files + a->sess.file_cap, 0, (cap - a->sess.file_cap) * sizeof *a->sess.files);
        a->sess.file_cap = cap;
    }
    return &a->sess.files[fi];
}

bool pv_app_file_is_pseudo(const pv_app *a, size_t fi)
{
    return fi == a->sql.file || fi == a->sess.bm_file;
}

size_t pv_app_view_file(const pv_app *a, const void *view, size_t *item)
{
    for (size_t k = 0; view && k < a->item_count; k++) {
        const pv_item *it = &a->items[k];
        if (it->kind != PV_ITEM_VIEW)
            continue;
        if ((it->opened && it->report.view == view) || pv_item_view(a, it) == view) {
            if (item)
                *item = k;
            return it->file;
        }
    }
    return PV_NO_ROW;
}

/* The item of view (set, id) of file fi, or PV_NO_ROW. */
size_t pv_app_session_item(const pv_app *a, size_t fi, size_t set, const char *id)
{
    const pv_file *f = a->files[fi];
    for (size_t k = 0; k < a->item_count; k++) {
        const pv_item *it = &a->items[k];
        if (it->file == fi && it->kind == PV_ITEM_VIEW && it->set == set && set < f->set_count &&
            it->view < f->sets[set]->view_count &&
            strcmp(f->sets[set]->views[it->view]->id, id) == 0)
            return k;
    }
    return PV_NO_ROW;
}

const char *pv_app_item_view_id(const pv_app *a, const pv_item *it)
{
    return a->files[it->file]->sets[it->set]->views[it->view]->id;
}

void pv_app_session_capture(pv_app *a, size_t fi, pv_session *out)
{
    memset(out, 0, sizeof *out);
    const pv_file *f = a->files[fi];
    char *real;
    if (!pv_session_identity(f->path, &real, &out->size, &out->mtime_s, &out->mtime_ns))
        real = pv_xstrdup(f->path);
    out->path = real;
    if (fi < a->sess.file_cap && a->sess.files[fi].known) {
        /* the recording as it was read: a file changed on disk since gets
         * no session of the old one (docs/tui.md "Sessions") */
        out->size = a->sess.files[fi].size;
        out->mtime_s = a->sess.files[fi].mtime_s;
        out->mtime_ns = a->sess.files[fi].mtime_ns;
    }
    size_t shown_file = a->loc.item < a->item_count ? a->items[a->loc.item].file : PV_NO_ROW;
    pv_buf text;
    pv_buf_init(&text);
    for (size_t k = 0; k < a->item_count; k++) {
        pv_item *it = &a->items[k];
        if (it->file != fi || it->kind != PV_ITEM_VIEW)
            continue;
        bool current = a->loc.item == k;
        if (!it->opened && !current)
            continue;
        pv_session_view *v = pv_session_find(out, it->set, pv_app_item_view_id(a, it), true);
        v->current = current;
        if (!it->opened)
            continue;
        pv_report *r = &it->report;
        v->row = pv_report_selected(r);
        free(v->filter);
        v->filter = pv_xstrdup(r->filter ? r->filter : "");
        pv_buf_clear(&text);
        pv_report_sort_text(r, &text);
        free(v->sort);
        v->sort = pv_xstrdup(pv_buf_cstr(&text));
        size_t shown[PV_MAX_SHOWN];
        size_t n = pv_report_shown(r, shown, PV_MAX_SHOWN);
        pv_buf_clear(&text);
        for (size_t c = 0; c < n; c++)
            pv_buf_printf(&text, "%s%s", c ? "," : "", r->view->columns[shown[c]].id);
        v->columns = pv_xstrdup(pv_buf_cstr(&text));
        for (int m = 0; m < 2; m++)
            if (a->mark.set[m] && a->mark.view[m] && a->mark.view[m] == r->view) {
                v->mark[m] = true;
                v->mark_row[m] = a->mark.row[m];
            }
        if (a->lanes.view && a->lanes.view == r->view) {
            v->pins = a->lanes.pins < PV_SESSION_PINS ? a->lanes.pins : PV_SESSION_PINS;
            memcpy(v->pin, a->lanes.pin, v->pins * sizeof *v->pin);
        }
        if (a->lanes.zoomed && a->lanes.zoom_view == r->view) {
            v->zoomed = true;
            v->t0 = a->lanes.t0;
            v->t1 = a->lanes.t1;
        }
    }
    pv_buf_free(&text);
    /* markers at times belong to the file shown (to every file when a
     * pseudo-file is shown) */
    if (shown_file == fi || shown_file == PV_NO_ROW || pv_app_file_is_pseudo(a, shown_file))
        for (int m = 0; m < 2; m++)
            if (a->mark.set[m] && !a->mark.view[m]) {
                out->mark_time[m] = true;
                out->mark_at[m] = a->mark.at[m];
            }
    for (size_t i = 0; i < a->sess.bm_count; i++)
        if (a->sess.bm[i].file == fi)
            pv_session_add_bookmark(out, &a->sess.bm[i]);
    /* what was restored from before and not visited yet stays */
    pv_session_file *sf = fi < a->sess.file_cap ? &a->sess.files[fi] : NULL;
    pv_session *p = sf ? sf->pending : NULL;
    if (!p)
        return;
    for (size_t i = 0; i < p->view_count; i++) {
        const pv_session_view *pv = &p->views[i];
        pv_session_view *v = pv_session_find(out, pv->set, pv->view, false);
        if (v && v->columns) /* the view was opened (its columns taken): its state is newer */
            continue;
        bool was_current = v && v->current;
        if (v) { /* only named current: replace by the saved state */
            pv_session_view_free(v);
            *v = *pv;
        } else {
            v = pv_session_find(out, pv->set, pv->view, true);
            pv_session_view_free(v);
            *v = *pv;
            was_current = false;
        }
        v->view = pv_xstrdup(pv->view);
        v->filter = pv_xstrdup(pv->filter ? pv->filter : "");
        v->sort = pv_xstrdup(pv->sort ? pv->sort : "");
        v->columns = pv->columns ? pv_xstrdup(pv->columns) : NULL;
        v->current = was_current;
    }
    if (!sf->file_done) {
        for (int m = 0; m < 2; m++)
            if (p->mark_time[m] && !out->mark_time[m]) {
                out->mark_time[m] = true;
                out->mark_at[m] = p->mark_at[m];
            }
        for (size_t i = 0; i < p->bookmark_count; i++)
            pv_session_add_bookmark(out, &p->bookmarks[i]);
    }
}

void pv_app_session_adopted(pv_app *a, size_t fi, size_t *first_view)
{
    pv_session_file *sf = pv_app_session_file(a, fi);
    if (pv_app_file_is_pseudo(a, fi))
        return;
    const pv_file *f = a->files[fi];
    char *real;
    uint64_t size;
    int64_t s, ns;
    if (!pv_session_identity(f->path, &real, &size, &s, &ns))
        return; /* not a regular file: no session */
    sf->known = true;
    sf->size = size;
    sf->mtime_s = s;
    sf->mtime_ns = ns;
    if (!a->sess.on || sf->pending) {
        free(real);
        return;
    }
    pv_session *saved = pv_xcalloc(1, sizeof *saved);
    pv_buf why;
    pv_buf_init(&why);
    int rc = pv_session_read(real, saved, &why);
    const char *base = pv_basename(f->path);
    if (rc == -2) {
        pv_app_messagef(a, true, "sessions are not used: %s (it must be a directory of your own that "
                                 "no one else can write)", pv_buf_cstr(&why));
    } else if (rc < 0) {
        pv_app_messagef(a, true, "%s: its saved session is ignored: %s", base, pv_buf_cstr(&why));
    } else if (rc > 0 && (strcmp(saved->path, real) != 0 || saved->size != size ||
                          saved->mtime_s != s || saved->mtime_ns != ns)) {
        pv_app_messagef(a, false,
                        "%s changed since its session was saved (size or modification time): "
                        "the session is ignored", base);
        rc = 0;
    } else if (rc > 0) {
        size_t item = PV_NO_ROW;
        size_t filters = 0;
        for (size_t i = 0; i < saved->view_count; i++) {
            if (saved->views[i].filter[0])
                filters++;
            if (saved->views[i].current)
                item = pv_app_session_item(a, fi, saved->views[i].set, saved->views[i].view);
        }
        if (item != PV_NO_ROW)
            *first_view = item;
        size_t marks = 0;
        for (int m = 0; m < 2; m++) {
            marks += saved->mark_time[m];
            for (size_t i = 0; i < saved->view_count; i++)
                marks += saved->views[i].mark[m];
        }
        free(sf->say);
        sf->say = pv_xasprintf("%s: session restored: %zu view%s, %zu filter%s, %zu marker%s, "
                               "%zu bookmark%s (:session reset forgets it)",
                               base, saved->view_count, saved->view_count == 1 ? "" : "s", filters,
                               filters == 1 ? "" : "s", marks, marks == 1 ? "" : "s",
                               saved->bookmark_count, saved->bookmark_count == 1 ? "" : "s");
        sf->pending = saved;
        sf->file_done = false;
        saved = NULL;
    }
    if (saved) {
        pv_session_free(saved);
        free(saved);
    }
    pv_buf_free(&why);
    free(real);
}

/* Applies the saved state of the view the Report shows (its report is
 * open): columns, row markers, pins, zoom, then its filter, sort and row
 * (a job in steps for a big view). */
static void pv_app_session_apply_view(pv_app *a, pv_session *p, size_t i)
{
    pv_session_view *v = &p->views[i];
    pv_report *r = pv_app_report(a);
    if ((r->filter && r->filter[0]) || r->sort_count || r->cursor > 0) {
        /* the user filtered, sorted or moved in it meanwhile (it showed
         * while the index was built): theirs wins */
        pv_session_view_free(v);
        p->views[i] = p->views[--p->view_count];
        return;
    }
    if (v->columns && v->columns[0]) {
        pv_buf bad;
        pv_buf_init(&bad);
        pv_report_set_columns(r, v->columns, &bad); /* a column gone: as opened */
        pv_buf_free(&bad);
    }
    size_t rows = pv_view_rows(r->view);
    for (int m = 0; m < 2; m++)
        if (v->mark[m] && !a->mark.set[m] && v->mark_row[m] < rows &&
            pv_view_has_range_statistics(r->view)) {
            a->mark.set[m] = true;
            a->mark.at[m] = 0;
            a->mark.view[m] = r->view;
            a->mark.row[m] = v->mark_row[m];
        }
    for (size_t k = 0; k < v->pins; k++)
        pv_lanes_pin_area(a, r->view, v->pin[k], false);
    if (v->zoomed) {
        a->lanes.zoomed = true;
        a->lanes.zoom_view = r->view;
        a->lanes.t0 = v->t0;
        a->lanes.t1 = v->t1;
        a->lanes.cursor_row = pv_report_selected(r);
    }
    pv_location to = a->loc;
    to.filter = to.sort = NULL;
    to.row = v->row < rows ? v->row : PV_NO_ROW;
    pv_location_set_texts(&to, v->filter, v->sort);
    pv_app_apply(a, &to);
    pv_location_free(&to);
    pv_session_view_free(v);
    p->views[i] = p->views[--p->view_count];
}

void pv_app_session_tick(pv_app *a)
{
    if (a->sess.reload_count && !pv_app_loading(a))
        pv_app_reload_failed(a); /* the loader is done and did not bring it */
    for (size_t fi = 0; fi < a->file_count && fi < a->sess.file_cap; fi++) {
        pv_session_file *sf = &a->sess.files[fi];
        pv_session *p = sf->pending;
        uint64_t done, total;
        if (!p || !pv_file_index_progress(a->files[fi], &done, &total))
            continue; /* restored once the index is ready (docs/tui.md "Sessions") */
        if (!sf->file_done) {
            sf->file_done = true;
            for (int m = 0; m < 2; m++)
                if (p->mark_time[m] && !a->mark.set[m]) {
                    a->mark.set[m] = true;
                    a->mark.at[m] = p->mark_at[m];
                    a->mark.view[m] = NULL;
                }
            for (size_t i = 0; i < p->bookmark_count; i++) {
                pv_bookmark b = p->bookmarks[i];
                b.file = fi;
                pv_app_bookmark_push(a, &b);
            }
        }
        if (a->loc.depth == 0 && a->loc.item < a->item_count && !a->diff.on &&
            a->items[a->loc.item].file == fi && a->items[a->loc.item].kind == PV_ITEM_VIEW &&
            !pv_jobs_get(a, -1)) {
            const pv_item *it = &a->items[a->loc.item];
            for (size_t i = 0; i < p->view_count; i++) {
                if (p->views[i].set != it->set ||
                    strcmp(p->views[i].view, pv_app_item_view_id(a, it)) != 0)
                    continue;
                if (pv_app_report(a) && !pv_jobs_get(a, PV_JOB_OPEN))
                    pv_app_session_apply_view(a, p, i);
                break;
            }
        }
        bool current_waits = false;
        for (size_t i = 0; i < p->view_count; i++)
            current_waits = current_waits || p->views[i].current;
        if (sf->say && sf->file_done && !pv_jobs_get(a, -1) &&
            (!current_waits || a->loc.item >= a->item_count || a->items[a->loc.item].file != fi)) {
            /* said again once restored: the restore's own job clears the
             * message when it ends */
            if (!a->message.len || !a->message_error)
                pv_app_message(a, false, sf->say);
            free(sf->say);
            sf->say = NULL;
        }
        if (sf->file_done && p->view_count == 0) {
            pv_session_free(p);
            free(p);
            sf->pending = NULL;
        }
    }
}

const char *pv_app_session_unsaved(pv_app *a, size_t fi)
{
    if (!a->sess.on)
        return "sessions off";
    if (pv_app_file_is_pseudo(a, fi))
        return "not an input file";
    if (fi < a->sess.file_cap && a->sess.files[fi].forget)
        return ":session reset";
    char *real;
    uint64_t size;
    int64_t sec, ns;
    if (!pv_session_identity(a->files[fi]->path, &real, &size, &sec, &ns))
        return "not a regular file";
    free(real);
    const pv_session_file *sf = fi < a->sess.file_cap ? &a->sess.files[fi] : NULL;
    if (sf && sf->known && (sf->size != size || sf->mtime_s != sec || sf->mtime_ns != ns))
        return "changed on disk"; /* its session would restore onto another recording */
    return NULL;
}

void pv_app_session_save_all(pv_app *a)
{
    bool wrote = false;
    for (size_t fi = 0; fi < a->file_count; fi++) {
        if (pv_app_session_unsaved(a, fi))
            continue;
        pv_session s;
        pv_app_session_capture(a, fi, &s);
        pv_buf why;
        pv_buf_init(&why);
        if (pv_session_write(&s, &why))
            wrote = true;
        else
            fprintf(stderr, "profview: the session of %s was not saved: %s\n",
                    pv_basename(a->files[fi]->path), pv_buf_cstr(&why));
        pv_buf_free(&why);
        pv_session_free(&s);
    }
    if (wrote)
        pv_session_prune(PV_SESSION_KEEP);
}

/* The file the Explorer's cursor is on (focused), else the Report's. */
size_t pv_app_session_target(const pv_app *a)
{
    size_t item = a->focus == PV_PANE_EXPLORER ? a->ex.cursor : a->loc.item;
    if (item >= a->item_count)
        item = a->loc.item;
    return item < a->item_count ? a->items[item].file : PV_NO_ROW;
}

void pv_app_session_command(pv_app *a, const char *arg)
{
    while (*arg == ' ')
        arg++;
    size_t fi = pv_app_session_target(a);
    if (fi == PV_NO_ROW || pv_app_file_is_pseudo(a, fi)) {
        pv_app_message(a, true, ":session is about an input file: show one of its views");
        return;
    }
    const char *base = pv_basename(a->files[fi]->path);
    pv_session_file *sf = pv_app_session_file(a, fi);
    if (!a->sess.on) {
        pv_app_message(a, true, "sessions are off (--no-session, or session: false in the config)");
        return;
    }
    char *real;
    uint64_t size;
    int64_t s, ns;
    if (!pv_session_identity(a->files[fi]->path, &real, &size, &s, &ns)) {
        pv_app_messagef(a, true, "%s is not a regular file: it has no session", base);
        return;
    }
    if (strcmp(arg, "reset") == 0) {
        bool ok = pv_session_remove(real);
        sf->forget = true;
        pv_session_free(sf->pending);
        free(sf->pending);
        sf->pending = NULL;
        pv_app_messagef(a, !ok,
                        ok ? "%s: session forgotten; nothing is saved at quit (:session save saves it)"
                           : "%s: the saved session could not be removed",
                        base);
    } else if (strcmp(arg, "save") == 0) {
        pv_session st;
        pv_app_session_capture(a, fi, &st);
        pv_buf why;
        pv_buf_init(&why);
        sf->forget = false;
        if (pv_session_write(&st, &why)) {
            pv_session_prune(PV_SESSION_KEEP);
            pv_app_messagef(a, false, "%s: session saved", base);
        }
        else
            pv_app_messagef(a, true, "%s: session not saved: %s", base, pv_buf_cstr(&why));
        pv_buf_free(&why);
        pv_session_free(&st);
    } else {
        char *dir = pv_session_dir();
        char *name = pv_session_name(real);
        pv_app_messagef(a, false, "%s: session %s/%s (%s); :session reset forgets it, :session save saves it now",
                        base, dir ? dir : "(none)", name, sf->forget ? "not saved at quit" : "saved at quit");
        free(dir);
        free(name);
    }
    free(real);
}

