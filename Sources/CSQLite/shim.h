#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call. SQLite counts every allocation it makes
// under one process-wide mutex unless told not to; we never read those counts.
static inline int csqlite_stop_counting_memory(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
