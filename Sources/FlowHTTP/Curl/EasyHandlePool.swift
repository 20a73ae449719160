internal import CCurlShim

/// Easy handles of finished transfers, kept to run the next ones: a transfer on a fresh handle
/// costs `curl_easy_init`, its buffers allocated again (the 64 KiB upload buffer, the download
/// buffer) and `curl_easy_cleanup`, once per request: a tenth of the CPU of an upload sent in
/// 100 KiB chunks. `curl_easy_reset` returns a handle to its defaults before it is kept, so no
/// option, callback or context pointer of the last transfer reaches the next; only what libcurl
/// documents reset as keeping stays (its buffers, DNS and TLS session caches, and the cookies and
/// share of a handle that used them: such handles are not kept, see `Transfer.reusableHandle`).
///
/// Confined to the loop thread, like the multi handle (see `CurlLoop`).
final class EasyHandlePool {
    /// The most handles kept: enough for the transfers a run has in flight at once on most
    /// workflows; a handle beyond it is cleaned up as before.
    static let capacity = 16

    private var idle: [UnsafeMutableRawPointer] = []

    /// A kept handle, reset, or nil when none is left.
    func take() -> UnsafeMutableRawPointer? {
        idle.popLast()
    }

    /// Resets `easy` (already removed from the multi handle) and keeps it, or cleans it up when
    /// the pool is full.
    func keep(_ easy: UnsafeMutableRawPointer) {
        curl_easy_reset(easy)
        if idle.count < Self.capacity {
            idle.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
    }

    /// Cleans every kept handle up (the loop is closing).
    func drain() {
        for easy in idle { curl_easy_cleanup(easy) }
        idle.removeAll()
    }
}
