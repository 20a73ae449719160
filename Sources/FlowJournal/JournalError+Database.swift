import Foundation
import GRDB

extension JournalError {
    /// A GRDB/SQLite failure in the words of `JournalError`, naming the journal's file or folder.
    /// Only SQLite's message is kept: never the statement's arguments (they hold run data).
    static func from(_ error: any Error, file: String) -> JournalError {
        if let error = error as? JournalError { return error }
        let directory = (file as NSString).deletingLastPathComponent
        guard let error = error as? DatabaseError else {
            return .io("journal \(file): \(error)")
        }
        let message = error.message ?? "SQLite error \(error.resultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_FULL:
            return .full(directory)
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return .corrupt(file, reason: message)
        case .SQLITE_READONLY, .SQLITE_PERM:
            return .readOnly(directory, reason: message)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .io("journal \(file) stayed locked by another flow process: \(message)")
        default:
            return .io("journal \(file): \(message)")
        }
    }
}
