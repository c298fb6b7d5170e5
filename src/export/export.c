/*
 * export.c - the generic part of every export (docs/export.md): output
 * files written beside their target and renamed into place, refusal to
 * overwrite, protection of the inputs, cleanup on error or cancel, and the
 * dispatch between the format's own hook and the generic SQLite writer.
 */
#include "profview/export.h"
#include "profview/hooks.h"
#include "profview/query.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sqlite3.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const pv_export_format_names[] = {"text1", "bin", "sqlite", "trace-json"};

bool pv_export_format_parse(const char *name, pv_export_format *out)
{
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_export_format_names); i++)
        if (strcasecmp(name, pv_export_format_names[i]) == 0) {
            *out = (pv_export_format)i;
            return true;
        }
    return false;
}

const char *pv_export_format_name(pv_export_format f)
{
    return (size_t)f < PV_ARRAY_LEN(pv_export_format_names) ? pv_export_format_names[f] : "?";
}

void pv_export_request_init(pv_export_request *r)
{
    memset(r, 0, sizeof *r);
    r->instance = -1;
}

bool pv_export_request_restricted(const pv_export_request *r)
{
    return r->view_id || r->filter || r->rows || r->context || r->areas || r->has_from ||
           r->has_to;
}

bool pv_export_glob_match(const char *pattern, const char *s, size_t len)
{
    /* Iterative with one backtrack point: linear in practice, never recursive. */
    size_t p = 0, i = 0, star_p = SIZE_MAX, star_i = 0;
    size_t plen = strlen(pattern);
    while (i < len) {
        if (p < plen && (pattern[p] == '?' || pattern[p] == s[i])) {
            p++;
            i++;
        } else if (p < plen && pattern[p] == '*') {
            star_p = p++;
            star_i = i;
        } else if (star_p != SIZE_MAX) {
            p = star_p + 1;
            i = ++star_i;
        } else {
            return false;
        }
    }
    while (p < plen && pattern[p] == '*')
        p++;
    return p == plen;
}

/* The rows of `v` to export: every row, or the request's selection. */
void pv_export_dispose(const pv_export_request *r, void *p, size_t bytes)
{
    if (r->trash)
        pv_trash_add(r->trash, p, bytes);
    else
        free(p);
}

size_t pv_export_selection_room(const pv_view *v, const pv_export_request *r, bool selected_view)
{
    size_t n = selected_view && r->rows ? r->row_count : pv_view_rows(v);
    return n ? n : 1;
}

/* Rows between two progress reports while selecting: about a millisecond
 * (a viewer draws a frame at a report: docs/tui.md "Long operations"). */
#define PV_EXPORT_PIECE ((size_t)1 << 16)

/* pv_filter_rows over the selection rows[0 .. *count), in place, in pieces
 * with a progress report between them; false when cancelled. */
static bool pv_export_filter_pieces(const pv_filter *f, const pv_view *v, pv_row *rows,
                                    size_t *count, const pv_progress *p)
{
    size_t n = *count, kept = 0;
    if (!pv_view_is_tree(v)) {
        for (size_t at = 0; at < n; at += PV_EXPORT_PIECE) {
            if (!pv_progress_step(p, "selecting rows", at, n))
                return false;
            size_t k = n - at < PV_EXPORT_PIECE ? n - at : PV_EXPORT_PIECE;
            /* out (rows + kept) never passes in (rows + at): in place */
            kept += pv_filter_rows(f, v, rows + at, k, rows + kept, NULL);
        }
        *count = kept;
        return true;
    }
    /* a tree keeps the matching rows and their ancestors (as pv_filter_rows) */
    size_t total = pv_view_rows(v);
    uint8_t *keep = pv_xcalloc(total ? total : 1, 1);
    for (size_t i = 0; i < n; i++) {
        if (i % PV_EXPORT_PIECE == 0 && !pv_progress_step(p, "selecting rows", i, n)) {
            free(keep);
            return false;
        }
        if (rows[i] < total)
            pv_filter_mark_tree(f, v, rows[i], (size_t)rows[i] + 1, keep);
    }
    for (size_t i = 0; i < n; i++)
        if (rows[i] < total && keep[rows[i]])
            rows[kept++] = rows[i];
    free(keep);
    *count = kept;
    return true;
}

