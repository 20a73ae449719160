extension NodeReader {
    /// A mapping's entries looked up by key. A step or request has a handful of keys: a scan of
    /// them costs less than hashing each into a dictionary built per mapping.
    struct Fields {
        let entries: [Entry]

        init(_ entries: [Entry]) {
            self.entries = entries
        }

        /// The entry of `key` (the first, should a key repeat), or nil.
        subscript(key: String) -> Entry? {
            // Comparing lengths first skips most of String's full comparison (keys are short).
            let length = key.utf8.count
            for entry in entries where entry.key.utf8.count == length && entry.key == key { return entry }
            return nil
        }
    }
}
