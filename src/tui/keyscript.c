/* keyscript.c - parsing the scripted-keys file. */
#include "tui/keyscript.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profview/core.h"
#include "profview/tui.h"
#include "tui/keymap.h"

typedef struct pv_script {
    pv_script_event *ev;
    size_t count, cap;
} pv_script;

static void pv_script_add(pv_script *s, int key, int w, int h)
{
    s->ev = pv_xgrow(s->ev, &s->cap, s->count + 1, sizeof *s->ev);
    s->ev[s->count++] = (pv_script_event){key, w, h};
}

/* One <...> item: a key name, Dump or "Resize WxH". */
static bool pv_script_special(pv_script *s, const char *name)
{
    if (strcmp(name, "Dump") == 0) {
        pv_script_add(s, PV_SCRIPT_DUMP, 0, 0);
        return true;
    }
    if (strncmp(name, "Resize ", 7) == 0) {
        int w, h;
        if (!pv_tui_parse_size(name + 7, &w, &h))
            return false;
        pv_script_add(s, PV_SCRIPT_RESIZE, w, h);
        return true;
    }
    static const struct {
        const char *word;
        int event;
    } mouse[] = {{"Click ", PV_SCRIPT_CLICK},
                 {"WheelUp ", PV_SCRIPT_WHEEL_UP},
                 {"WheelDown ", PV_SCRIPT_WHEEL_DOWN}};
    for (size_t i = 0; i < sizeof mouse / sizeof mouse[0]; i++) {
        size_t n = strlen(mouse[i].word);
        if (strncmp(name, mouse[i].word, n) != 0)
            continue;
        int x, y, used = 0;
        if (sscanf(name + n, "%d %d%n", &x, &y, &used) != 2 || name[n + (size_t)used] != '\0' ||
            x < 0 || y < 0)
            return false;
        pv_script_add(s, mouse[i].event, x, y);
        return true;
    }
    int key = pv_key_parse(name);
    if (!key)
        return false;
    pv_script_add(s, key, 0, 0);
    return true;
}

/* Decodes UTF-8 text into keys, with <Name> items. */
static bool pv_script_text(pv_script *s, const char *p, size_t len)
{
    const unsigned char *u = (const unsigned char *)p;
    for (size_t i = 0; i < len;) {
        if (u[i] == '<') {
            const char *end = memchr(p + i + 1, '>', len - i - 1);
            if (end && end > p + i + 1) {
                char name[64];
                size_t n = (size_t)(end - (p + i + 1));
                if (n < sizeof name) {
                    memcpy(name, p + i + 1, n);
                    name[n] = '\0';
                    if (pv_script_special(s, name)) {
                        i += n + 2;
                        continue;
                    }
                    if (strchr(name, ' ') == NULL && n > 1 && name[0] >= 'A' && name[0] <= 'Z')
                        return false; /* looks like a key name but is not one */
                    if (strncmp(name, "Click ", 6) == 0 || strncmp(name, "WheelUp ", 8) == 0 ||
                        strncmp(name, "WheelDown ", 10) == 0)
                        return false; /* a mouse event without its X Y */
                }
            }
        }
        size_t n = 1;
        int key = u[i];
        if (u[i] >= 0x80) {
            n = (u[i] & 0xe0) == 0xc0 ? 2 : (u[i] & 0xf0) == 0xe0 ? 3 : 4;
            if (i + n > len)
                return false;
            char one[5] = {0};
            memcpy(one, p + i, n);
            key = pv_key_parse(one);
            if (!key)
                return false;
        }
        pv_script_add(s, key, 0, 0);
        i += n;
    }
    return true;
}

pv_script_event *pv_script_parse(const char *text, size_t *count, size_t *bad_line)
{
    pv_script s = {NULL, 0, 0};
    size_t line_no = 0;
    const char *p = text;
    while (*p) {
        line_no++;
        size_t len = strcspn(p, "\n");
        char *line = pv_xstrndup(p, len);
        p += len + (p[len] == '\n');
        if (len && line[len - 1] == '\r')
            line[--len] = '\0';
        if (len == 0 || line[0] == '#') {
            free(line);
            continue;
        }
        /* All words are key names?  Then they are keys. */
        bool all_names = true;
        pv_script words = {NULL, 0, 0};
        for (char *w = line; *w && all_names;) {
            while (*w == ' ')
                w++;
            if (!*w)
                break;
            char *e = w + strcspn(w, " ");
            size_t wl = (size_t)(e - w);
            char save = *e;
            *e = '\0';
            int key = pv_key_parse(w);
            if (key)
                pv_script_add(&words, key, 0, 0);
            else if (!(wl > 2 && w[0] == '<' && e[-1] == '>' && pv_script_text(&words, w, wl)))
                all_names = false;
            *e = save;
            w = e;
        }
        bool ok = true;
        if (all_names) {
            for (size_t i = 0; i < words.count; i++)
                pv_script_add(&s, words.ev[i].key, words.ev[i].width, words.ev[i].height);
        } else {
            ok = pv_script_text(&s, line, len);
        }
        free(words.ev);
        free(line);
        if (!ok) {
            free(s.ev);
            *bad_line = line_no;
            return NULL;
        }
    }
    *count = s.count;
    if (!s.ev)
        s.ev = pv_xmalloc(sizeof *s.ev);
    return s.ev;
}