/* The text of a cell equals `want` (--context: a context or thread name). */
static bool pv_export_same_text(const char *want, const char *text, size_t len)
{
    return strlen(want) == len && memcmp(want, text, len) == 0;
}

/* Keeps, in order, the rows whose cell in column `col`, as text, satisfies
 * match(arg, text); false when the progress asks to stop. */
static bool pv_export_keep_rows(const pv_view *v, pv_row *rows, size_t *count, size_t col,
                                bool (*match)(const char *, const char *, size_t),
                                const char *arg, const pv_progress *p)
{
    pv_buf text;
    pv_buf_init(&text);
    size_t kept = 0, n = *count;
    for (size_t i = 0; i < n; i++) {
        if (i % PV_EXPORT_PIECE == 0 && !pv_progress_step(p, "selecting rows", i, n)) {
            pv_buf_free(&text);
            return false;
        }
        pv_cell c;
        pv_view_cell(v, rows[i], col, &c);
        pv_buf_clear(&text);
        pv_cell_format_exact(&c, &text);
        if (match(arg, text.data ? text.data : "", text.len))
            rows[kept++] = rows[i];
    }
    pv_buf_free(&text);
    *count = kept;
    return true;
}

pv_row *pv_export_select_rows(const pv_view *v, const pv_export_request *r, bool selected_view,
                              size_t *n, pv_diag *err, bool *ok)
{
    *ok = true;
    size_t total = pv_view_rows(v);
    bool given = selected_view && r->rows; /* the viewer's rows, the rest on top */
    bool context = r->context && (pv_view_column(v, "context") != PV_NO_ROW ||
                                  pv_view_column(v, "thread") != PV_NO_ROW);
    /* --areas over a view (the generic writer): rows whose name matches */
    size_t name_col = selected_view && r->areas ? pv_view_column(v, "name") : PV_NO_ROW;
    if (selected_view && r->areas && name_col == PV_NO_ROW) {
        pv_error(err, "--areas keeps rows by their name, and view '%s' has no name column",
                 v->id);
        *ok = false;
        return NULL;
    }
    if (!given && !(selected_view && r->filter) && !context && name_col == PV_NO_ROW) {
        *n = total;
        return NULL; /* every row, in view order */
    }
    const pv_progress *p = &r->progress;
    size_t room = pv_export_selection_room(v, r, selected_view);
    pv_row *rows = pv_xmalloc(room * sizeof *rows);
    size_t count = total;
    if (given) {
        memcpy(rows, r->rows, r->row_count * sizeof *rows);
        count = r->row_count;
    } else {
        for (size_t i = 0; i < total; i++) {
            if (i % PV_EXPORT_PIECE == 0 && !pv_progress_step(p, "selecting rows", 0, total)) {
                pv_export_dispose(r, rows, room * sizeof *rows);
                *ok = false;
                return NULL;
            }
            rows[i] = (pv_row)i;
        }
    }
    if (context) {
        size_t col = pv_view_column(v, "context");
        if (col == PV_NO_ROW)
            col = pv_view_column(v, "thread");
        if (!pv_export_keep_rows(v, rows, &count, col, pv_export_same_text, r->context, p)) {
            pv_export_dispose(r, rows, room * sizeof *rows);
            *ok = false;
            return NULL;
        }
    }
    if (name_col != PV_NO_ROW &&
        !pv_export_keep_rows(v, rows, &count, name_col, pv_export_glob_match, r->areas, p)) {
        pv_export_dispose(r, rows, room * sizeof *rows);
        *ok = false;
        return NULL;
    }
    if (selected_view && r->filter) {
        pv_query_error qe;
        pv_filter *f = pv_filter_compile(v, r->filter, &qe);
        if (!f && qe.message[0]) {
            pv_buf msg;
            pv_buf_init(&msg);
            pv_query_error_render(&qe, r->filter, &msg);
            pv_error(err, "bad filter:\n%s", pv_buf_cstr(&msg));
            pv_buf_free(&msg);
            pv_export_dispose(r, rows, room * sizeof *rows);
            *ok = false;
            return NULL;
        }
        if (f) {
            bool done = pv_export_filter_pieces(f, v, rows, &count, p);
            pv_filter_free(f);
            if (!done) {
                pv_export_dispose(r, rows, room * sizeof *rows);
                *ok = false;
                return NULL;
            }
        }
    }
    *n = count;
    return rows;
}

