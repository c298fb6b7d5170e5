/* theme.c - themes read from YAML (docs/tui.md, docs/code-style.md habit 6). */
#include "tui/theme.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tui/yamlfile.h"

/* The built-in default, in the same YAML a user writes; themes/default.yaml
 * holds the same roles (a unit test keeps them equal). */
static const char pv_theme_default_yaml[] = "name: default\n"
                                            "roles:\n"
                                            "  normal: default on default\n"
                                            "  border: blue\n"
                                            "  title: cyan\n"
                                            "  title-focus: bright-white on blue bold\n"
                                            "  header: yellow bold\n"
                                            "  selected: black on cyan\n"
                                            "  selected-unfocused: default on bright-black\n"
                                            "  match: black on yellow\n"
                                            "  tree: blue\n"
                                            "  number: default\n"
                                            "  dim: bright-black\n"
                                            "  tab: cyan\n"
                                            "  tab-active: black on cyan bold\n"
                                            "  status: black on white\n"
                                            "  prompt: default\n"
                                            "  error: bright-red bold\n"
                                            "  help-key: yellow bold\n"
                                            "  flame-1: black on yellow\n"
                                            "  flame-2: black on red\n"
                                            "  flame-3: black on magenta\n"
                                            "  flame-4: black on 208\n"
                                            "  flame-edge: bright-black\n"
                                            "  flame-match: black on bright-cyan bold\n"
                                            "  better: bright-green\n"
                                            "  worse: bright-red\n"
                                            "  lane-1: bright-green\n"
                                            "  lane-2: bright-cyan\n"
                                            "  lane-3: bright-magenta\n"
                                            "  lane-4: yellow\n"
                                            "  lane-5: bright-blue\n"
                                            "  lane-6: 208\n";

static const char *const pv_role_names[] = {
#define PV_ROLE_NAME(e, key, desc) key,
    PV_THEME_ROLES(PV_ROLE_NAME)
#undef PV_ROLE_NAME
};

static const char *const pv_color_names[] = {"black", "red",     "green", "yellow",
                                             "blue",  "magenta", "cyan",  "white"};

const char *pv_role_name(pv_role r)
{
    return r < PV_ROLE_COUNT ? pv_role_names[r] : "";
}

static bool pv_color_parse(const char *word, int *color)
{
    if (strcasecmp(word, "default") == 0) {
        *color = PV_COLOR_DEFAULT;
        return true;
    }
    int base = 0;
    if (strncasecmp(word, "bright-", 7) == 0) {
        base = 8;
        word += 7;
    }
    for (int i = 0; i < 8; i++)
        if (strcasecmp(word, pv_color_names[i]) == 0) {
            *color = base + i;
            return true;
        }
    if (base)
        return false;
    int64_t n;
    if (pv_parse_int64(word, strlen(word), &n) && n >= 0 && n <= 255) {
        *color = (int)n;
        return true;
    }
    return false;
}

bool pv_style_parse(const char *text, pv_style *out, char *why, size_t why_size)
{
    pv_style s = {PV_COLOR_DEFAULT, PV_COLOR_DEFAULT, 0};
    char words[8][32];
    size_t n = 0;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *start = p;
        while (*p && *p != ' ' && *p != '\t' && *p != ',')
            p++;
        if (n == PV_ARRAY_LEN(words)) {
            snprintf(why, why_size, "too many words in style '%s'", text);
            return false;
        }
        size_t len = (size_t)(p - start);
        if (len >= sizeof words[0])
            len = sizeof words[0] - 1;
        memcpy(words[n], start, len);
        words[n++][len] = '\0';
    }
    bool have_fg = false;
    for (size_t i = 0; i < n; i++) {
        const char *w = words[i];
        if (strcasecmp(w, "bold") == 0) {
            s.attrs |= PV_ATTR_BOLD;
        } else if (strcasecmp(w, "reverse") == 0) {
            s.attrs |= PV_ATTR_REVERSE;
        } else if (strcasecmp(w, "underline") == 0) {
            s.attrs |= PV_ATTR_UNDERLINE;
        } else if (strcasecmp(w, "dim") == 0) {
            s.attrs |= PV_ATTR_DIM;
        } else if (strcasecmp(w, "on") == 0) {
            if (i + 1 >= n || !pv_color_parse(words[i + 1], &s.bg)) {
                snprintf(why, why_size, "'on' needs a background colour, got '%s'",
                         i + 1 < n ? words[i + 1] : "");
                return false;
            }
            i++;
        } else if (!have_fg && pv_color_parse(w, &s.fg)) {
            have_fg = true;
        } else {
            snprintf(why, why_size, "unknown colour or attribute '%s'", w);
            return false;
        }
    }
    *out = s;
    return true;
}

