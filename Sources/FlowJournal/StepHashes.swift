/// A run's step definition hashes, built straight into the text the journal keeps them as
/// (`StepHashText`): no string and no map entry a step. A 10,000-step run's hashes cost the
/// journal's thread about 7 ms as a map of strings, encoded afterwards.
package struct StepHashes: Sendable {
    /// The text so far, while every id could be written as a line (unused once `map` is set).
    private var bytes: [UInt8]
    private let shared: String
    /// The hashes as a map, once an id held a tab or a line break (kept as JSON then).
    private var map: [String: String]?

    /// An empty list whose hashes all start with `shared`; each step gives the rest of its hash.
    package init(shared: String) {
        self.shared = shared
        bytes = Array(StepHashText.header.utf8) + Array(shared.utf8)
    }

    /// The hashes of `map`.
    package init(_ map: [String: String]) {
        shared = ""
        bytes = []
        self.map = map
    }

    /// Adds `step`, whose hash is the shared start and `rest`.
    package mutating func add(step: String, rest: String) {
        var rest = rest
        rest.withUTF8 { rest in add(step: step, count: rest.count) { $0.append(contentsOf: rest) } }
    }

    /// Adds `step`, whose hash is the shared start and `value` in lowercase hex without leading
    /// zeros (as `String(value, radix: 16)` writes it).
    package mutating func add(step: String, hexDigitsOf value: UInt64) {
        let digits = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        add(step: step, count: digits) { bytes in
            for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                let digit = UInt8((value >> UInt64(shift)) & 0xF)
                bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
            }
        }
    }

    private mutating func add(step: String, count: Int, rest: (inout [UInt8]) -> Void) {
        if map == nil {
            var step = step
            let written = step.withUTF8 { id in
                // A tab or a line break would break the lines: the list is kept as JSON instead.
                guard !id.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 }) else { return false }
                bytes.append(10)
                bytes.append(contentsOf: id)
                bytes.append(9)
                return true
            }
            if written {
                rest(&bytes)
                return
            }
            map = (try? StepHashText.decode(String(decoding: bytes, as: UTF8.self))) ?? [:]
        }
        var tail: [UInt8] = []
        tail.reserveCapacity(count)
        rest(&tail)
        map?[step] = shared + String(decoding: tail, as: UTF8.self)
    }

    /// The text `StepHashText.decode` reads.
    var text: String {
        if let map { return StepHashText.encode(map) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The hashes by step id.
    package var byStep: [String: String] {
        map ?? (try? StepHashText.decode(text)) ?? [:]
    }
}
