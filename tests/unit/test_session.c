/* Unit tests for src/tui/session.c (docs/tui.md "Sessions"): the text of a
 * saved session, written and read back exactly (texts of any bytes), every
 * malformed or cut file refused with its line, the private directory
 * the sessions share with the index cache (src/core/cache.c), and the
 * pruning of the directory. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "profview/cache.h"
#include "profview/model.h"
#include "tui/session.h"

static void fill(pv_session *s)
{
    memset(s, 0, sizeof *s);
    s->path = pv_xstrdup("/data/run\twith tab.txt");
    s->size = 123456789012ULL;
    s->mtime_s = 1795911766;
    s->mtime_ns = 868226565;
    s->view_count = 2;
    s->views = pv_xcalloc(2, sizeof *s->views);
    pv_session_view *v = &s->views[0];
    v->set = 0;
    v->view = pv_xstrdup("timeline");
    v->row = 44;
    v->filter = pv_xstrdup("name = \"a\\b\" && note ~ \"x\ty\"\n\x01\x7f é");
    v->sort = pv_xstrdup("time:desc,name");
    v->columns = pv_xstrdup("index,time,name");
    v->current = true;
    v->pins = 2;
    v->pin[0] = 536870913;
    v->pin[1] = 7;
    v->zoomed = true;
    v->t0 = 2931;
    v->t1 = 3113;
    v = &s->views[1];
    v->set = 1;
    v->view = pv_xstrdup("call-trace");
    v->row = PV_NO_ROW;
    v->filter = pv_xstrdup("");
    v->sort = pv_xstrdup("");
    v->mark[1] = true;
    v->mark_row[1] = 12;
    s->mark_time[0] = true;
    s->mark_at[0] = -5;
    s->bookmark_count = 2;
    s->bookmarks = pv_xcalloc(2, sizeof *s->bookmarks);
    s->bookmarks[0] = (pv_bookmark){.set = 0, .view = pv_xstrdup("timeline"), .row = 44, .id = 45,
                                    .time = 5996, .note = pv_xstrdup("first\\one\r")};
    s->bookmarks[1] = (pv_bookmark){.set = 1, .view = pv_xstrdup("call-trace"), .row = 3, .id = 3,
                                    .time = -1, .note = pv_xstrdup("")};
}

/* Written and read back: the same record, the same text again. */
static void test_session_round_trip(void **state)
{
    (void)state;
    pv_session s, back;
    fill(&s);
    pv_buf text, again, why;
    pv_buf_init(&text);
    pv_buf_init(&again);
    pv_buf_init(&why);
    pv_session_format(&s, &text);
    assert_true(pv_session_parse(text.data, text.len, &back, &why));
    assert_string_equal(back.path, s.path);
    assert_true(back.size == s.size && back.mtime_s == s.mtime_s && back.mtime_ns == s.mtime_ns);
    assert_int_equal(back.view_count, 2);
    assert_string_equal(back.views[0].filter, s.views[0].filter);
    assert_string_equal(back.views[0].sort, "time:desc,name");
    assert_string_equal(back.views[0].columns, "index,time,name");
    assert_int_equal(back.views[0].row, 44);
    assert_true(back.views[0].current && back.views[0].zoomed && back.views[0].t1 == 3113);
    assert_int_equal(back.views[0].pins, 2);
    assert_true(back.views[0].pin[0] == 536870913 && back.views[0].pin[1] == 7);
    assert_true(back.views[1].row == PV_NO_ROW && !back.views[1].columns);
    assert_true(back.views[1].mark[1] && back.views[1].mark_row[1] == 12 && !back.views[1].mark[0]);
    assert_true(back.mark_time[0] && back.mark_at[0] == -5 && !back.mark_time[1]);
    assert_int_equal(back.bookmark_count, 2);
    assert_string_equal(back.bookmarks[0].note, "first\\one\r");
    assert_true(back.bookmarks[0].id == 45 && back.bookmarks[0].time == 5996);
    assert_true(back.bookmarks[1].time == -1 && back.bookmarks[1].note[0] == '\0');
    pv_session_format(&back, &again);
    assert_int_equal(again.len, text.len);
    assert_memory_equal(again.data, text.data, text.len);
    /* one record a line: no raw tab or newline of a text in a field */
    assert_null(strstr(text.data, "x\ty"));
    pv_session_free(&s);
    pv_session_free(&back);
    pv_buf_free(&text);
    pv_buf_free(&again);
    pv_buf_free(&why);
}

