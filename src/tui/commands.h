/* commands.h - the table of : commands (commands.def): completion, the ?
 * screen, `profview --help` and dispatch read it.  Curses-free. */
#ifndef PROFVIEW_TUI_COMMANDS_H
#define PROFVIEW_TUI_COMMANDS_H

#include <stddef.h>
#include <stdio.h>

#include "tui/app.h"

/* What Tab completes in a command's argument. */
enum {
    PV_ARG_NONE,
    PV_ARG_COLUMN,
    PV_ARG_THEME,
    PV_ARG_FILE,
    PV_ARG_SQL,
    PV_ARG_EXPORT, /* an export format (text1, bin, sqlite), then a file name */
};

typedef struct pv_command {
    const char *name;
    const char *aliases; /* space-separated, "" = none */
    const char *args;    /* for the help, "" = none */
    int complete;        /* PV_ARG_... */
    const char *help;
    void (*run)(pv_app *a, const char *arg);
} pv_command;

extern const pv_command pv_commands[];
extern const size_t pv_command_count;

/* The command whose name or alias is the first len bytes of word, or NULL. */
const pv_command *pv_command_find(const char *word, size_t len);
/* "name ARGS" of a command, as the help shows it. */
void pv_command_usage(const pv_command *c, char *out, size_t size);
/* The command list of `profview --help`. */
void pv_commands_print(FILE *fp);

#endif
