/* main.c - profview's entry point: parses the command line and dispatches. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "profview/tui.h"

#ifndef PROFVIEW_VERSION
#define PROFVIEW_VERSION "0.1.0"
#endif

static const struct {
    const char *name;
    const char *arg;
    const char *help;
} pv_option_info[] = {
#define PV_CLI_INFO(name, lng, arg, help) {lng, arg, help},
    PV_CLI_OPTIONS(PV_CLI_INFO)
#undef PV_CLI_INFO
};

static const struct {
    const char *name;
    const char *usage;
    int (*run)(const pv_cli_args *);
} pv_commands[] = {
    {"info", "profview info FILE... [--json]", pv_cmd_info},
    {"cat",
     "profview cat FILE --view ID [--instance N] [--context NAME] [--parent ID]\n"
     "                [--filter EXPR] [--sort COL[:desc][,COL...]] [--columns C1,C2,...]\n"
     "                [--from TIME] [--to TIME] [--limit N] [--format tsv|csv|json|folded]\n"
     "                (--view flame: call paths merged from the root; --format folded:\n"
     "                STACK SELF lines for flamegraph.pl, inferno, speedscope, flamelens)",
     pv_cmd_cat},
    {"sql", "profview sql FILE... \"SELECT ...\" [--format tsv|csv|json]   (docs/sql.md)",
     pv_cmd_sql},
    {"diff",
     "profview diff A B --view ID [--instance N] [--instance-b N] [--from-b TIME] [--to-b TIME]\n"
     "                [cat's options]\n"
     "                (rows matched by identity; C_a, C_b, C_delta, C_ratio per numeric C)",
     pv_cmd_diff},
    {"export",
     "profview export FILE --format text1|bin|sqlite|trace-json -o OUT [--bin-version 1.0|1.1]\n"
     "                [--view ID] [--filter EXPR] [--from TIME] [--to TIME] [--context NAME]\n"
     "                [--areas GLOB] [--profile FILE] [--force] [--instance N]",
     pv_cmd_export},
};

static void pv_print_help(FILE *fp)
{
    fprintf(fp, "profview %s - a terminal viewer for AQTime, winIDEA and MSVC PLIST profiler "
                "results\n\nUsage:\n"
                "  profview [--theme NAME] [--ascii] [--no-session] FILE...   the interactive viewer\n",
            PROFVIEW_VERSION);
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_commands); i++)
        fprintf(fp, "  %s\n", pv_commands[i].usage);
    fprintf(fp, "  profview --help | --version\n\nOptions:\n");
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_option_info); i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", pv_option_info[i].name,
                 pv_option_info[i].arg ? " " : "", pv_option_info[i].arg ? pv_option_info[i].arg : "");
        fprintf(fp, "  %-28s %s\n", left, pv_option_info[i].help);
    }
    size_t count;
    const pv_loader *const *loaders = pv_loaders(&count);
    fprintf(fp, "\nFormats (detected by content; --input-format NAME forces one):\n");
    for (size_t i = 0; i < count; i++)
        fprintf(fp, "  %-16s %s\n", loaders[i]->name, loaders[i]->description);
    pv_tui_print_keys(fp);
    fprintf(fp, "\nFILE may be - (standard input), a pipe, a FIFO or <(command): it is read\n"
                "once, whole (an SQLite database through a private temporary file).\n"
                "On a terminal, a big input shows a progress bar on stderr while it loads.\n"
                "TIME takes a unit: 4469 (ns), 4.469us, 12ms, 1.5s.\n"
                "Exit status: 0 success, 1 usage error, 2 input error, 3 output error\n"
                "(the output could not be written: a full disk...; a reader that closes\n"
                "the pipe early, as head does, ends the command quietly with 0).\n");
}

/* `profview` alone: what to type, in a few lines (the whole help is long). */
static void pv_print_usage(FILE *fp)
{
    fprintf(fp, "usage: profview [--theme NAME] [--ascii] [--no-session] FILE...   open the viewer\n");
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_commands); i++) {
        const char *u = pv_commands[i].usage;
        const char *nl = strchr(u, '\n');
        fprintf(fp, "       %.*s%s\n", nl ? (int)(nl - u) : (int)strlen(u), u, nl ? " ..." : "");
    }
    fprintf(fp, "Try 'profview --help' for every option, the keys and the formats.\n");
}

static int pv_usage_error(const char *fmt, ...) PV_PRINTF(1, 2);
static int pv_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("profview: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\nTry 'profview --help'.\n", stderr);
    return PV_EXIT_USAGE;
}

