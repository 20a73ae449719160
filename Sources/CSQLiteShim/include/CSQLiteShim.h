#ifndef FLOW_CSQLITESHIM_H
#define FLOW_CSQLITESHIM_H
// What FlowJournal needs of SQLite that Swift cannot call: sqlite3_db_config is variadic, and
// Swift does not import variadic C functions. The connection is passed as a plain pointer so that
// this module does not declare SQLite's types a second time beside GRDB's own SQLite module.

/// Tells SQLite not to checkpoint the write-ahead log into the database file when `connection`,
/// the last one open, closes (SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE). Returns SQLite's result code.
int flow_sqlite_skip_checkpoint_on_close(void *connection);

#endif
