import GRDB

/// The journal's tables, one function per format version (see `JournalMigrations`).
enum JournalSchema {
    static func createVersion1(_ db: Database) throws {
        // Times are seconds since 1970 (REAL); maps are JSON text. `item` is -1 for a step
        // without items so that it can be part of the primary key (NULLs never conflict).
        try db.execute(
            sql: """
                CREATE TABLE run (
                    id TEXT PRIMARY KEY NOT NULL,
                    file TEXT NOT NULL,
                    file_hash TEXT NOT NULL,
                    step_hashes TEXT NOT NULL,
                    inputs TEXT NOT NULL,
                    state TEXT NOT NULL,
                    started_at REAL NOT NULL,
                    finished_at REAL,
                    pid INTEGER NOT NULL,
                    pid_started TEXT NOT NULL,
                    host TEXT NOT NULL
                );
                CREATE INDEX run_by_file ON run(file, started_at);
                CREATE TABLE step (
                    run_id TEXT NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    step TEXT NOT NULL,
                    item INTEGER NOT NULL,
                    state TEXT NOT NULL,
                    attempts INTEGER NOT NULL,
                    started_at REAL,
                    finished_at REAL,
                    outputs_json TEXT,
                    contains_secret INTEGER NOT NULL DEFAULT 0,
                    error TEXT,
                    unsafe_in_flight INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (run_id, step, item)
                ) WITHOUT ROWID;
                CREATE TABLE transfer (
                    run_id TEXT NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    step TEXT NOT NULL,
                    item INTEGER NOT NULL,
                    kind TEXT NOT NULL,
                    target TEXT NOT NULL,
                    bytes_confirmed INTEGER NOT NULL,
                    file_identity TEXT NOT NULL,
                    PRIMARY KEY (run_id, step, item, kind)
                ) WITHOUT ROWID;
                """)
    }

    /// Format 2: step changes as one cell per run and batch (see `StepLog`), not a row per step;
    /// and the step hashes in a table of their own. The `step` and `transfer` tables and the run's
    /// `step_hashes` column stay, read for the runs format 1 wrote.
    ///
    /// Why the hashes moved: a 10,000-step run's map is about 700 KB, which SQLite keeps on
    /// overflow pages inside the run's row. Every update of the row (its end) wrote it all again,
    /// and reading a column stored after it (the state, which listing and pruning read for every
    /// run) read it all: 35 MB a run once the journal held 50 such runs.
    /// Format 3 changes no table: its step log may hold `finishedStateOnly` changes, which a flow
    /// that knows format 2 would take for damage. Marking the journal lets such a flow refuse it
    /// as written by a newer flow instead.
    static func markVersion3(_ db: Database) throws {}

    /// Format 4: step hashes a run shares with the other runs of the same file text
    /// (`JournalChange.sharedStepHashes`), stored once under a key the run's row names, rather
    /// than a copy a run. A 10,000-step workflow's hashes are about 240 KB: building, writing,
    /// checkpointing and pruning a copy each run was a tenth of what its journal cost.
    static func createVersion4(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE run ADD COLUMN step_hashes_key TEXT;
                CREATE TABLE shared_step_hashes (
                    hashes_key TEXT PRIMARY KEY NOT NULL,
                    step_hashes TEXT NOT NULL
                );
                """)
    }

    /// Format 5 changes no table: a `for-each` step whose items all succeeded may be recorded
    /// without them (the engine's entry names their count; its items' own ends hold them), and
    /// items' starts are held back as steps' are. A flow that knows format 4 would read such a
    /// step as having no items; marking the journal lets it refuse it as written by a newer flow.
    static func markVersion5(_ db: Database) throws {}

    /// Format 6 changes no table: its step log may hold `itemEnds` changes (a `for-each` step's
    /// items' ends in a few bytes each, `StepLogEncoder.addItemEnd`), which a flow that knows
    /// format 5 would take for damage. Marking the journal lets it refuse it as written by a newer
    /// flow instead.
    static func markVersion6(_ db: Database) throws {}

    static func createVersion2(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE step_log (
                    seq INTEGER PRIMARY KEY,
                    run_id TEXT NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    changes BLOB NOT NULL
                );
                CREATE INDEX step_log_by_run ON step_log(run_id, seq);
                CREATE TABLE run_step_hashes (
                    run_id TEXT PRIMARY KEY NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                    step_hashes TEXT NOT NULL
                );
                """)
    }
}
