#ifndef PV_FORMATS_PROFVIEW_DB_H
#define PV_FORMATS_PROFVIEW_DB_H
/*
 * profview_db.h - the profview schema's views read into another format's
 * load: an AQTime subset stores its selected view as shown beside AQTime's
 * tables (docs/export.md "AQTime subsets").
 */
#include <sqlite3.h>
#include <stdbool.h>

#include "profview/model.h"

/* Every view listed in db's profview_views (schema version 2) replaces the
 * view of the same id in the result set of its set_id (or is added to it),
 * with its stored details.  True when there are none; false (an error in
 * f->diag) when a stored view does not read. */
bool pv_db_read_stored_views(pv_file *f, sqlite3 *db);

#endif
