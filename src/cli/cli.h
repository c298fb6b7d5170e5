/* cli.h - the command line (docs/cli.md): options, commands, exit codes. */
#ifndef PROFVIEW_CLI_H
#define PROFVIEW_CLI_H

#include "profview/load.h"
#include "output.h"

enum {
    PV_EXIT_OK = 0,
    PV_EXIT_USAGE = 1,
    PV_EXIT_INPUT = 2,
    PV_EXIT_OUTPUT = 3, /* stdout could not be written */
};

/* The output could not be written (docs/cli.md "Exit status"): says so and
 * returns PV_EXIT_OUTPUT; a reader that closed the pipe (EPIPE, with SIGPIPE
 * ignored: `profview cat ... | head`) got what it wanted, so that ends
 * quietly with PV_EXIT_OK. Reads errno. */
int pv_cli_write_failed(void);
/* Whether pv_cli_write_failed saw the reader close the pipe (the final
 * check of stdout must then stay quiet too). */
bool pv_cli_reader_gone(void);

/* Every option, once: X(enum suffix, long name, argument name or NULL, help). */
#define PV_CLI_OPTIONS(X)                                                                         \
    X(JSON, "json", NULL, "info: print JSON")                                                     \
    X(VIEW, "view", "ID", "cat: the view (or detail view, with --parent) to print")               \
    X(INSTANCE, "instance", "N", "the result set whose INST_ID is N (default: the first)")        \
    X(INSTANCE_B, "instance-b", "N", "diff: the result set of B (default: as --instance)")       \
    X(PARENT, "parent", "ID", "cat: open a detail view of the row whose id is ID")                \
    X(OF, "of", "VIEW", "cat: with --parent, the view of that row (when several offer the detail)") \
    X(CONTEXT, "context", "NAME", "cat: only rows of this context or thread")                     \
    X(FILTER, "filter", "EXPR", "cat: only rows matching the filter expression")                  \
    X(SORT, "sort", "COL[:desc],...", "cat: sort by these columns")                               \
    X(COLUMNS, "columns", "C1,C2,...", "cat: print exactly these columns, in this order")          \
    X(FROM, "from", "TIME", "timelines: start of the time window (inclusive; 12ms, 4.5us, ns)")  \
    X(TO, "to", "TIME", "timelines: end of the time window (inclusive)")                          \
    X(FROM_B, "from-b", "TIME", "diff: B's window starts here (default: as --from)")               \
    X(TO_B, "to-b", "TIME", "diff: B's window ends here (default: as --to)")                      \
    X(LIMIT, "limit", "N", "cat: print at most N rows")                                           \
    X(FORMAT, "format", "FMT", "cat, diff, sql: tsv (default), csv, json; cat: folded; export: text1, bin, sqlite or trace-json") \
    X(OUTPUT, "output", "OUT", "export: the file to write (-o OUT)")                               \
    X(AREAS, "areas", "GLOB", "export: only the timeline areas whose names match ('*', '?')")      \
    X(PROFILE, "profile", "FILE", "export: the YAML export profile (macros of each Text1 section)") \
    X(FORCE, "force", NULL, "export: replace OUT when it exists (never an input file)")           \
    X(INPUT_FORMAT, "input-format", "NAME", "read the files as this format (skip detection)")     \
    X(BIN_VERSION, "bin-version", "1.0|1.1", "winIDEA BIN: force the record version; export: the version to write")             \
    X(CONTEXT_AREA, "context-area", "NAME|HANDLE", "winIDEA: the state variable that names the running context") \
    X(NO_CACHE, "no-cache", NULL, "timelines: neither read nor write the index cache (docs/cache.md)") \
    X(SOURCE_PATH, "source-path", "DIR", "where source files are looked for (repeatable; docs/source.md)") \
    X(NO_SESSION, "no-session", NULL, "TUI: neither restore nor save where you were in the files (docs/tui.md \"Sessions\")") \
    X(THEME, "theme", "NAME", "TUI: colour theme")                                                \
    X(ASCII, "ascii", NULL, "TUI: draw lines with ASCII characters")                              \
    X(KEYS, "keys", "FILE", "testing: run the TUI on the key names in FILE, without a terminal")  \
    X(SIZE, "size", "WxH", "testing: the virtual screen size for --keys (default 80x24)")         \
    X(DUMP, "dump", "OUT", "testing: write the final screen (and each <Dump>) to OUT")            \
    X(TEST, "test", "NAME=N", "testing: a test option (docs/testing.md; repeatable)")              \
    X(HELP, "help", NULL, "show this help")                                                       \
    X(VERSION, "version", NULL, "show the version")

typedef enum pv_cli_option {
#define PV_CLI_ENUM(name, lng, arg, help) PV_OPT_##name,
    PV_CLI_OPTIONS(PV_CLI_ENUM)
#undef PV_CLI_ENUM
    PV_OPT_COUNT
} pv_cli_option;

typedef struct pv_cli_args {
    const char *command; /* "info", "cat", or NULL for the TUI */
    const char **files;
    size_t file_count;
    const char *values[PV_OPT_COUNT]; /* argument of each option given, or "" for flags */
    pv_test_options test;             /* every --test NAME=N */
    pv_load_options load;
} pv_cli_args;

static inline bool pv_cli_has(const pv_cli_args *a, pv_cli_option o) { return a->values[o] != NULL; }

int pv_cmd_info(const pv_cli_args *a);
int pv_cmd_cat(const pv_cli_args *a);
int pv_cmd_sql(const pv_cli_args *a);
int pv_cmd_diff(const pv_cli_args *a);
int pv_cmd_view(const pv_cli_args *a);
int pv_cmd_export(const pv_cli_args *a);

/* The progress bar on stderr (progress.c): attach sets p's reporter when
 * stderr is a terminal; end erases the bar. */
void pv_cli_progress_attach(pv_progress *p, const pv_test_options *test);
void pv_cli_progress_end(void);

/* Loads every file of the command; prints errors to stderr.  Returns NULL
 * (after printing) when a file could not be loaded. */
pv_file *pv_cli_load(const char *path, const pv_cli_args *a);

#endif