/* ---- the target: temporary files renamed into place
 *
 * Nothing another user can do to a shared directory redirects a write
 * (docs/export.md "Safety"): each temporary file is created with
 * O_CREAT|O_EXCL|O_NOFOLLOW relative to a descriptor of the target's
 * directory opened once, written only through the descriptor that created
 * it (SQLite too: its unix VFS's open() is given a duplicate of it, below),
 * checked to still be that file, fsynced, renamed with renameat on the same
 * directory descriptor, and the directory fsynced. */

#define PV_EXPORT_TEMP_TAG ".profview-tmp-"
#define PV_EXPORT_STALE_SECONDS (24 * 3600)

typedef struct pv_export_output {
    char *final_path;  /* as given (messages) */
    char *final_base;  /* its name in the directory */
    char *temp_base;   /* the temporary file's name in the directory */
    char *temp_path;   /* its full path (the directory's canonical one), NULL once renamed */
    int dirfd;         /* the directory, opened once (shared by outputs of one directory) */
    int fd;            /* the temporary file, from its creation to the rename */
} pv_export_output;

struct pv_export_target {
    char *main_path;
    bool force;
    mode_t mode;
    const pv_export_request *request;
    pv_export_output *outputs;
    size_t output_count, output_cap;
    struct {
        dev_t dev;
        ino_t ino;
    } inputs[8];
    size_t input_count;
    bool cancelled; /* the commit found the request cancelled: nothing renamed */
};

/* The temporary files open now, by full path: what SQLite's open() of one
 * of them gets instead of a new open by name. */
static pthread_mutex_t pv_export_open_lock = PTHREAD_MUTEX_INITIALIZER;
typedef struct pv_export_open_file {
    const char *path;
    int fd;
} pv_export_open_file;
static pv_export_open_file pv_export_open_files[32];
static sqlite3_syscall_ptr pv_export_real_open;
static pthread_once_t pv_export_open_once = PTHREAD_ONCE_INIT;

/* A duplicate (>= 3, close-on-exec) of the descriptor of the temporary file
 * at `path`, or -1 when it is none of ours. */
static int pv_export_open_dup(const char *path)
{
    int fd = -1;
    pthread_mutex_lock(&pv_export_open_lock);
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_export_open_files); i++)
        if (pv_export_open_files[i].path && strcmp(pv_export_open_files[i].path, path) == 0) {
            fd = fcntl(pv_export_open_files[i].fd, F_DUPFD_CLOEXEC, 3);
            if (fd < 0)
                fd = -2;
            break;
        }
    pthread_mutex_unlock(&pv_export_open_lock);
    return fd;
}

static int pv_export_sqlite_open(const char *path, int flags, int mode)
{
    int fd = pv_export_open_dup(path);
    if (fd >= 0 || fd == -2)
        return fd >= 0 ? fd : -1;
    return ((int (*)(const char *, int, int))pv_export_real_open)(path, flags, mode);
}

static void pv_export_open_install(void)
{
    sqlite3_vfs *vfs = sqlite3_vfs_find("unix");
    if (!vfs || vfs->iVersion < 3 || !vfs->xGetSystemCall || !vfs->xSetSystemCall)
        return;
    pv_export_real_open = vfs->xGetSystemCall(vfs, "open");
    if (pv_export_real_open)
        vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)pv_export_sqlite_open);
}

static bool pv_export_open_register(const char *path, int fd)
{
    pthread_once(&pv_export_open_once, pv_export_open_install);
    bool ok = false;
    pthread_mutex_lock(&pv_export_open_lock);
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_export_open_files) && !ok; i++)
        if (!pv_export_open_files[i].path) {
            pv_export_open_files[i].path = path;
            pv_export_open_files[i].fd = fd;
            ok = true;
        }
    pthread_mutex_unlock(&pv_export_open_lock);
    return ok;
}

