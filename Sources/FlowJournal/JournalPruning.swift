import GRDB

/// Deletes a file's old runs when a new one begins (the rule is in `Journal`'s comment).
enum JournalPruning {
    static func prune(file: String, keeping kept: Int, in db: Database) throws {
        let rows = try Row.fetchAll(
            db, sql: "\(JournalReading.runColumns) WHERE file = ? ORDER BY started_at DESC, rowid DESC",
            arguments: [file])
        guard rows.count > kept else { return }
        var resumable: String?
        var doomed: [String] = []
        for (index, row) in rows.enumerated() {
            let run = try JournalReading.run(from: row, counts: [:])
            let unfinished = run.state.isUnfinished
            if resumable == nil, unfinished {
                resumable = run.id
                continue
            }
            if index < kept || run.state == .running { continue }
            doomed.append(run.id)
        }
        // Steps and transfers go with their run (ON DELETE CASCADE).
        let statement = try db.cachedStatement(sql: "DELETE FROM run WHERE id = ?")
        for id in doomed { try statement.execute(arguments: [id]) }
        // Shared step hashes go with the last run that named them.
        if !doomed.isEmpty {
            try db.execute(
                sql: """
                    DELETE FROM shared_step_hashes WHERE hashes_key NOT IN
                        (SELECT step_hashes_key FROM run WHERE step_hashes_key IS NOT NULL)
                    """)
        }
    }
}
