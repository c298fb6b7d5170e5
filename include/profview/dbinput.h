/*
 * dbinput.h - opening a SQLite database the user gave as input, as hostile
 * input (docs/input.md "Databases"): read-only, with its WAL when it has
 * one, SQLite's defensive mode, no trust in the schema's functions, bounds
 * on the length of a value and on the work a statement may do, and Ctrl-C.
 */
#ifndef PROFVIEW_DBINPUT_H
#define PROFVIEW_DBINPUT_H

#include <sqlite3.h>
#include <stdatomic.h>
#include <stdint.h>

#include "profview/core.h"

/* The largest string or blob an input database may hand us (a name, a
 * stack): beyond it SQLite fails the statement (SQLITE_TOOBIG). */
#define PV_DB_MAX_LENGTH (64 * 1024 * 1024)

/* What a connection to an input may spend: its progress handler (every
 * 1000 virtual-machine steps) stops the statement when *cancel is set or
 * the connection has spent its budget (a view that never ends, a sort of a
 * recursive CTE).  Shared by the connections of one file (atomic); lives
 * as long as they do. */
typedef struct pv_db_guard {
    _Atomic(atomic_int *) cancel; /* or NULL: honoured while set */
    uint64_t budget;              /* in units of 1000 steps */
    atomic_uint_least64_t used;
    atomic_bool over;             /* the budget was spent: say so */
} pv_db_guard;

/* A budget for a file of `bytes`: far more than reading every row of it
 * takes, seconds for a file of a few pages that asks for billions. */
void pv_db_guard_init(pv_db_guard *g, uint64_t bytes, atomic_int *cancel);

/* The URI to open an input at `path` read-only: `immutable=1` (SQLite then
 * takes no lock and reads no journal: nobody writes our inputs) unless a
 * non-empty `PATH-wal` is beside it, whose transactions are part of the
 * database: then `mode=ro`, so that SQLite reads them (*wal true). */
char *pv_db_input_uri(const char *path, bool *wal);

/* Opens `uri` (pv_db_input_uri) read-only (plus `flags`, e.g.
 * SQLITE_OPEN_NOMUTEX) and hardens the connection (pv_db_harden).  A
 * database with a WAL that cannot be read so (no -shm and a directory we
 * cannot write) is opened immutable instead, and *note (malloc'd, or
 * NULL) says that its last transactions are not read. */
int pv_db_open_input(const char *path, const char *uri, int flags, pv_db_guard *g,
                     sqlite3 **db, char **note);

/* SQLITE_DBCONFIG_DEFENSIVE, trusted_schema=OFF, no extension loading,
 * the length limit, no memory map, and the guard's progress handler. */
void pv_db_harden(sqlite3 *db, pv_db_guard *g);

/* For a failed statement: "stopped: ..." when the guard stopped it (budget
 * or cancel), else sqlite3_errmsg. */
const char *pv_db_errmsg(sqlite3 *db);
/* True when the last statement of this thread that the guard stopped was
 * stopped for its budget (not for a cancel). */
bool pv_db_budget_spent(void);

#endif
