import Foundation
internal import NIOConcurrencyHelpers

/// The bearer tokens handed out by `POST /login`.
final class Sessions: Sendable {
    /// The one account: the demo and the tests log in with it.
    static let user = "demo"
    /// The demo account's password; documented in README.md.
    static let password = "s3cret"

    private let tokens = NIOLockedValueBox<[String: String]>([:])

    /// A new token for `user`.
    func open(for user: String) -> String {
        let token = UUID().uuidString.lowercased()
        tokens.withLockedValue { $0[token] = user }
        return token
    }

    /// The user a token belongs to, or nil for an unknown token.
    func user(for token: String) -> String? {
        tokens.withLockedValue { $0[token] }
    }

    /// Forgets every token.
    func reset() {
        tokens.withLockedValue { $0 = [:] }
    }
}
