internal import CCurlShim
import FlowTasks

/// curl easy handles kept for the next requests, so that a caller sending one request after
/// another (an upload's chunks, a crawl of pages) pays neither `curl_easy_init` nor
/// `curl_easy_cleanup` a request, and curl keeps the handle's buffers (the 64 KiB upload buffer
/// among them) instead of allocating them again.
///
/// A handle given back is reset (`curl_easy_reset`: every option back to its default; the
/// connections stay in the multi handle's cache either way) only when the loop is about to wait
/// in poll, not between an answer and the next request that its callback sends. Handles that used
/// the cookie jar (a share) or carried a MIME body are not given back: the reset keeps a handle's
/// cookies and shares, and a MIME body belongs to its handle.
///
/// Confined to the loop thread, like the handles themselves (see `CurlLoop`).
final class EasyHandlePool {
    /// Handles reset and ready for a new request.
    private var clean: [UnsafeMutableRawPointer] = []
    /// Handles given back since the last `tidy`, not reset yet.
    private var used: [UnsafeMutableRawPointer] = []
    /// How many handles are kept at most; more are cleaned up when given back.
    let limit: Int
    /// How many handles `take` had to make (`curl_easy_init`), read by other threads (tests).
    private let made: LockedBox<Int>

    init(limit: Int = 16, made: LockedBox<Int>) {
        self.limit = limit
        self.made = made
    }

    /// A handle with every option at its default: a kept one, else a new one; nil when curl
    /// cannot make one.
    func take() -> UnsafeMutableRawPointer? {
        if let easy = clean.popLast() { return easy }
        if let easy = used.popLast() {
            // Given back in this same turn of the loop (several requests started at once).
            curl_easy_reset(easy)
            return easy
        }
        made.withLock { $0 += 1 }
        return curl_easy_init()
    }

    /// Takes back a handle its transfer is done with (already removed from the multi handle).
    func giveBack(_ easy: UnsafeMutableRawPointer) {
        guard clean.count + used.count < limit else {
            curl_easy_cleanup(easy)
            return
        }
        used.append(easy)
    }

    /// Resets the handles given back since the last call: the loop calls it before it waits.
    func tidy() {
        while let easy = used.popLast() {
            curl_easy_reset(easy)
            clean.append(easy)
        }
    }

    /// Frees every kept handle (the loop's end).
    func closeAll() {
        for easy in clean + used { curl_easy_cleanup(easy) }
        clean = []
        used = []
    }
}
