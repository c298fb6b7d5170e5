/* keymap.c - key names and the action table generated from actions.def. */
#include "tui/keymap.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const struct {
    const char *name;
    const char *keys;
    const char *help;
} pv_action_info[] = {
#define PV_ACTION(e, name, keys, help, family) {name, keys, help},
#include "tui/actions.def"
#undef PV_ACTION
};

static const struct {
    const char *name;
    int key;
} pv_key_names[] = {
    {"Enter", PV_KEY_ENTER},   {"Return", PV_KEY_ENTER},        {"Tab", PV_KEY_TAB},
    {"Esc", PV_KEY_ESC},       {"Escape", PV_KEY_ESC},          {"Space", ' '},
    {"Up", PV_KEY_UP},         {"Down", PV_KEY_DOWN},           {"Left", PV_KEY_LEFT},
    {"Right", PV_KEY_RIGHT},   {"PgUp", PV_KEY_PGUP},           {"PageUp", PV_KEY_PGUP},
    {"PgDn", PV_KEY_PGDN},     {"PageDown", PV_KEY_PGDN},       {"Home", PV_KEY_HOME},
    {"End", PV_KEY_END},       {"Backspace", PV_KEY_BACKSPACE}, {"Delete", PV_KEY_DELETE},
    {"Insert", PV_KEY_INSERT}, {"Shift-Tab", PV_KEY_BTAB},      {"BackTab", PV_KEY_BTAB},
};

const char *pv_action_name(pv_action a)
{
    return a >= 0 && a < PV_ACT_COUNT ? pv_action_info[a].name : "";
}

const char *pv_action_help(pv_action a)
{
    return a >= 0 && a < PV_ACT_COUNT ? pv_action_info[a].help : "";
}

pv_action pv_action_find(const char *name)
{
    for (int a = 0; a < PV_ACT_COUNT; a++)
        if (strcmp(pv_action_info[a].name, name) == 0)
            return (pv_action)a;
    return PV_ACT_NONE;
}

