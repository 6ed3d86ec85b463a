#ifndef XARCHIVE_CSQLITE_SHIM_H
#define XARCHIVE_CSQLITE_SHIM_H

// The system's SQLite 3 (libsqlite3-dev on Debian, sqlite from Homebrew). Only the files in
// Sources/XArchive/Database import it.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import: the
// binders below tell SQLite to copy the bytes before they return, so that no Swift buffer has
// to outlive the call.
static inline int xarchive_bind_text(sqlite3_stmt *statement, int index, const char *text, int length) {
  return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

#endif