/* Turns the option values that every command shares into load options. */
static int pv_cli_prepare(pv_cli_args *a)
{
    pv_load_options_init(&a->load);
    a->load.test = a->test;
    a->load.format = a->values[PV_OPT_INPUT_FORMAT];
    pv_cli_progress_attach(&a->load.progress, &a->test); /* the viewer sets its own */
    a->load.context_area = a->values[PV_OPT_CONTEXT_AREA];
    /* docs/cache.md: the index cache, unless --no-cache or the config's
     * cache section turns it off */
    a->load.cache = true;
    pv_tui_config_cache(&a->load);
    if (pv_cli_has(a, PV_OPT_NO_CACHE))
        a->load.cache = false;
    if (a->load.format && !pv_loader_find(a->load.format))
        return pv_usage_error("unknown --input-format '%s'", a->load.format);
    const char *bv = a->values[PV_OPT_BIN_VERSION];
    if (bv) {
        if (strcmp(bv, "1.0") == 0)
            a->load.bin_version = 10;
        else if (strcmp(bv, "1.1") == 0)
            a->load.bin_version = 11;
        else
            return pv_usage_error("--bin-version takes 1.0 or 1.1, not '%s'", bv);
    }
    if (a->values[PV_OPT_FROM]) {
        if (!pv_parse_time(a->values[PV_OPT_FROM], &a->load.from))
            return pv_usage_error("--from: '%s' is not a time (e.g. 4469, 4.469us, 12ms)",
                                  a->values[PV_OPT_FROM]);
        a->load.has_from = true;
    }
    if (a->values[PV_OPT_TO]) {
        if (!pv_parse_time(a->values[PV_OPT_TO], &a->load.to))
            return pv_usage_error("--to: '%s' is not a time (e.g. 4469, 4.469us, 12ms)",
                                  a->values[PV_OPT_TO]);
        a->load.has_to = true;
    }
    if (a->load.has_from && a->load.has_to && a->load.from > a->load.to)
        return pv_usage_error("--from %s is after --to %s: the window would be empty",
                              a->values[PV_OPT_FROM], a->values[PV_OPT_TO]);
    return PV_EXIT_OK;
}

static int pv_run(int argc, char **argv)
{
    pv_cli_args args;
    memset(&args, 0, sizeof args);

    struct option long_options[PV_OPT_COUNT + 1];
    for (size_t i = 0; i < PV_OPT_COUNT; i++) {
        long_options[i].name = pv_option_info[i].name;
        long_options[i].has_arg = pv_option_info[i].arg ? required_argument : no_argument;
        long_options[i].flag = NULL;
        long_options[i].val = 1000 + (int)i;
    }
    long_options[PV_OPT_COUNT] = (struct option){NULL, 0, NULL, 0};

    int first = 1;
    if (argc > 1) {
        for (size_t i = 0; i < PV_ARRAY_LEN(pv_commands); i++)
            if (strcmp(argv[1], pv_commands[i].name) == 0) {
                args.command = pv_commands[i].name;
                first = 2;
            }
    }
    /* getopt sees the arguments after the command word. */
    char **sub_argv = argv + first - 1;
    int sub_argc = argc - first + 1;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(sub_argc, sub_argv, ":ho:", long_options, NULL)) != -1) {
        if (c == 'h') {
            args.values[PV_OPT_HELP] = "";
        } else if (c == 'o') {
            args.values[PV_OPT_OUTPUT] = optarg;
        } else if (c == 1000 + PV_OPT_TEST) {
            char err[256];
            if (!pv_test_parse(&args.test, optarg, err, sizeof err))
                return pv_usage_error("%s", err);
            args.values[PV_OPT_TEST] = optarg;
        } else if (c >= 1000 && c < 1000 + PV_OPT_COUNT) {
            args.values[c - 1000] = optarg ? optarg : "";
        } else if (c == ':') {
            return pv_usage_error("option '%s' needs a value", sub_argv[optind - 1]);
        } else {
            return pv_usage_error("unknown option '%s'", sub_argv[optind - 1]);
        }
    }
    if (pv_cli_has(&args, PV_OPT_HELP)) {
        pv_print_help(stdout);
        return PV_EXIT_OK;
    }
    if (pv_cli_has(&args, PV_OPT_VERSION)) {
        printf("profview %s\n", PROFVIEW_VERSION);
        return PV_EXIT_OK;
    }
    args.files = (const char **)(sub_argv + optind);
    args.file_count = (size_t)(sub_argc - optind);
    if (args.file_count == 0) {
        if (!args.command && argc == 1) {
            pv_print_usage(stderr);
            return PV_EXIT_USAGE;
        }
        return pv_usage_error("%s", "no input file given");
    }
    int rc = pv_cli_prepare(&args);
    if (rc != PV_EXIT_OK)
        return rc;
    for (size_t i = 0; i < PV_ARRAY_LEN(pv_commands); i++)
        if (args.command && strcmp(args.command, pv_commands[i].name) == 0)
            return pv_commands[i].run(&args);
    return pv_cmd_view(&args);
}

/* docs/cli.md: a failed write on stdout is an output error (3), whatever the
 * command found in its input, with a message; a command that found it
 * itself (PV_EXIT_OUTPUT) has said so already. */
static int pv_check_output(int rc)
{
    errno = 0;
    bool failed = fflush(stdout) != 0;
    int err = errno;
    /* docs/input.md "Files that change": an input changed while it was
     * read; what came of it is not to be trusted */
    char changed[512];
    while (pv_inputs_changed(changed, sizeof changed)) {
        fprintf(stderr,
                "profview: error: %s changed on disk while it was open (truncated or "
                "overwritten): what was read of it is not to be trusted; run again\n",
                changed);
        rc = PV_EXIT_INPUT;
    }
    if (rc == PV_EXIT_OUTPUT)
        return rc;
    if (!failed && !ferror(stdout))
        return rc;
    if (err == 0 && pv_cli_reader_gone())
        return rc; /* the command saw the closed pipe and stopped */
    errno = err;
    int out = pv_cli_write_failed();
    return out == PV_EXIT_OK ? rc : out;
}

int main(int argc, char **argv)
{
    pv_cli_escape_stderr();
    return pv_check_output(pv_run(argc, argv));
}
