extension NodeReader {
    /// A mapping's entries looked up by key. A step or request has a handful of keys: a scan of
    /// them costs less than hashing each into a dictionary built per mapping.
    struct Fields {
        let entries: Entries
        /// One bit per key length (`bit(_:)`), so that most keys the mapping lacks, the usual case, are
        /// answered without comparing texts or copying entries (issue 19).
        private let signature: UInt64

        init(_ entries: Entries) {
            self.entries = entries
            var signature: UInt64 = 0
            for entry in entries { signature |= Self.bit(entry.key) }
            self.signature = signature
        }

        /// A bit chosen by a key's length alone: reading its first byte too cost more than the
        /// comparisons it saved (issue 19).
        private static func bit(_ key: String) -> UInt64 {
            1 << UInt64(key.utf8.count & 63)
        }

        /// The entry of `key` (the first, should a key repeat), or nil.
        subscript(key: String) -> Entry? {
            guard signature & Self.bit(key) != 0 else { return nil }
            // Comparing lengths first skips most of String's full comparison (keys are short).
            let length = key.utf8.count
            // By position: only the entry found is copied, not each one compared (issue 19).
            for index in entries.indices where entries[index].key.utf8.count == length && entries[index].key == key {
                return entries[index]
            }
            return nil
        }
    }

    /// A fixed set of keys looked up by length first, then compared: for the few keys of a step
    /// or request, cheaper than hashing each into a `Set` (issue 19).
    struct KeySet {
        /// The keys by their UTF-8 length.
        private let byLength: [[String]]

        init(_ keys: [String]) {
            var byLength: [[String]] = []
            for key in keys {
                let length = key.utf8.count
                while byLength.count <= length { byLength.append([]) }
                byLength[length].append(key)
            }
            self.byLength = byLength
        }

        func contains(_ key: String) -> Bool {
            let length = key.utf8.count
            guard length < byLength.count else { return false }
            for candidate in byLength[length] where candidate == key { return true }
            return false
        }
    }
}