bool pv_theme_parse(pv_theme *t, const char *yaml, size_t len, const char *file, pv_buf *err)
{
    yaml_document_t doc;
    if (!pv_yaml_load(&doc, yaml, len, file, err))
        return false;
    pv_theme work = *t;
    bool ok = true;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root || root->type != YAML_MAPPING_NODE) {
        pv_yaml_error(err, file, root, "a theme is a mapping with 'name' and 'roles'");
        ok = false;
        goto done;
    }
    for (yaml_node_pair_t *pair = root->data.mapping.pairs.start;
         pair < root->data.mapping.pairs.top; pair++) {
        yaml_node_t *key = yaml_document_get_node(&doc, pair->key);
        yaml_node_t *value = yaml_document_get_node(&doc, pair->value);
        const char *k = pv_yaml_scalar(key);
        if (k && strcmp(k, "name") == 0 && pv_yaml_scalar(value) &&
            strlen(pv_yaml_scalar(value)) >= sizeof work.name) {
            /* Shown in messages only; refused rather than cut. */
            pv_yaml_error(err, file, value, "a theme's name has at most %zu bytes",
                          sizeof work.name - 1);
            ok = false;
        } else if (k && strcmp(k, "name") == 0 && pv_yaml_scalar(value)) {
            snprintf(work.name, sizeof work.name, "%s", pv_yaml_scalar(value));
        } else if (k && strcmp(k, "roles") == 0 && value->type == YAML_MAPPING_NODE) {
            for (yaml_node_pair_t *rp = value->data.mapping.pairs.start;
                 rp < value->data.mapping.pairs.top; rp++) {
                yaml_node_t *rk = yaml_document_get_node(&doc, rp->key);
                yaml_node_t *rv = yaml_document_get_node(&doc, rp->value);
                const char *role = pv_yaml_scalar(rk);
                size_t r = 0;
                while (role && r < PV_ROLE_COUNT && strcmp(pv_role_names[r], role) != 0)
                    r++;
                if (!role || r == PV_ROLE_COUNT) {
                    pv_yaml_error(err, file, rk, "unknown colour role '%s'", role ? role : "?");
                    ok = false;
                    continue;
                }
                char why[128];
                const char *text = pv_yaml_scalar(rv);
                if (!text) {
                    pv_yaml_error(err, file, rv,
                                  "role '%s' needs a style such as 'white on blue bold'", role);
                    ok = false;
                } else if (!pv_style_parse(text, &work.roles[r], why, sizeof why)) {
                    pv_yaml_error(err, file, rv, "role '%s': %s", role, why);
                    ok = false;
                }
            }
        } else {
            pv_yaml_error(err, file, key, "unknown key '%s' (a theme has 'name' and 'roles')",
                          k ? k : "?");
            ok = false;
        }
    }
done:
    yaml_document_delete(&doc);
    if (ok)
        *t = work;
    return ok;
}

void pv_theme_builtin(pv_theme *t)
{
    memset(t, 0, sizeof *t);
    for (size_t r = 0; r < PV_ROLE_COUNT; r++)
        t->roles[r] = (pv_style){PV_COLOR_DEFAULT, PV_COLOR_DEFAULT, 0};
    pv_buf err;
    pv_buf_init(&err);
    bool ok = pv_theme_parse(t, pv_theme_default_yaml, sizeof pv_theme_default_yaml - 1,
                             "<built-in theme>", &err);
    (void)ok; /* our own text: unit-tested */
    pv_buf_free(&err);
}