/* Decodes one UTF-8 character that must fill the whole string. */
static int pv_key_utf8(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s);
    if (len == 1)
        return u[0] >= 0x20 && u[0] < 0x7f ? u[0] : 0;
    uint32_t cp;
    size_t need;
    if ((u[0] & 0xe0) == 0xc0) {
        cp = u[0] & 0x1fu;
        need = 2;
    } else if ((u[0] & 0xf0) == 0xe0) {
        cp = u[0] & 0x0fu;
        need = 3;
    } else if ((u[0] & 0xf8) == 0xf0) {
        cp = u[0] & 0x07u;
        need = 4;
    } else {
        return 0;
    }
    if (len != need)
        return 0;
    for (size_t i = 1; i < need; i++) {
        if ((u[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (u[i] & 0x3fu);
    }
    return cp >= 0x80 && cp < 0x110000 ? (int)cp : 0;
}

int pv_key_parse(const char *name)
{
    if (!name || !*name)
        return 0;
    for (size_t i = 0; i < sizeof pv_key_names / sizeof pv_key_names[0]; i++)
        if (strcasecmp(pv_key_names[i].name, name) == 0 && strlen(name) > 1)
            return pv_key_names[i].key;
    if ((strncasecmp(name, "Ctrl-", 5) == 0 || strncasecmp(name, "C-", 2) == 0)) {
        const char *c = name + (name[1] == '-' ? 2 : 5);
        if (c[0] && !c[1] && ((c[0] >= 'a' && c[0] <= 'z') || (c[0] >= 'A' && c[0] <= 'Z')))
            return PV_KEY_CTRL(c[0]);
        return 0;
    }
    if ((name[0] == 'F' || name[0] == 'f') && name[1] >= '1' && name[1] <= '9') {
        int n = 0;
        const char *p = name + 1;
        while (*p >= '0' && *p <= '9' && n < 100)
            n = n * 10 + (*p++ - '0');
        if (!*p && n >= 1 && n <= 12)
            return PV_KEY_F0 + n;
        return 0;
    }
    return pv_key_utf8(name);
}

void pv_key_name(int key, char *out, size_t size)
{
    for (size_t i = 0; i < sizeof pv_key_names / sizeof pv_key_names[0]; i++)
        if (pv_key_names[i].key == key) {
            /* The first spelling of each key is its canonical name. */
            snprintf(out, size, "%s", pv_key_names[i].name);
            return;
        }
    if (key > PV_KEY_F0 && key < PV_KEY_LAST) {
        snprintf(out, size, "F%d", key - PV_KEY_F0);
    } else if (key > 0 && key < 0x20) {
        snprintf(out, size, "Ctrl-%c", 'A' + key - 1);
    } else if (key >= 0x20 && key < 0x80) {
        snprintf(out, size, "%c", key);
    } else if (key >= 0x80 && key < 0x110000) {
        uint32_t c = (uint32_t)key;
        char u[5] = {0};
        if (c < 0x800) {
            u[0] = (char)(0xc0 | (c >> 6));
            u[1] = (char)(0x80 | (c & 0x3f));
        } else if (c < 0x10000) {
            u[0] = (char)(0xe0 | (c >> 12));
            u[1] = (char)(0x80 | ((c >> 6) & 0x3f));
            u[2] = (char)(0x80 | (c & 0x3f));
        } else {
            u[0] = (char)(0xf0 | (c >> 18));
            u[1] = (char)(0x80 | ((c >> 12) & 0x3f));
            u[2] = (char)(0x80 | ((c >> 6) & 0x3f));
            u[3] = (char)(0x80 | (c & 0x3f));
        }
        snprintf(out, size, "%s", u);
    } else {
        snprintf(out, size, "?");
    }
}

bool pv_keymap_bind(pv_keymap *m, pv_action a, const char *keys, char *bad, size_t bad_size)
{
    int parsed[PV_KEYS_PER_ACTION] = {0};
    size_t n = 0;
    const char *s = keys;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == ',')
            s++;
        if (!*s)
            break;
        const char *start = s;
        while (*s && *s != ' ' && *s != '\t' && (*s != ',' || s == start))
            s++;
        char name[32];
        size_t len = (size_t)(s - start);
        if (len >= sizeof name)
            len = sizeof name - 1;
        memcpy(name, start, len);
        name[len] = '\0';
        int key = pv_key_parse(name);
        if (!key) {
            snprintf(bad, bad_size, "%s", name);
            return false;
        }
        if (n < PV_KEYS_PER_ACTION)
            parsed[n++] = key;
    }
    memcpy(m->keys[a], parsed, sizeof parsed);
    return true;
}

void pv_keymap_init_defaults(pv_keymap *m)
{
    memset(m, 0, sizeof *m);
    char bad[32];
    for (int a = 0; a < PV_ACT_COUNT; a++) {
        bool ok = pv_keymap_bind(m, (pv_action)a, pv_action_info[a].keys, bad, sizeof bad);
        (void)ok; /* actions.def is ours: every name in it parses (unit-tested) */
    }
}

pv_action pv_keymap_lookup(const pv_keymap *m, int key)
{
    if (!key)
        return PV_ACT_NONE;
    for (int a = 0; a < PV_ACT_COUNT; a++)
        for (int k = 0; k < PV_KEYS_PER_ACTION; k++)
            if (m->keys[a][k] == key)
                return (pv_action)a;
    return PV_ACT_NONE;
}

void pv_keymap_describe(const pv_keymap *m, pv_action a, char *out, size_t size)
{
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < PV_KEYS_PER_ACTION && m->keys[a][k]; k++) {
        char name[16];
        pv_key_name(m->keys[a][k], name, sizeof name);
        int w = snprintf(out + used, size - used, "%s%s", used ? " " : "", name);
        if (w < 0 || (size_t)w >= size - used)
            break;
        used += (size_t)w;
    }
}

void pv_keymap_print(const pv_keymap *m, FILE *fp)
{
    for (int a = 0; a < PV_ACT_COUNT; a++) {
        char keys[64];
        pv_keymap_describe(m, (pv_action)a, keys, sizeof keys);
        fprintf(fp, "  %-14s %-16s %s\n", pv_action_info[a].name, keys, pv_action_info[a].help);
    }
}
