/* term.c - the only file that talks to curses: terminal setup and restore,
 * colours from the theme, painting the grid, reading keys and the mouse;
 * and the scripted-keys mode, which needs no terminal at all. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <termios.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <wchar.h>
#include <limits.h>
#include <time.h>
#include <unistd.h>

#include "profview/tui.h"
#include "tui/app.h"
#include "tui/commands.h"
#include "tui/config.h"
#include "tui/keymap.h"
#include "tui/keyscript.h"
#include "tui/session.h"
#include "tui/yamlfile.h"

/* Last: term.h defines macros (columns, lines...) that clash with our names. */
#include <term.h>

static volatile sig_atomic_t pv_term_active;
/* A signal that asks profview to end (SIGINT, SIGTERM, SIGHUP, SIGQUIT):
 * its handler only sets this; the main loop sees it between two steps of
 * the running job, leaves (the job is stopped as the viewer ends), restores the terminal with endwin and dies of it. */
static volatile sig_atomic_t pv_term_pending;

/* What endwin does, the async-signal-safe part of it (for a crash signal,
 * a second signal while the loop does not answer, and out of memory on
 * any thread): the terminal modes saved before curses changed them, and
 * the terminfo strings that leave the alternate screen, show the cursor,
 * reset the attributes and the keypad and stop the mouse reports. */
static struct termios pv_term_saved_modes;
static bool pv_term_saved;
static char pv_term_exit_seq[512];
static size_t pv_term_exit_len;

/* The main thread writes a frame (or an OSC 52 sequence) holding this
 * flag; the fast restore takes it first, so a fatal exit on another
 * thread (out of memory on the loader's) waits for the frame being
 * written to end instead of leaving the alternate screen in the middle of
 * it (the rest of the frame then landed on the user's screen, the message
 * after it at column 79), and keeps it: no frame follows the restore. A
 * lock-free atomic flag, not a mutex: the restore runs in signal handlers
 * too. A signal on the main thread in the middle of a frame cannot wait
 * for it: it gives up after 100 ms. */
static atomic_flag pv_term_out_busy = ATOMIC_FLAG_INIT;

static void pv_term_out_take(void) /* the main thread, around its writes */
{
    while (atomic_flag_test_and_set(&pv_term_out_busy))
        sched_yield(); /* only the fatal path holds it: the process is ending */
}

static void pv_term_out_give(void)
{
    atomic_flag_clear(&pv_term_out_busy);
}

