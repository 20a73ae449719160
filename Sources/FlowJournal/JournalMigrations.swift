import GRDB

/// Brings a journal's tables to the version this flow knows, recorded in `PRAGMA user_version`.
///
/// Not GRDB's `DatabaseMigrator`: two processes creating the same new journal at once must not both
/// create the tables. Here the check and the creation happen in one IMMEDIATE transaction, which
/// takes the write lock first, so the second process waits and then finds the tables made.
enum JournalMigrations {
    static let steps: [@Sendable (Database) throws -> Void] = [
        JournalSchema.createVersion1, JournalSchema.createVersion2, JournalSchema.markVersion3,
        JournalSchema.createVersion4, JournalSchema.markVersion5, JournalSchema.markVersion6,
    ]

    static func migrate(_ database: DatabaseQueue, file: String) throws {
        try database.write { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            if version > steps.count { throw tooNew(file: file, version: version) }
            for index in version..<steps.count {
                try steps[index](db)
                try db.execute(sql: "PRAGMA user_version = \(index + 1)")
            }
        }
    }

    static func tooNew(file: String, version: Int) -> JournalError {
        .io(
            "journal \(file) was written by a newer flow (format \(version), this flow knows "
                + "\(steps.count)); use that flow, or --state-dir for a new journal")
    }
}