/* Anything that is not a whole session is refused, naming the line. */
static void test_session_refused(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"", "empty"},
        {"profview-session 2\ninput\tp\t1\t2\t3\nend\n", "line 1: not a profview session"},
        {"profview-session 1\ninput\tp\t1\t2\t3\n", "cut short (no end)"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nend", "line 3: cut short"},
        {"profview-session 1\nend\n", "no input line"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nview\t0\n", "line 3: an unknown or malformed"},
        {"profview-session 1\ninput\tp\tx\t2\t3\nend\n", "line 2: a bad number"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nview\t0\tv\t-\ta\\q\t\t0\nend\n", "line 3: a bad escape"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nview\t0\tv\t-\ta\x01\t\t0\nend\n", "line 3: a bad escape or control"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nend\nview\t0\tv\t-\t\t\t0\n", "line 4: text after its end"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nzoom\t0\tv\t9\t1\nend\n", "line 3: an unknown or malformed"},
        {"profview-session 1\ninput\tp\t1\t2\t3\nbookmark\t0\tv\t1\t1\t-2\tn\nend\n", "line 3:"},
        {"profview-session 1\ninput\tp\t1\t2\t3\ninput\tp\t1\t2\t3\nend\n", "line 3:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pv_session s;
        pv_buf why;
        pv_buf_init(&why);
        bool ok = pv_session_parse(bad[i].text, strlen(bad[i].text), &s, &why);
        if (ok || !strstr(pv_buf_cstr(&why), bad[i].why))
            fail_msg("case %zu: %s (wanted '%s')", i, ok ? "accepted" : pv_buf_cstr(&why),
                     bad[i].why);
        pv_buf_free(&why);
    }
}

/* The directory sessions and the cache live in: the user's own, not a
 * link, not writable by others (docs/cache.md "Trust"). */
static void test_private_dir(void **state)
{
    (void)state;
    char base[] = "/tmp/pv_session_test.XXXXXX";
    assert_non_null(mkdtemp(base));
    char dir[300], link[300], why[64];
    snprintf(dir, sizeof dir, "%s/a/b/profview", base);
    assert_true(pv_private_mkdir(dir));
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    int fd = pv_private_dir_open(dir, why, sizeof why);
    assert_true(fd >= 0);
    pv_buf tmp;
    pv_buf_init(&tmp);
    int t = pv_private_temp(fd, "x.session", &tmp);
    assert_true(t >= 0);
    assert_int_equal(strncmp(pv_buf_cstr(&tmp), "x.session.", 10), 0);
    close(t);
    unlinkat(fd, pv_buf_cstr(&tmp), 0);
    close(fd);
    chmod(dir, 0777);
    assert_int_equal(pv_private_dir_open(dir, why, sizeof why), -1);
    assert_non_null(strstr(why, "is writable by others (mode 0777)"));
    chmod(dir, 0700);
    snprintf(link, sizeof link, "%s/link", base);
    assert_int_equal(symlink(dir, link), 0);
    assert_int_equal(pv_private_dir_open(link, why, sizeof why), -1);
    assert_string_equal(why, "is a symbolic link");
    snprintf(link, sizeof link, "%s/none", base);
    assert_int_equal(pv_private_dir_open(link, why, sizeof why), -1);
    assert_string_equal(why, ""); /* missing: no message */
    pv_buf_free(&tmp);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    assert_int_equal(system(cmd), 0);
}

/* Where sessions live: XDG_STATE_HOME, else HOME, and never under CI=true
 * without XDG_STATE_HOME. */
static void test_session_dir(void **state)
{
    (void)state;
    setenv("XDG_STATE_HOME", "/x/state", 1);
    setenv("HOME", "/home/u", 1);
    setenv("CI", "true", 1);
    char *d = pv_session_dir();
    assert_string_equal(d, "/x/state/profview");
    free(d);
    unsetenv("XDG_STATE_HOME");
    assert_null(pv_session_dir());
    unsetenv("CI");
    d = pv_session_dir();
    assert_string_equal(d, "/home/u/.local/state/profview");
    free(d);
    unsetenv("HOME");
    assert_null(pv_session_dir());
}

/* A file of `text` at dir/name, written `age` seconds ago. */
static void put_file(const char *dir, const char *name, const char *text, time_t age)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    struct timespec t[2] = {{time(NULL) - age, 0}, {time(NULL) - age, 0}};
    assert_int_equal(utimensat(AT_FDCWD, path, t, 0), 0);
}

