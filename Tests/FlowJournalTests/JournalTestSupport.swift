import Foundation
import GRDB

@testable import FlowJournal

extension Journal {
    /// A synchronous read of the journal's database (in an async test, `database.read` would pick
    /// GRDB's async form).
    func reading<T>(_ body: (Database) throws -> T) throws -> T {
        try database.read(body)
    }

    /// `flush`, awaited without blocking a thread of the test pool.
    func flushed() async throws {
        let error: JournalError? = await withCheckedContinuation { continuation in
            flush { continuation.resume(returning: $0) }
        }
        if let error { throw error }
    }
}

/// The bytes of `path`, empty when it does not exist.
func bytes(of path: String) -> Data {
    FileManager.default.contents(atPath: path) ?? Data()
}
