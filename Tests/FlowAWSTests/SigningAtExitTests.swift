import FlowDigest
import Foundation
import Testing

/// A process that exits while other threads sign with HMAC-SHA256 (a FlowKit host quitting while
/// its run's AWS requests are signed on Dispatch workers; `flow` quitting at once on a second
/// Ctrl-C) exits; it does not crash in libcrypto. OpenSSL's exit-time cleanup, which CDigest turns
/// off before main (OpenSSLExit.c), freed the state that HMAC looks its digest up in under those
/// threads: with it, about one such exit in three ended with SIGSEGV, SIGBUS or SIGABRT (34 of 100
/// on a loaded 2-core machine).
@Suite struct SigningAtExitTests {
    @Test func exitingWhileThreadsSignDoesNotCrash() async {
        // Thirty exits, about 1.5 s: with the cleanup, that none of them crashes is beyond chance.
        for _ in 0..<30 {
            await #expect(processExitsWith: .exitCode(0)) {
                // Exits once every thread is signing, not before one has started on a loaded machine.
                let signing = DispatchSemaphore(value: 0)
                for _ in 0..<4 {
                    Thread {
                        let key = [UInt8](repeating: 1, count: 32)
                        let message = [UInt8](repeating: 2, count: 64)
                        for _ in 0..<100 { _ = HMACSHA256.authenticationCode(key: key, message: message) }
                        signing.signal()
                        while true { _ = HMACSHA256.authenticationCode(key: key, message: message) }
                    }.start()
                }
                for _ in 0..<4 { signing.wait() }
                exit(0)
            }
        }
    }
}