/* The session of input `input` in dir, written `age` seconds ago; its
 * file name (owned). */
static char *put_session(const char *dir, const char *input, time_t age)
{
    pv_session s;
    memset(&s, 0, sizeof s);
    s.path = pv_xstrdup(input);
    pv_buf text;
    pv_buf_init(&text);
    pv_session_format(&s, &text);
    char *name = pv_session_name(input);
    put_file(dir, name, pv_buf_cstr(&text), age);
    pv_buf_free(&text);
    pv_session_free(&s);
    return name;
}

static bool present(const char *dir, const char *name)
{
    char path[600];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return lstat(path, &st) == 0;
}

/* Pruning (docs/tui.md "Sessions"): the session of an input that no
 * longer exists goes, then past the bound the least recently written,
 * and a temporary file older than a day; nothing not named as a session
 * is touched (nor a session named for another input's path). */
static void test_session_prune(void **state)
{
    (void)state;
    char base[] = "/tmp/pv_session_prune.XXXXXX";
    assert_non_null(mkdtemp(base));
    char dir[300], in[6][320];
    snprintf(dir, sizeof dir, "%s/profview", base);
    assert_true(pv_private_mkdir(dir));
    setenv("XDG_STATE_HOME", base, 1);
    char *name[6];
    for (int i = 0; i < 6; i++) {
        snprintf(in[i], sizeof in[i], "%s/input%d.txt", base, i);
        put_file(base, strrchr(in[i], '/') + 1, "x", 0);
        name[i] = put_session(dir, in[i], 100 * (6 - i)); /* input5 the newest */
    }
    assert_int_equal(unlink(in[1]), 0); /* its input is gone */
    /* not sessions: never touched, whatever their age */
    const char *foreign[] = {"notes.txt", "0123.session", "0123456789ABCDEF0123456789ABCDEF.session",
                             "0123456789abcdef0123456789abcdef.session.bak",
                             "0123456789abcdef0123456789abcdef.sessionx"};
    for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++)
        put_file(dir, foreign[i], "profview-session 1\ninput\t/nowhere\t0\t0\t0\nend\n", 10 * 86400);
    /* a session file whose name is not its input's: kept */
    char *other = put_session(dir, "/nowhere/at/all", 0);
    char renamed[600], from[600];
    snprintf(from, sizeof from, "%s/%s", dir, other);
    snprintf(renamed, sizeof renamed, "%s/ffffffffffffffffffffffffffffffff.session", dir);
    assert_int_equal(rename(from, renamed), 0);
    /* temporary files of writes: one of a crash two days ago, one now */
    char old_tmp[80], new_tmp[80];
    snprintf(old_tmp, sizeof old_tmp, "%s.0a0b0c", name[0]);
    snprintf(new_tmp, sizeof new_tmp, "%s.0d0e0f", name[0]);
    put_file(dir, old_tmp, "", 2 * 86400);
    put_file(dir, new_tmp, "", 0);

    assert_int_equal(pv_session_prune(PV_SESSION_KEEP), 2); /* input1's, the old temporary */
    assert_false(present(dir, name[1]));
    assert_false(present(dir, old_tmp));
    assert_true(present(dir, new_tmp));
    for (int i = 0; i < 6; i++)
        if (i != 1)
            assert_true(present(dir, name[i]));
    for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++)
        assert_true(present(dir, foreign[i]));
    assert_true(present(dir, "ffffffffffffffffffffffffffffffff.session"));

    /* the bound: 6 sessions left (5 inputs and the misnamed one), keep the
     * 3 written last: input5, input4 and the misnamed (written now) */
    assert_int_equal(pv_session_prune(3), 3);
    assert_true(present(dir, name[5]));
    assert_true(present(dir, name[4]));
    assert_true(present(dir, "ffffffffffffffffffffffffffffffff.session"));
    assert_false(present(dir, name[0]));
    assert_false(present(dir, name[2]));
    assert_false(present(dir, name[3]));
    for (size_t i = 0; i < sizeof foreign / sizeof *foreign; i++)
        assert_true(present(dir, foreign[i]));
    assert_true(present(dir, new_tmp));

    for (int i = 0; i < 6; i++)
        free(name[i]);
    free(other);
    unsetenv("XDG_STATE_HOME");
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_session_round_trip),
        cmocka_unit_test(test_session_refused),
        cmocka_unit_test(test_private_dir),
        cmocka_unit_test(test_session_dir),
        cmocka_unit_test(test_session_prune),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
