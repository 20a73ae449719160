// `capture(text, regex[, group])` and `captureAll(text, regex[, group])`: the text a regular
// expression's group matched, as Hurl's `regex` query and filter give it.

extension Functions {
    /// `capture`: group `group` (1 unless told; 0 is the whole match; a string names a named
    /// group) of the first match, or `null` when nothing matches or the group took no part.
    /// `captureAll`: that group of every match, in order (`null` where it took no part).
    static func capture(_ name: String, _ arguments: [Value]) throws(Failure) -> Value {
        let text = arguments[0].interpolated
        let pattern = arguments[1].interpolated
        let regex: Regex<AnyRegexOutput>
        do {
            regex = try Regex(pattern)
        } catch {
            throw Failure(message: "\(name)() got an invalid regular expression '\(pattern)': \(error)")
        }
        let group = arguments.count > 2 ? arguments[2] : .number(1)
        if case .number(let number) = group, Int(exactly: number) == nil || number < 0 {
            throw Failure(
                message: "\(name)() expects a group number, 0 or more, or a group name; got \(group.interpolated)")
        }
        func groupText(_ match: Regex<AnyRegexOutput>.Match) throws(Failure) -> Value {
            let output = match.output
            let element: AnyRegexOutput.Element?
            switch group {
            case .string(let groupName):
                element = output[groupName]
                if element == nil {
                    throw Failure(
                        message: "\(name)(): the regular expression has no group named '\(Echo.text(groupName))'")
                }
            case .number(let number):
                let index = Int(number)
                guard index < output.count else {
                    throw Failure(
                        message: "\(name)(): the regular expression has \(output.count - 1) group(s), not \(index)")
                }
                element = output[index]
            default:
                element = nil
            }
            return element?.substring.map { .string(String($0)) } ?? .null
        }
        if name == "capture" {
            guard let match = text.firstMatch(of: regex) else { return .null }
            return try groupText(match)
        }
        var values: [Value] = []
        for match in text.matches(of: regex) {
            values.append(try groupText(match))
        }
        return .array(values)
    }
}
