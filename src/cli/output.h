/* output.h - the CLI's stderr, and the rows it writes (profview/output.h). */
#ifndef PROFVIEW_CLI_OUTPUT_H
#define PROFVIEW_CLI_OUTPUT_H

#include <stdio.h>

#include "profview/output.h"

/* From now on stderr escapes what it writes (controls, C1, invalid UTF-8
 * as \xNN; newlines and tabs kept): every message of the CLI and the
 * viewer, whatever file name or input it quotes, reaches the terminal
 * inert.  The progress bar, which writes its own control sequences, uses
 * pv_cli_stderr_raw(). */
void pv_cli_escape_stderr(void);
FILE *pv_cli_stderr_raw(void);

#endif
