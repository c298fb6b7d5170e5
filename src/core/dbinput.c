/* dbinput.c - opening an input database as hostile input (dbinput.h,
 * docs/input.md "Databases"). */
#include "profview/dbinput.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The loaders spend well under one step of SQLite's per byte of the file
 * (measured: 0.1-0.4 for AQTime files of 0.7-49 MB from the generator, and
 * profview exports of 68-198 MB): 15 steps per byte leaves a margin of 40
 * or more, and 2^26 steps (a second or two) stop a view of a small file
 * that never ends. */
void pv_db_guard_init(pv_db_guard *g, uint64_t bytes, atomic_int *cancel)
{
    atomic_init(&g->cancel, cancel);
    g->budget = (uint64_t)1 << 16;
    g->budget += bytes / 64;
    atomic_init(&g->used, 0);
    atomic_init(&g->over, false);
}

/* The guard that stopped the last statement of this thread for its budget
 * (pv_db_errmsg says so). */
static _Thread_local bool pv_db_over_here;

static int pv_db_progress(void *arg)
{
    pv_db_guard *g = arg;
    atomic_int *cancel = atomic_load(&g->cancel);
    if (cancel && atomic_load(cancel))
        return 1;
    if (g->budget && atomic_fetch_add(&g->used, 1) >= g->budget) {
        atomic_store(&g->over, true);
        pv_db_over_here = true;
        return 1;
    }
    return 0;
}

char *pv_db_input_uri(const char *path, bool *wal)
{
    pv_buf b;
    pv_buf_init(&b);
    pv_buf_printf(&b, "%s-wal", path);
    struct stat st;
    *wal = stat(pv_buf_cstr(&b), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
    pv_buf_clear(&b);
    pv_buf_put_immutable_uri(&b, path);
    if (*wal) {
        /* the same URI, read-only instead of immutable */
        size_t tail = strlen("?immutable=1");
        b.len -= tail;
        b.data[b.len] = '\0';
        pv_buf_puts(&b, "?mode=ro");
    }
    return b.data;
}

void pv_db_harden(sqlite3 *db, pv_db_guard *g)
{
    sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
    sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 1, NULL);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, PV_DB_MAX_LENGTH);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 1 << 20);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_exec(db, "PRAGMA trusted_schema=OFF; PRAGMA mmap_size=0;", NULL, NULL, NULL);
    if (g)
        sqlite3_progress_handler(db, 1000, pv_db_progress, g);
}

int pv_db_open_input(const char *path, const char *uri, int flags, pv_db_guard *g,
                     sqlite3 **db, char **note)
{
    if (note)
        *note = NULL;
    *db = NULL;
    pv_db_over_here = false;
    int rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | flags, NULL);
    if (rc == SQLITE_OK) {
        pv_db_harden(*db, g);
        if (strstr(uri, "?mode=ro")) {
            /* with a WAL: SQLite opens it (and its -shm) at the first read */
            rc = sqlite3_exec(*db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
            if (rc != SQLITE_OK && rc != SQLITE_INTERRUPT) {
                char *why = pv_xstrdup(sqlite3_errmsg(*db));
                sqlite3_close(*db);
                *db = NULL;
                pv_buf b;
                pv_buf_init(&b);
                pv_buf_put_immutable_uri(&b, path);
                rc = sqlite3_open_v2(pv_buf_cstr(&b), db,
                                     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | flags, NULL);
                pv_buf_free(&b);
                if (rc == SQLITE_OK)
                    pv_db_harden(*db, g);
                if (note)
                    *note = pv_xasprintf("%s: its write-ahead log (%s-wal) cannot be read (%s): "
                                         "the transactions in it are not shown",
                                         path, path, why);
                free(why);
            } else {
                rc = SQLITE_OK;
            }
        }
    }
    return rc;
}

const char *pv_db_errmsg(sqlite3 *db)
{
    if (sqlite3_errcode(db) == SQLITE_INTERRUPT && pv_db_over_here)
        return "stopped: reading it took far more work than a database of its size needs "
               "(a view that never ends?)";
    if (sqlite3_errcode(db) == SQLITE_INTERRUPT)
        return "cancelled";
    return sqlite3_errmsg(db);
}

bool pv_db_budget_spent(void)
{
    return pv_db_over_here;
}