static void pv_export_open_unregister(const char *path)
{
    pthread_mutex_lock(&pv_export_open_lock);
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_export_open_files); i++)
        if (pv_export_open_files[i].path == path)
            pv_export_open_files[i].path = NULL;
    pthread_mutex_unlock(&pv_export_open_lock);
}

static bool pv_export_is_temp_name(const char *name)
{
    size_t len = strlen(name), tag = strlen(PV_EXPORT_TEMP_TAG);
    return name[0] == '.' && len > tag + 6 + 1 &&
           strncmp(name + len - 6 - tag, PV_EXPORT_TEMP_TAG, tag) == 0;
}

/* Removes this user's temporary files of ours older than a day from the
 * directory (an export killed with SIGKILL left them). */
static void pv_export_remove_stale(int dirfd)
{
    int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return;
    DIR *dir = fdopendir(fd);
    if (!dir) {
        close(fd);
        return;
    }
    time_t now = time(NULL);
    uid_t me = geteuid();
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (!pv_export_is_temp_name(e->d_name))
            continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_uid == me && st.st_mtime + PV_EXPORT_STALE_SECONDS < now)
            unlinkat(dirfd, e->d_name, 0);
    }
    closedir(dir);
}

/* The canonical path of an open directory (the kernel's name for it), so
 * that a path handed to SQLite has no symbolic link in it. */