static void pv_term_out_claim(void) /* the fast restore: kept, never given back */
{
    for (int i = 0; i < 100 && atomic_flag_test_and_set(&pv_term_out_busy); i++) {
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
}

static void pv_term_restore_fast(void)
{
    if (!pv_term_active)
        return;
    pv_term_out_claim();
    pv_term_active = 0;
    if (pv_term_exit_len)
        (void)!write(STDOUT_FILENO, pv_term_exit_seq, pv_term_exit_len);
    if (pv_term_saved)
        tcsetattr(STDIN_FILENO, TCSADRAIN, &pv_term_saved_modes);
}

static void pv_term_exit_add(const char *cap)
{
    size_t len = cap && cap != (const char *)-1 ? strlen(cap) : 0;
    if (len && pv_term_exit_len + len < sizeof pv_term_exit_seq) {
        memcpy(pv_term_exit_seq + pv_term_exit_len, cap, len);
        pv_term_exit_len += len;
    }
}

/* Restores the terminal; safe to call more than once (atexit, the loop). */
static void pv_term_restore(void)
{
    pv_set_fatal_hook(NULL);
    if (pv_term_active) {
        pv_term_active = 0;
        endwin();
    }
}

static void pv_term_signal(int sig)
{
    if (!pv_term_pending) {
        pv_term_pending = sig; /* the main loop restores the terminal and dies of it */
        return;
    }
    /* a second one: the loop is not answering; restore what can be
     * restored from here and die */
    pv_term_restore_fast();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void pv_term_crash(int sig)
{
    /* a crash cannot wait for the loop: the async-signal-safe restore */
    pv_term_restore_fast();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void pv_term_signals(void)
{
    static const int ends[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    /* SIGBUS is the core's (src/core/file.c): a read of an input that
     * shrank is answered there; any other calls the fatal hook */
    static const int crashes[] = {SIGSEGV, SIGFPE, SIGABRT};
    for (size_t i = 0; i < PV_ARRAY_LEN(ends) + PV_ARRAY_LEN(crashes); i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        bool end = i < PV_ARRAY_LEN(ends);
        sa.sa_handler = end ? pv_term_signal : pv_term_crash;
        sigemptyset(&sa.sa_mask);
        /* no SA_RESTART: a signal ends the wait for a key */
        sigaction(end ? ends[i] : crashes[i - PV_ARRAY_LEN(ends)], &sa, NULL);
    }
}

/* Dies of the signal that asked to end, once the terminal is restored. */
static void pv_term_die_of_pending(void)
{
    int sig = pv_term_pending;
    if (!sig)
        return;
    signal(sig, SIG_DFL);
    raise(sig);
}

bool pv_tui_parse_size(const char *s, int *width, int *height)
{
    int w = 0, h = 0;
    const char *p = s;
    while (*p >= '0' && *p <= '9' && w < 10000)
        w = w * 10 + (*p++ - '0');
    if (*p != 'x' || p == s)
        return false;
    const char *q = ++p;
    while (*p >= '0' && *p <= '9' && h < 10000)
        h = h * 10 + (*p++ - '0');
    if (*p || p == q || w < 1 || h < 1 || w > 1000 || h > 1000)
        return false;
    *width = w;
    *height = h;
    return true;
}

void pv_tui_print_keys(FILE *fp)
{
    pv_keymap m;
    pv_keymap_init_defaults(&m);
    fprintf(fp, "\nKeys in the viewer (rebind them in $XDG_CONFIG_HOME/profview/config.yaml):\n");
    pv_keymap_print(&m, fp);
    pv_commands_print(fp);
}

/* ---- colours */

static attr_t pv_term_attrs[PV_ROLE_COUNT];
static short pv_term_pairs[PV_ROLE_COUNT]; /* setcchar takes the pair apart */

static attr_t pv_term_style_attrs(unsigned attrs)
{
    attr_t a = A_NORMAL;
    if (attrs & PV_ATTR_BOLD)
        a |= A_BOLD;
    if (attrs & PV_ATTR_REVERSE)
        a |= A_REVERSE;
    if (attrs & PV_ATTR_UNDERLINE)
        a |= A_UNDERLINE;
    if (attrs & PV_ATTR_DIM)
        a |= A_DIM;
    return a;
}

/* Without colour, what stands for a role's background colour: reverse
 * video, except for the roles drawn over many cells at once (flame graph
 * frames: plain, their edges part them; search matches and the selection
 * of an unfocused pane: underlined), so that reverse video is the focused
 * selection's (and the bars') and shows among them (docs/tui.md "Themes"). */
static attr_t pv_term_mono_background(int role)
{
    switch (role) {
    case PV_ROLE_FLAME_1:
    case PV_ROLE_FLAME_2:
    case PV_ROLE_FLAME_3:
    case PV_ROLE_FLAME_4:
        return 0;
    case PV_ROLE_FLAME_MATCH:
    case PV_ROLE_MATCH:
    case PV_ROLE_SELECTED_DIM:
        return A_UNDERLINE;
    default:
        return A_REVERSE;
    }
}

/* Without colour, what stands for a role's foreground colour when the
 * theme gives it no attribute: the states that a colour alone told apart
 * (a filter's context rows, the Explorer's files and current view, a
 * diff's falls and rises) keep an attribute (docs/tui.md "Themes"). */
static attr_t pv_term_mono_foreground(int role)
{
    switch (role) {
    case PV_ROLE_DIM:
        return A_DIM;
    case PV_ROLE_TITLE:
    case PV_ROLE_WORSE:
        return A_BOLD;
    case PV_ROLE_BETTER:
        return A_UNDERLINE;
    default:
        return 0;
    }
}

/* Colour pairs from the theme, with fallback to 8/16 colours; without colour
 * (NO_COLOR, a monochrome terminal) only attributes, a background colour
 * standing as pv_term_mono_background says, a foreground colour as
 * pv_term_mono_foreground. */
static void pv_term_apply_theme(const pv_theme *t, bool color)
{
    for (int r = 0; r < PV_ROLE_COUNT; r++) {
        const pv_style *s = &t->roles[r];
        attr_t a = pv_term_style_attrs(s->attrs);
        if (color) {
            int fg = pv_color_fallback(s->fg, COLORS);
            int bg = pv_color_fallback(s->bg, COLORS);
            init_pair((short)(r + 1), (short)fg, (short)bg);
            pv_term_pairs[r] = (short)(r + 1);
        } else {
            pv_term_pairs[r] = 0;
            if (s->bg != PV_COLOR_DEFAULT && !(s->attrs & PV_ATTR_REVERSE))
                a |= pv_term_mono_background(r);
            else if (s->fg != PV_COLOR_DEFAULT && !s->attrs)
                a |= pv_term_mono_foreground(r);
        }
        pv_term_attrs[r] = a;
    }
}

static void pv_term_paint(const pv_grid *g)
{
    for (int y = 0; y < g->height && y < LINES; y++) {
        for (int x = 0; x < g->width && x < COLS; x++) {
            const pv_gcell *c = &g->cells[(size_t)y * (size_t)g->width + (size_t)x];
            if (c->ch == 0)
                continue;
            wchar_t wc[2] = {(wchar_t)c->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, pv_term_attrs[c->role], pv_term_pairs[c->role], NULL);
            mvadd_wch(y, x, &cc);
        }
    }
}

/* The bracketed paste's markers (ESC [ 200 ~ and ESC [ 201 ~), defined as
 * keys of our own beyond ncurses' (define_key). */
#define PV_TERM_PASTE_BEGIN (KEY_MAX + 1)
#define PV_TERM_PASTE_END (KEY_MAX + 2)
/* The most a paste keeps (a prompt is one line: a filter, a query). */
#define PV_TERM_PASTE_MAX (1u << 20)

static int pv_term_key(int code)
{
    switch (code) {
    case KEY_UP:
        return PV_KEY_UP;
    case KEY_DOWN:
        return PV_KEY_DOWN;
    case KEY_LEFT:
        return PV_KEY_LEFT;
    case KEY_RIGHT:
        return PV_KEY_RIGHT;
    case KEY_PPAGE:
        return PV_KEY_PGUP;
    case KEY_NPAGE:
        return PV_KEY_PGDN;
    case KEY_HOME:
        return PV_KEY_HOME;
    case KEY_END:
        return PV_KEY_END;
    case KEY_BACKSPACE:
        return PV_KEY_BACKSPACE;
    case KEY_DC:
        return PV_KEY_DELETE;
    case KEY_IC:
        return PV_KEY_INSERT;
    case KEY_BTAB:
        return PV_KEY_BTAB;
    case KEY_ENTER:
        return PV_KEY_ENTER;
    case KEY_RESIZE:
        return PV_KEY_RESIZE;
    case KEY_MOUSE:
        return PV_KEY_MOUSE;
    }
    if (code >= KEY_F(1) && code <= KEY_F(12))
        return PV_KEY_F0 + (code - KEY_F0);
    return 0;
}

static int pv_term_char(wint_t c)
{
    if (c == '\r')
        return PV_KEY_ENTER;
    if (c == 127 || c == 8)
        return PV_KEY_BACKSPACE;
    return (int)c;
}

static void pv_term_show(pv_app *app, bool color)
{
    bool changed;
    const pv_theme *t = pv_app_theme(app, &changed);
    if (changed)
        pv_term_apply_theme(t, color);
    const pv_grid *g = pv_app_draw(app);
    pv_term_out_take();
    pv_term_paint(g);
    int cy, cx;
    if (pv_app_cursor(app, &cy, &cx)) {
        curs_set(1);
        move(cy, cx);
    } else {
        curs_set(0);
    }
    refresh();
    pv_term_out_give();
}

/* docs/input.md "Files that change": a file changed on disk while it was
 * open (asked each frame: a stat per mapped input) is said at once. */
static void pv_term_check_inputs(pv_app *app)
{
    char path[512];
    if (!pv_inputs_changed(path, sizeof path))
        return;
    pv_app_input_changed(app, path); /* session.c: offers :reload */
}

/* Writes an OSC 52 sequence (built by the app: base64, nothing from a file
 * raw) straight to the terminal, between two curses updates. */
static void pv_term_clipboard(void *ctx, const char *bytes, size_t len)
{
    (void)ctx;
    pv_term_out_take();
    fflush(stdout);
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(STDOUT_FILENO, bytes + done, len - done);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        done += (size_t)n;
    }
    pv_term_out_give();
}

/* Reads a bracketed paste up to its end marker (or a pause of a second, if
 * the marker is lost) and hands it to the viewer as one input. */
static void pv_term_paste(pv_app *app)
{
    pv_buf text;
    pv_buf_init(&text);
    timeout(1000);
    wint_t wc;
    int rc;
    while ((rc = get_wch(&wc)) != ERR) {
        if (rc == KEY_CODE_YES) {
            if (wc == PV_TERM_PASTE_END)
                break;
            continue; /* a function key inside a paste is not text */
        }
        if (text.len >= PV_TERM_PASTE_MAX)
            continue;
        char mb[MB_LEN_MAX];
        mbstate_t st;
        memset(&st, 0, sizeof st);
        size_t n = wcrtomb(mb, (wchar_t)wc, &st);
        if (n != (size_t)-1)
            pv_buf_append(&text, mb, n);
    }
    pv_app_paste(app, text.data ? text.data : "", text.len);
    pv_buf_free(&text);
}

/* A mouse event: a click or the wheel to the app. */
static void pv_term_mouse(pv_app *app)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    int button = (ev.bstate & BUTTON4_PRESSED)                       ? 4
                 : (ev.bstate & BUTTON5_PRESSED)                     ? 5
                 : (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) ? 1
                                                                     : 0;
    if (button)
        pv_app_mouse(app, ev.y, ev.x, button);
}

static int pv_term_loop(pv_app *app, bool ascii)
{
    (void)ascii;
    /* Ask terminfo first (setupterm reports instead of exiting, and unlike
     * a failed newterm leaks nothing), then newterm rather than initscr. */
    int term_err = 0;
    /* the modes to give back, before curses changes them (newterm does) */
    pv_term_saved = tcgetattr(STDIN_FILENO, &pv_term_saved_modes) == 0;
    if (setupterm(NULL, STDOUT_FILENO, &term_err) != OK) {
        fprintf(stderr, "profview: cannot use the terminal (TERM=%s): no terminfo entry?\n",
                getenv("TERM") ? getenv("TERM") : "");
        return 2;
    }
    /* A terminal that cannot move the cursor (TERM=dumb, a printing
     * terminal) would get a blank or garbled screen: refuse it, and say what
     * works there (docs/tui.md "Terminals"). */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        fprintf(stderr,
                "profview: the terminal (TERM=%s) cannot move the cursor, which the viewer needs;\n"
                "set TERM to your terminal's type (e.g. xterm-256color), or use 'profview info'\n"
                "and 'profview cat' on it\n",
                getenv("TERM") ? getenv("TERM") : "");
        del_curterm(cur_term);
        return 2;
    }
    del_curterm(cur_term);
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (!screen) {
        fprintf(stderr, "profview: cannot use the terminal (TERM=%s): no terminfo entry?\n",
                getenv("TERM") ? getenv("TERM") : "");
        return 2;
    }
    set_term(screen);
    pv_term_exit_len = 0;
    pv_term_exit_add("\033[?1000l\033[?1002l\033[?1006l"); /* mouse reports off */
    pv_term_exit_add("\033[?2004l");                        /* bracketed paste off */
    pv_term_exit_add(exit_attribute_mode);
    pv_term_exit_add(cursor_normal);
    pv_term_exit_add(keypad_local);
    pv_term_exit_add(exit_ca_mode);
    pv_term_active = 1;
    pv_set_fatal_hook(pv_term_restore_fast);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    /* Shift-Tab is ESC [ Z on every terminal we know, but terminfo entries
     * such as vt100 and linux have no kcbt: without this, it came as Esc, [
     * and Z (docs/tui.md "Terminals"). */
    /* (only where the entry does not map it already: a definition replaced leaks
     * inside ncurses) */
    if (key_defined("\033[Z") != KEY_BTAB)
        define_key("\033[Z", KEY_BTAB);
    /* Bracketed paste (docs/tui.md "Terminals"): a paste comes between two
     * markers and is taken as one input, not one key at a time (a 900-
     * character filter took a second, and its characters were keys). A
     * terminal that does not know the mode ignores the request. */
    define_key("\033[200~", PV_TERM_PASTE_BEGIN);
    define_key("\033[201~", PV_TERM_PASTE_END);
    fflush(stdout); /* nothing of ours may be behind it in stdio's buffer */
    (void)!write(STDOUT_FILENO, "\033[?2004h", 8);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
    mouseinterval(0);
    bool color = has_colors() && !(getenv("NO_COLOR") && getenv("NO_COLOR")[0]);
    if (color) {
        start_color();
        use_default_colors();
    }
    bool changed;
    pv_term_apply_theme(pv_app_theme(app, &changed), color);
    pv_app_resize(app, COLS, LINES);
    pv_app_set_terminal(app, pv_term_clipboard, NULL);
    double shown = 0;
    while (!pv_app_done(app) && !pv_term_pending) {
        pv_app_poll(app);
        pv_term_check_inputs(app);
        if (!pv_app_loading(app) && pv_app_file_count(app) == 0)
            break;
        /* Loading when the screen was drawn: wake up again soon even if the
         * load ends before the wait starts, so that its end (or its error)
         * is drawn without a key (docs/tui.md). */
        bool drawn_loading = pv_app_loading(app);
        struct pollfd in = {0, POLLIN, 0};
        /* Between slices of work that keys interrupt (a scan, a flame graph
         * being built) with no key waiting, a frame every 40 ms shows the
         * progress; otherwise every pass draws. */
        bool slices = pv_app_has_work(app) && pv_app_work_stoppable(app) && poll(&in, 1, 0) == 0;
        if (!slices || pv_clock_now() - shown >= 0.04) {
            pv_term_show(app, color);
            shown = pv_clock_now();
        }
        if (pv_app_has_work(app) &&
            (!pv_app_work_stoppable(app) || poll(&in, 1, 0) == 0)) {
            pv_app_work(app);
            continue;
        }
        bool indexing = pv_app_indexing(app);
        timeout(indexing || pv_app_has_work(app)                  ? 0
                : drawn_loading || pv_app_loading(app) ? 100
                                                       : -1);
        wint_t wc;
        int rc = get_wch(&wc);
        if (rc == ERR) {
            /* Idle: index in slices of a few ms until a key arrives (the
             * slice is the longest a key waits) or it is time to redraw the
             * progress. */
            double until = pv_clock_now() + 0.1;
            while (indexing && pv_clock_now() < until && poll(&in, 1, 0) == 0)
                indexing = pv_app_index_slice(app);
            continue;
        }
        if (rc == KEY_CODE_YES && wc == PV_TERM_PASTE_BEGIN) {
            pv_term_paste(app);
            continue;
        }
        if (rc == KEY_CODE_YES && wc == PV_TERM_PASTE_END)
            continue;
        int key = rc == KEY_CODE_YES ? pv_term_key((int)wc) : pv_term_char(wc);
        if (key == PV_KEY_RESIZE) {
            pv_app_resize(app, COLS, LINES);
            clear();
        } else if (key == PV_KEY_MOUSE) {
            pv_term_mouse(app);
        } else if (key == PV_KEY_CTRL('l')) {
            clearok(curscr, TRUE);
        } else {
            pv_app_key(app, key);
        }
    }
    pv_app_set_terminal(app, NULL, NULL);
    if (pv_term_pending)
        pv_app_stop_jobs(app); /* before dying of the signal: nothing left behind */
    pv_term_restore();
    delscreen(screen);
    pv_term_die_of_pending();
    return 0;
}

/* ---- scripted keys (testing) */

static bool pv_script_dump(pv_app *app, FILE *out)
{
    pv_buf text;
    pv_buf_init(&text);
    pv_grid_dump(pv_app_draw(app), &text);
    bool ok = fwrite(text.data ? text.data : "", 1, text.len, out) == text.len;
    pv_buf_free(&text);
    return ok;
}

static int pv_script_run(pv_app *app, const pv_tui_options *o)
{
    size_t len;
    char *text = pv_yaml_read_file(o->keys_path, &len);
    if (!text) {
        fprintf(stderr, "profview: %s: %s\n", o->keys_path, strerror(errno));
        return 1;
    }
    size_t count, bad_line = 0;
    pv_script_event *ev = pv_script_parse(text, &count, &bad_line);
    free(text);
    if (!ev) {
        fprintf(stderr, "profview: %s:%zu: unknown key name\n", o->keys_path, bad_line);
        return 1;
    }
    bool to_stdout = !o->dump_path || strcmp(o->dump_path, "-") == 0;
    FILE *out = to_stdout ? stdout : fopen(o->dump_path, "w");
    if (!out) {
        fprintf(stderr, "profview: %s: %s\n", o->dump_path, strerror(errno));
        free(ev);
        return 1;
    }
    pv_app_wait_loaded(app);
    int rc = pv_app_file_count(app) ? 0 : 2;
    for (size_t i = 0; i < count && rc == 0 && !pv_app_done(app); i++) {
        if (ev[i].key == PV_SCRIPT_DUMP) {
            pv_script_dump(app, out);
            fputs("----\n", out);
        } else if (ev[i].key == PV_SCRIPT_RESIZE) {
            pv_app_resize(app, ev[i].width, ev[i].height);
        } else if (ev[i].key <= PV_SCRIPT_CLICK) {
            pv_app_draw(app); /* the mouse acts on what is on screen */
            pv_app_mouse(app, ev[i].height, ev[i].width,
                         ev[i].key == PV_SCRIPT_CLICK ? 1 : ev[i].key == PV_SCRIPT_WHEEL_UP ? 4 : 5);
            while (pv_app_has_work(app)) {
                pv_app_draw(app);
                pv_app_work(app);
            }
        } else {
            pv_term_check_inputs(app);
            pv_app_draw(app); /* keys act on what is on screen (page size...) */
            pv_app_key(app, ev[i].key);
            while (pv_app_has_work(app)) { /* scans: every slice */
                pv_app_draw(app);
                pv_app_work(app);
                if (pv_app_work_paced(app))
                    break; /* work-slice: the next key comes first */
            }
            pv_app_wait_loaded(app); /* :open loads before the next key */
            pv_app_index_slice(app); /* index-slice: one slice per key */
            pv_app_flame_test_slice(app); /* flame-slice: one slice per key */
        }
    }
    if (rc == 0)
        pv_script_dump(app, out);
    pv_app_session_save_all(app); /* as at quit (docs/tui.md "Sessions") */
    if (!to_stdout && fclose(out) != 0)
        rc = 1;
    free(ev);
    return rc;
}

int pv_tui_run(const pv_tui_options *o)
{
    setlocale(LC_ALL, "");
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    pv_tui_config cfg;
    pv_config_init(&cfg);
    pv_buf err;
    pv_buf_init(&err);
    pv_config_load(&cfg, &err);
    const char *theme_name = o->theme ? o->theme : cfg.theme ? cfg.theme : "default";
    pv_theme theme;
    pv_buf theme_err;
    pv_buf_init(&theme_err);
    pv_theme_load(&theme, theme_name, &theme_err);
    if (theme_err.len) {
        if (err.len)
            pv_buf_putc(&err, '\n');
        pv_buf_append(&err, theme_err.data, theme_err.len);
    }
    pv_buf_free(&theme_err);
    bool ascii = o->ascii || cfg.ascii || !utf8;
    bool scripted = o->keys_path != NULL;
    int width = scripted ? (o->width ? o->width : 80) : 80;
    int height = scripted ? (o->height ? o->height : 24) : 24;
    pv_app *app = pv_app_new(o, &cfg, &theme, utf8, ascii, width, height);
    if (err.len) {
        /* Bad config or theme: say where, keep going with the defaults. */
        pv_buf_puts(&err, "\n(using the defaults; press any key)");
        pv_app_message(app, true, pv_buf_cstr(&err));
    }
    pv_buf_free(&err);
    int rc;
    if (scripted) {
        rc = pv_script_run(app, o);
    } else {
        atexit(pv_term_restore);
        pv_term_signals();
        rc = pv_term_loop(app, ascii);
        pv_app_session_save_all(app); /* the terminal is restored: a failure is said */
    }
    if (pv_app_file_count(app) == 0 && pv_app_load_errors(app)[0]) {
        /* Nothing loaded: the same messages as `profview info` gives. */
        const char *p = pv_app_load_errors(app);
        while (*p) {
            size_t len = strcspn(p, "\n");
            fprintf(stderr, "profview: error: %.*s\n", (int)len, p);
            p += len + (p[len] == '\n');
        }
        rc = 2;
    }
    pv_app_free(app);
    pv_config_free(&cfg);
    return rc;
}