/* Tries one file; false when it does not exist (err untouched) or is bad. */
static bool pv_theme_try(pv_theme *t, const char *path, pv_buf *err, bool *found)
{
    size_t len;
    char *text = pv_yaml_read_file(path, &len);
    if (!text) {
        *found = errno != ENOENT;
        if (*found)
            pv_buf_printf(err, "%s: %s", path, strerror(errno));
        return false;
    }
    *found = true;
    bool ok = pv_theme_parse(t, text, len, path, err);
    free(text);
    return ok;
}

/* The themes that come with profview (docs/tui.md, "Themes"): those
 * installed beside the binary (PV_THEME_REL_DIR from the directory of the
 * running executable, so that an installed copy finds its own wherever it
 * was installed or moved), then those of the source tree it was built from
 * (PV_THEME_DIR).  Returns how many of the two exist. */
static size_t pv_theme_dirs(char dirs[2][4096])
{
    size_t n = 0;
#ifdef PV_THEME_REL_DIR
    char exe[4096];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len > 0) {
        exe[len] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            struct stat st;
            int w = snprintf(dirs[n], sizeof dirs[n], "%.3000s/%s", exe, PV_THEME_REL_DIR);
            if (w > 0 && (size_t)w < sizeof dirs[n] && stat(dirs[n], &st) == 0 &&
                S_ISDIR(st.st_mode))
                n++;
        }
    }
#endif
#ifdef PV_THEME_DIR
    snprintf(dirs[n], sizeof dirs[n], "%s", PV_THEME_DIR);
    n++;
#endif
    return n;
}

bool pv_theme_load(pv_theme *t, const char *name, pv_buf *err)
{
    pv_theme_builtin(t);
    if (!name || !*name || strcmp(name, "default") == 0) {
        /* Even "default" may be overridden by the user's own file. */
        name = "default";
    }
    if (strchr(name, '/')) {
        pv_buf_printf(err, "theme '%s': a theme name has no '/'", name);
        return false;
    }
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    char dirs[2][4096];
    size_t ndirs = pv_theme_dirs(dirs);
    /* The user's themes first, then the installed ones: the first file
     * that exists decides (a bad one is reported, not skipped). */
    pv_buf path;
    pv_buf_init(&path);
    for (size_t i = 0; i <= ndirs; i++) {
        pv_buf_clear(&path);
        if (i == 0 && xdg && *xdg)
            pv_buf_printf(&path, "%s/profview/themes/%s.yaml", xdg, name);
        else if (i == 0 && home && *home)
            pv_buf_printf(&path, "%s/.config/profview/themes/%s.yaml", home, name);
        else if (i > 0)
            pv_buf_printf(&path, "%s/%s.yaml", dirs[i - 1], name);
        if (!path.len)
            continue;
        bool found = false;
        bool ok = pv_theme_try(t, pv_buf_cstr(&path), err, &found);
        if (ok || found) {
            pv_buf_free(&path);
            if (!ok)
                pv_theme_builtin(t);
            return ok;
        }
    }
    pv_buf_free(&path);
    if (strcmp(name, "default") == 0)
        return true;
    pv_buf_printf(err, "theme '%s' not found (looked in %s/profview/themes", name,
                  xdg && *xdg ? xdg : "~/.config");
    for (size_t i = 0; i < ndirs; i++)
        pv_buf_printf(err, "%s%s", i + 1 < ndirs ? ", " : " and ", dirs[i]);
    pv_buf_puts(err, "); using the default theme");
    return false;
}

int pv_color_fallback(int color, int colors)
{
    if (color < 0 || color < colors)
        return color;
    if (colors >= 16 && color < 256) {
        /* 256-colour cube and grey ramp to the nearest of the 16. */
        if (color >= 232)
            return color < 244 ? 8 : 7;
        int c = color - 16;
        int r = c / 36, g = (c / 6) % 6, b = c % 6;
        int bright = (r > 3 || g > 3 || b > 3) ? 8 : 0;
        int base = (r > 1 ? 1 : 0) | (g > 1 ? 2 : 0) | (b > 1 ? 4 : 0);
        return bright + base;
    }
    if (color >= 16) {
        color = pv_color_fallback(color, 16);
    }
    /* 8 colours: bright-NAME becomes NAME; bright-black (grey) becomes white. */
    if (color == 8)
        return 7;
    return color >= 8 ? color - 8 : color;
}
