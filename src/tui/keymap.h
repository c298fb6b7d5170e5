/* keymap.h - key codes, key names and the action table (actions.def).
 * Curses-free: key codes are plain ints, so parsing and rebinding are unit
 * tested without a terminal. */
#ifndef PROFVIEW_TUI_KEYMAP_H
#define PROFVIEW_TUI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum pv_action {
    PV_ACT_NONE = -1,
#define PV_ACTION(e, name, keys, help, family) PV_ACT_##e,
#include "tui/actions.def"
#undef PV_ACTION
    PV_ACT_COUNT
} pv_action;

/* A key: a Unicode code point for characters (control characters are
 * Ctrl-A = 1 ...), or one of these for the keys without a character. */
enum {
    PV_KEY_ENTER = '\n',
    PV_KEY_TAB = '\t',
    PV_KEY_ESC = 27,
    PV_KEY_SPECIAL = 0x200000,
    PV_KEY_UP,
    PV_KEY_DOWN,
    PV_KEY_LEFT,
    PV_KEY_RIGHT,
    PV_KEY_PGUP,
    PV_KEY_PGDN,
    PV_KEY_HOME,
    PV_KEY_END,
    PV_KEY_BACKSPACE,
    PV_KEY_DELETE,
    PV_KEY_INSERT,
    PV_KEY_BTAB,
    PV_KEY_RESIZE,
    PV_KEY_MOUSE,
    PV_KEY_F0, /* F1 = PV_KEY_F0 + 1 ... F12 */
    PV_KEY_LAST = PV_KEY_F0 + 13,
};

#define PV_KEY_CTRL(c) ((c)&0x1f)
#define PV_KEYS_PER_ACTION 6

typedef struct pv_keymap {
    int keys[PV_ACT_COUNT][PV_KEYS_PER_ACTION]; /* 0 = unused slot */
} pv_keymap;

const char *pv_action_name(pv_action a);
const char *pv_action_help(pv_action a);
/* The action named `name` ("move-down"...), or PV_ACT_NONE. */
pv_action pv_action_find(const char *name);

/* Parses one key name: "j", "Enter", "Ctrl-A", "F1", "PgDn", "Space", "<",
 * a single UTF-8 character...  Returns 0 when unknown. */
int pv_key_parse(const char *name);
/* Writes the key's name into out (at least 16 bytes). */
void pv_key_name(int key, char *out, size_t size);

/* The default bindings of actions.def. */
void pv_keymap_init_defaults(pv_keymap *m);
/* Replaces the keys of `a` by the space-separated key names in `keys`.
 * Returns false (and leaves the map unchanged) on an unknown key name, with
 * the offending name in bad (at least 32 bytes). */
bool pv_keymap_bind(pv_keymap *m, pv_action a, const char *keys, char *bad, size_t bad_size);
/* The action bound to `key`, or PV_ACT_NONE.  A key bound to two actions
 * runs the one declared first. */
pv_action pv_keymap_lookup(const pv_keymap *m, int key);
/* "Up k" for the help screen. */
void pv_keymap_describe(const pv_keymap *m, pv_action a, char *out, size_t size);
/* Writes the table, one action per line, for --help. */
void pv_keymap_print(const pv_keymap *m, FILE *fp);

#endif