static char *pv_export_dir_path(int dirfd, const char *given)
{
    char link[64], buf[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", dirfd);
    ssize_t n = readlink(link, buf, sizeof buf - 1);
    if (n > 0 && buf[0] == '/') {
        buf[n] = '\0';
        return pv_xstrdup(buf);
    }
    char *real = realpath(given, NULL);
    return real ? real : pv_xstrdup(given);
}

void pv_export_target_protect(pv_export_target *t, const char *path)
{
    struct stat st;
    if (!path || stat(path, &st) != 0 || t->input_count == PV_ARRAY_LEN(t->inputs))
        return;
    t->inputs[t->input_count].dev = st.st_dev;
    t->inputs[t->input_count].ino = st.st_ino;
    t->input_count++;
}

const char *pv_export_target_path(const pv_export_target *t)
{
    return t->main_path;
}

/* Checks an existing final name before writing and again before the
 * rename: never an input, never a directory, device, FIFO or socket (not
 * even with force: a rename would replace the node itself), and only with
 * force a regular file.  A symbolic link is judged by what it names, and
 * the rename replaces the link, never what it names. */
static bool pv_export_check_final(const pv_export_target *t, const pv_export_output *o,
                                  bool again, pv_diag *err)
{
    struct stat st;
    if (fstatat(o->dirfd, o->final_base, &st, 0) != 0) {
        struct stat lst;
        if (fstatat(o->dirfd, o->final_base, &lst, AT_SYMLINK_NOFOLLOW) == 0 && !t->force) {
            pv_error(err, "%s: exists; not replaced (use --force to replace it)", o->final_path);
            return false;
        }
        return true;
    }
    for (size_t i = 0; i < t->input_count; i++)
        if (t->inputs[i].dev == st.st_dev && t->inputs[i].ino == st.st_ino) {
            pv_error(err, "%s: is a file this export reads; refusing to write it",
                     o->final_path);
            return false;
        }
    if (S_ISDIR(st.st_mode)) {
        pv_error(err, "%s: is a directory", o->final_path);
        return false;
    }
    if (!S_ISREG(st.st_mode)) {
        pv_error(err, "%s: is not a regular file (a device, FIFO or socket); not replaced, "
                      "even with --force",
                 o->final_path);
        return false;
    }
    if (!t->force) {
        if (again)
            pv_error(err, "%s: appeared while exporting; not replaced", o->final_path);
        else
            pv_error(err, "%s: exists; not replaced (use --force to replace it)", o->final_path);
        return false;
    }
    return true;
}

static void pv_export_output_free(pv_export_output *o, bool last_of_dir)
{
    if (o->fd >= 0)
        close(o->fd);
    if (last_of_dir && o->dirfd >= 0)
        close(o->dirfd);
    free(o->final_path);
    free(o->final_base);
    free(o->temp_base);
    free(o->temp_path);
}

bool pv_export_target_add(pv_export_target *t, const char *final_path, const char **temp,
                          pv_diag *err)
{
    for (size_t i = 0; i < t->output_count; i++)
        if (strcmp(t->outputs[i].final_path, final_path) == 0) {
            pv_error(err, "%s: named twice as an output", final_path);
            return false;
        }
    pv_export_output o = {.fd = -1, .dirfd = -1};
    o.final_path = pv_xstrdup(final_path);
    /* The temporary file lives in the target's directory, so that the
     * final rename is atomic and a full disk shows up before it. */
    const char *slash = strrchr(final_path, '/');
    size_t dir_len = slash ? (size_t)(slash - final_path) + 1 : 0;
    o.final_base = pv_xstrdup(final_path + dir_len);
    char *dir = dir_len ? pv_xstrndup(final_path, dir_len) : pv_xstrdup(".");
    bool shared_dir = false;
    for (size_t i = 0; i < t->output_count && o.dirfd < 0; i++) {
        struct stat a, b;
        const pv_export_output *p = &t->outputs[i];
        size_t plen = strlen(p->final_path) - strlen(p->final_base);
        if (plen == dir_len && strncmp(p->final_path, final_path, dir_len) == 0 &&
            fstat(p->dirfd, &a) == 0 && stat(dir, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            o.dirfd = p->dirfd;
            shared_dir = true;
        }
    }
    if (o.dirfd < 0)
        o.dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (o.dirfd < 0 || !*o.final_base) {
        int e = o.dirfd < 0 ? errno : EISDIR;
        pv_error(err, "%s: cannot create a file in its directory: %s", final_path, strerror(e));
        free(dir);
        pv_export_output_free(&o, true);
        return false;
    }
    if (!pv_export_check_final(t, &o, false, err)) {
        free(dir);
        pv_export_output_free(&o, !shared_dir);
        return false;
    }
    if (!shared_dir)
        pv_export_remove_stale(o.dirfd);
    /* ".OUT.profview-tmp-XXXXXX": a name that says whose it is */
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static atomic_uint counter;
    pv_buf name;
    pv_buf_init(&name);
    int e = EEXIST;
    for (int attempt = 0; attempt < 100 && o.fd < 0 && e == EEXIST; attempt++) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t x = (uint64_t)now.tv_nsec * 0x9E3779B97F4A7C15ull ^
                     ((uint64_t)getpid() << 32) ^ atomic_fetch_add(&counter, 1) * 0xBF58476D1CE4E5B9ull;
        pv_buf_clear(&name);
        pv_buf_printf(&name, ".%s%s", o.final_base, PV_EXPORT_TEMP_TAG);
        for (int k = 0; k < 6; k++) {
            pv_buf_append(&name, &letters[x % 62], 1);
            x /= 62;
        }
        o.fd = openat(o.dirfd, pv_buf_cstr(&name),
                      O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        e = errno;
    }
    if (o.fd < 0) {
        pv_error(err, "%s: cannot create a file in its directory: %s", final_path, strerror(e));
        pv_buf_free(&name);
        free(dir);
        pv_export_output_free(&o, !shared_dir);
        return false;
    }
    (void)fchmod(o.fd, t->mode);
    o.temp_base = pv_xstrdup(pv_buf_cstr(&name));
    char *canon = pv_export_dir_path(o.dirfd, dir);
    pv_buf_clear(&name);
    pv_buf_printf(&name, "%s%s%s", canon, canon[strlen(canon) - 1] == '/' ? "" : "/",
                  o.temp_base);
    o.temp_path = pv_xstrdup(pv_buf_cstr(&name));
    free(canon);
    pv_buf_free(&name);
    free(dir);
    if (!pv_export_open_register(o.temp_path, o.fd)) {
        pv_error(err, "%s: too many files open for export", final_path);
        unlinkat(o.dirfd, o.temp_base, 0);
        pv_export_output_free(&o, !shared_dir);
        return false;
    }
    t->outputs = pv_xgrow(t->outputs, &t->output_cap, t->output_count + 1, sizeof *t->outputs);
    t->outputs[t->output_count++] = o;
    *temp = o.temp_path;
    if (t->request && t->request->after_create)
        t->request->after_create(o.temp_path, t->request->after_create_arg);
    return true;
}

static void *pv_export_close_main(void *arg)
{
    close((int)(intptr_t)arg);
    return NULL;
}

/* Removes a temporary file without waiting for its blocks to be freed:
 * with its descriptor still open the unlink only drops the name, and the
 * last close, which frees the blocks (a stopped export of gigabytes:
 * hundreds of ms in the kernel), runs on a helper thread (docs/export.md
 * "In the viewer").  The name is removed only while it is still the file
 * we created. */
static void pv_export_output_unlink(pv_export_output *o)
{
    struct stat a, b;
    if (o->fd >= 0 && fstat(o->fd, &a) == 0 &&
        fstatat(o->dirfd, o->temp_base, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
        a.st_ino == b.st_ino)
        unlinkat(o->dirfd, o->temp_base, 0);
    if (o->fd < 0)
        return;
    pthread_t th;
    if (pthread_create(&th, NULL, pv_export_close_main, (void *)(intptr_t)o->fd) == 0)
        pthread_detach(th);
    else
        close(o->fd);
    o->fd = -1;
}

static void pv_export_target_abort(pv_export_target *t)
{
    for (size_t i = 0; i < t->output_count; i++)
        if (t->outputs[i].temp_path) {
            pv_export_open_unregister(t->outputs[i].temp_path);
            pv_export_output_unlink(&t->outputs[i]);
        }
}

static int pv_export_fsync(int fd, const pv_progress *p, const char *what, uint64_t done,
                           uint64_t total);

/* fsyncs every temporary file, checks that its name is still that file,
 * renames them into place, the main output last (so that a reader that
 * finds OUT also finds OUT.BIN), and fsyncs their directories. */
static bool pv_export_target_commit(pv_export_target *t, pv_diag *err)
{
    const pv_progress *p = t->request ? &t->request->progress : NULL;
    for (size_t k = 0; k < t->output_count; k++) {
        pv_export_output *o = &t->outputs[k];
        pv_export_open_unregister(o->temp_path);
        if (pv_export_fsync(o->fd, p, "writing to disk", 1, 1) != 0 && errno != EINVAL &&
            errno != EROFS) {
            pv_error(err, "%s: cannot write to disk: %s", o->final_path, strerror(errno));
            pv_export_target_abort(t);
            return false;
        }
        struct stat a, b;
        if (fstat(o->fd, &a) != 0 ||
            fstatat(o->dirfd, o->temp_base, &b, AT_SYMLINK_NOFOLLOW) != 0 ||
            a.st_dev != b.st_dev || a.st_ino != b.st_ino) {
            pv_error(err, "%s: its temporary file %s was removed or replaced while exporting; "
                          "not renamed into place",
                     o->final_path, o->temp_base);
            pv_export_target_abort(t);
            return false;
        }
    }
    /* A cancel that came while they were written to disk (the progress
     * above reports it, a viewer reads keys then): nothing is renamed
     * into place, so a cancel at any point leaves no file
     * (docs/export.md). */
    if (p && p->cancel && atomic_load(p->cancel)) {
        t->cancelled = true;
        pv_export_target_abort(t);
        return false;
    }
    for (size_t k = t->output_count; k-- > 0;) {
        pv_export_output *o = &t->outputs[k];
        if (!pv_export_check_final(t, o, true, err)) {
            pv_export_target_abort(t);
            return false;
        }
        if (renameat(o->dirfd, o->temp_base, o->dirfd, o->final_base) != 0) {
            pv_error(err, "%s: cannot rename the finished export into place: %s",
                     o->final_path, strerror(errno));
            pv_export_target_abort(t);
            return false;
        }
        free(o->temp_path);
        o->temp_path = NULL;
    }
    for (size_t k = 0; k < t->output_count; k++) {
        bool first_of_dir = true;
        for (size_t j = 0; j < k; j++)
            first_of_dir = first_of_dir && t->outputs[j].dirfd != t->outputs[k].dirfd;
        if (first_of_dir && fsync(t->outputs[k].dirfd) != 0 && errno != EINVAL &&
            errno != EROFS) {
            pv_error(err, "%s: renamed into place, but its directory could not be written to "
                          "disk: %s",
                     t->outputs[k].final_path, strerror(errno));
            return false;
        }
    }
    return true;
}

static void pv_export_target_free(pv_export_target *t)
{
    for (size_t i = 0; i < t->output_count; i++) {
        bool last_of_dir = true;
        for (size_t j = i + 1; j < t->output_count; j++)
            last_of_dir = last_of_dir && t->outputs[j].dirfd != t->outputs[i].dirfd;
        if (t->outputs[i].temp_path)
            pv_export_open_unregister(t->outputs[i].temp_path);
        pv_export_output_free(&t->outputs[i], last_of_dir);
    }
    free(t->outputs);
}

/* ---- the buffered writer */

#define PV_EXPORT_BUF (1u << 20)

bool pv_export_writer_open(pv_export_writer *w, const char *temp_path, pv_diag *err)
{
    memset(w, 0, sizeof *w);
    w->path = temp_path;
    /* never a new open by name: the descriptor the target created */
    w->fd = pv_export_open_dup(temp_path);
    if (w->fd < 0) {
        pv_error(err, "%s: is not a temporary file of this export", temp_path);
        return false;
    }
    w->cap = PV_EXPORT_BUF;
    w->buf = pv_xmalloc(w->cap);
    return true;
}

static void pv_export_writer_raw(pv_export_writer *w, const char *data, size_t len);

static void pv_export_writer_flush(pv_export_writer *w)
{
    pv_export_writer_raw(w, w->buf, w->len);
    w->len = 0;
}

/* write(2) of data[0..len), to the end or the first error. */
static void pv_export_writer_raw(pv_export_writer *w, const char *data, size_t len)
{
    size_t off = 0;
    while (off < len && !w->error) {
        ssize_t n = write(w->fd, data + off, len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            w->error = errno;
        } else if (n == 0) {
            w->error = ENOSPC;
        } else {
            off += (size_t)n;
            w->written += (uint64_t)n;
        }
    }
}

void pv_export_writer_write(pv_export_writer *w, const void *data, size_t len)
{
    const char *p = data;
    if (len >= w->cap) {
        /* a large block (BIN records copied as they are): no copy through
         * the buffer, straight from where it is (a mapped file) */
        pv_export_writer_flush(w);
        pv_export_writer_raw(w, p, len);
        return;
    }
    while (len > 0) {
        if (w->len == w->cap)
            pv_export_writer_flush(w);
        size_t n = w->cap - w->len < len ? w->cap - w->len : len;
        memcpy(w->buf + w->len, p, n);
        w->len += n;
        p += n;
        len -= n;
    }
}

char *pv_export_writer_reserve(pv_export_writer *w, size_t len)
{
    if (w->cap - w->len < len)
        pv_export_writer_flush(w);
    return w->buf + w->len;
}

/* fsync on a helper thread (pv_export_writer.progress). */
typedef struct pv_export_sync {
    int fd, rc, err;
    atomic_bool done;
} pv_export_sync;

static void *pv_export_sync_main(void *arg)
{
    pv_export_sync *s = arg;
    s->rc = fsync(s->fd);
    s->err = errno;
    atomic_store(&s->done, true);
    return NULL;
}

/* fsync(fd), reporting to `p` every millisecond meanwhile when given: the
 * data is written already, so a cancel is not asked for here (a report
 * after one draws nothing; the wait is the disk's). */
static int pv_export_fsync(int fd, const pv_progress *p, const char *what, uint64_t done,
                           uint64_t total)
{
    if (p && p->report) {
        pv_export_sync s = {.fd = fd};
        atomic_init(&s.done, false);
        pthread_t th;
        if (pthread_create(&th, NULL, pv_export_sync_main, &s) == 0) {
            while (!atomic_load(&s.done)) {
                struct timespec nap = {0, 1000000};
                nanosleep(&nap, NULL);
                pv_progress_step(p, what, done, total);
            }
            pthread_join(th, NULL);
            errno = s.err;
            return s.rc;
        }
    }
    return fsync(fd);
}

bool pv_export_writer_close(pv_export_writer *w, const char *final_name, pv_diag *err)
{
    pv_export_writer_flush(w);
    if (!w->error &&
        pv_export_fsync(w->fd, w->progress, w->what ? w->what : "exporting", w->done,
                        w->total) != 0 &&
        errno != EINVAL && errno != EROFS)
        w->error = errno;
    if (close(w->fd) != 0 && !w->error)
        w->error = errno;
    w->fd = -1;
    free(w->buf);
    w->buf = NULL;
    if (w->error) {
        pv_error(err, "%s: write failed after %" PRIu64 " bytes: %s", final_name, w->written,
                 strerror(w->error));
        return false;
    }
    return true;
}

void pv_export_writer_discard(pv_export_writer *w)
{
    if (w->fd >= 0)
        close(w->fd);
    w->fd = -1;
    free(w->buf);
    w->buf = NULL;
}

/* ---- running an export */

static const char *pv_export_fit_message(const pv_file *f)
{
    (void)f;
    return "Text1 and BIN hold winIDEA timelines; use --format sqlite (or trace-json for a call "
           "trace) for this file";
}

/* The files beside `path` that a format pairs with it (docs/export.md
 * "Safety"): PATH.BIN (or .bin), and PATH without its .BIN. */
static void pv_export_protect_partners(pv_export_target *t, const char *path)
{
    size_t len = strlen(path);
    pv_buf p;
    pv_buf_init(&p);
    static const char *const ext[] = {".BIN", ".bin"};
    for (size_t k = 0; k < PV_ARRAY_LEN(ext); k++) {
        pv_buf_clear(&p);
        pv_buf_printf(&p, "%s%s", path, ext[k]);
        pv_export_target_protect(t, pv_buf_cstr(&p));
    }
    if (len > 4 && strcasecmp(path + len - 4, ".bin") == 0) {
        pv_buf_clear(&p);
        pv_buf_append(&p, path, len - 4);
        pv_export_target_protect(t, pv_buf_cstr(&p));
    }
    pv_buf_free(&p);
}

pv_export_status pv_export_file(const pv_file *f, const pv_export_request *r, const char *out,
                                bool force, pv_diag *err)
{
    pv_export_target t;
    memset(&t, 0, sizeof t);
    t.force = force;
    t.request = r;
    mode_t mask = umask(0);
    umask(mask);
    t.mode = 0666 & ~mask;
    pv_export_target_protect(&t, f->path);
    if (!out || !*out) {
        pv_error(err, "no output file given (-o OUT)");
        return PV_EXPORT_USAGE;
    }
    /* A file larger than RLIMIT_FSIZE must fail the write (EFBIG), not kill
     * the process before it can clean up. */
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &ign, &old);

    /* A viewer may still be indexing the file in steps: the export reads
     * every row, so the index is finished first. */
    while (!pv_file_index_step((pv_file *)f, (size_t)1 << 22)) {
    }
    /* The hook and the generic writer add their outputs to the target; the
     * main one is `out` (pv_export_target_path). */
    t.main_path = pv_xstrdup(out);
    pv_export_status st = PV_EXPORT_UNSUPPORTED;
    pv_export_hook own = pv_export_format_hook(f);
    if (r->format == PV_EXPORT_TRACE_JSON) {
        /* written from the views by this layer; a partner the format reads
         * beside the input (a Text1's OUT.BIN, a BIN's mapping) is never
         * the target either */
        pv_export_protect_partners(&t, f->path);
        st = pv_export_trace_json(f, r, &t, err);
    } else if (own) {
        st = (pv_export_status)own(f, r, &t, err);
    }
    if (st == PV_EXPORT_UNSUPPORTED) {
        if (r->format == PV_EXPORT_SQLITE) {
            st = pv_export_sqlite_views(f, r, &t, err);
        } else {
            pv_error(err, "%s: is %s: %s", f->path, f->format ? f->format : "not a timeline",
                     pv_export_fit_message(f));
            st = PV_EXPORT_USAGE;
        }
    }
    if (st == PV_EXPORT_OK && !pv_export_target_commit(&t, err))
        st = t.cancelled ? PV_EXPORT_CANCELLED : PV_EXPORT_FAILED;
    if (st != PV_EXPORT_OK) {
        pv_export_target_abort(&t);
        if (st == PV_EXPORT_CANCELLED)
            pv_error(err, "%s: export cancelled; nothing written", out);
    }
    pv_export_target_free(&t);
    free(t.main_path);
    sigaction(SIGXFSZ, &old, NULL);
    return st;
}
