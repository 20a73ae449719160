internal import CYaml

/// A first pass over libyaml's event stream, before anything builds a tree: it reports syntax
/// errors with their mark, and refuses nesting deeper than `InputLimits.maximumDepth` and alias
/// expansions beyond `InputLimits.maximumAliasExpansion` nodes. It keeps only a stack of counters
/// and one size per anchor, so a hostile file costs memory linear in its length.
enum YAMLPrecheck {
    /// A problem found by the pre-pass (1-based line and column).
    struct Problem: Error {
        let message: String
        let line: Int
        let column: Int
        var length = 1
        let hint: String?
        /// For a syntax error: libyaml's own words, for `LayoutHint` to recognise.
        var syntaxError: String?
    }

    private struct Frame {
        var anchor: String?
        var size = 1
        var height = 1
        /// For a mapping: each scalar key seen so far and where it is; nil for other nodes.
        var keys: [String: (line: Int, column: Int)]?
        /// For a mapping: whether its next node is a key (keys and values alternate).
        var expectsKey = true
    }

    /// The problems of `bytes`: one that stops the pass (a syntax error, a limit), or every
    /// duplicate key and tagged value (each found on its own, so one round fixes them all).
    static func check(_ bytes: [UInt8]) -> [Problem] {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return [Problem(message: "the YAML parser could not start", line: 1, column: 1, hint: nil)]
        }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return walk(&parser, bytes: buffer)
        }
    }

    private static func walk(_ parser: inout yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> [Problem] {
        var frames: [Frame] = []
        var anchors: [String: (size: Int, height: Int)] = [:]
        var expanded = 0
        var nodes = 0
        var problems: [Problem] = []
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { return problems + [syntaxProblem(parser, bytes)] }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            let column = Int(event.start_mark.column) + 1
            var finished: Frame?
            if event.type == YAML_SCALAR_EVENT || event.type == YAML_SEQUENCE_START_EVENT
                || event.type == YAML_MAPPING_START_EVENT || event.type == YAML_ALIAS_EVENT
            {
                if event.type != YAML_ALIAS_EVENT { nodes += 1 }
                if nodes > InputLimits.maximumNodes {
                    return problems + [
                        Problem(
                            message: "the YAML holds more than \(InputLimits.maximumNodes) values",
                            line: line,
                            column: column,
                            hint: "flow refuses larger documents; see \"Limits\" in Grammar.md"
                        )
                    ]
                }
                if let problem = tagProblem(event, line: line, column: column) { problems.append(problem) }
                if let problem = noteNode(event, in: &frames, line: line, column: column) { problems.append(problem) }
            }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return problems
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let anchorPointer =
                    event.type == YAML_SEQUENCE_START_EVENT
                    ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                frames.append(
                    Frame(anchor: string(anchorPointer), keys: event.type == YAML_MAPPING_START_EVENT ? [:] : nil))
                if frames.count > InputLimits.maximumDepth {
                    return problems + [
                        Problem(
                            message: "the YAML is nested more than \(InputLimits.maximumDepth) levels deep",
                            line: line,
                            column: column,
                            hint: "flow refuses deeper nesting; see \"Limits\" in Grammar.md"
                        )
                    ]
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                finished = frames.popLast()
            case YAML_SCALAR_EVENT:
                finished = Frame(anchor: string(event.data.scalar.anchor))
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                guard let target = anchors[name] else {
                    return problems + [
                        Problem(
                            message: "alias '*\(name)' refers to no anchor defined before it",
                            line: line,
                            column: column,
                            hint: nil
                        )
                    ]
                }
                expanded += target.size
                if expanded > InputLimits.maximumAliasExpansion {
                    return problems + [
                        Problem(
                            message: "aliases would expand to more than \(InputLimits.maximumAliasExpansion) nodes",
                            line: line,
                            column: column,
                            hint: "this looks like an alias bomb; see \"Limits\" in Grammar.md"
                        )
                    ]
                }
                if frames.count + target.height > InputLimits.maximumDepth + 1 {
                    return problems + [
                        Problem(
                            message:
                                "alias '*\(name)' nests the YAML more than \(InputLimits.maximumDepth) levels deep",
                            line: line,
                            column: column,
                            hint: "flow refuses deeper nesting; see \"Limits\" in Grammar.md"
                        )
                    ]
                }
                finished = Frame(anchor: nil, size: target.size, height: target.height)
            default:
                break
            }
            if let finished {
                if let anchor = finished.anchor {
                    anchors[anchor] = (finished.size, finished.height)
                }
                if !frames.isEmpty {
                    frames[frames.count - 1].size += finished.size
                    frames[frames.count - 1].height = max(frames[frames.count - 1].height, finished.height + 1)
                }
            }
        }
    }

    /// Notes a node in its parent mapping (keys and values alternate) and reports a scalar key
    /// the mapping already has, at the repeated key, naming where the first one is.
    private static func noteNode(_ event: yaml_event_t, in frames: inout [Frame], line: Int, column: Int) -> Problem? {
        guard !frames.isEmpty, frames[frames.count - 1].keys != nil else { return nil }
        let parent = frames.count - 1
        defer { frames[parent].expectsKey.toggle() }
        guard frames[parent].expectsKey, event.type == YAML_SCALAR_EVENT,
            let key = string(event.data.scalar.value)
        else { return nil }
        guard let first = frames[parent].keys?[key] else {
            frames[parent].keys?[key] = (line, column)
            return nil
        }
        let quoted = event.data.scalar.style != YAML_PLAIN_SCALAR_STYLE
        return Problem(
            message:
                "duplicate key '\(Echo.text(key))': the first '\(Echo.text(key))' is at line \(first.line), column \(first.column)",
            line: line,
            column: column,
            length: key.unicodeScalars.count + (quoted ? 2 : 0),
            hint: "each key appears once per mapping; step ids are unique across the file"
        )
    }

    /// flow reads plain YAML values; a tag (`!!binary`, `!custom`) would change what a value
    /// means behind flow's back, so it is refused where it is written.
    private static func tagProblem(_ event: yaml_event_t, line: Int, column: Int) -> Problem? {
        let pointer: UnsafeMutablePointer<yaml_char_t>?
        switch event.type {
        case YAML_SCALAR_EVENT: pointer = event.data.scalar.tag
        case YAML_SEQUENCE_START_EVENT: pointer = event.data.sequence_start.tag
        case YAML_MAPPING_START_EVENT: pointer = event.data.mapping_start.tag
        default: pointer = nil
        }
        guard var tag = string(pointer) else { return nil }
        let standard = "tag:yaml.org,2002:"
        if tag.hasPrefix(standard) { tag = "!!" + tag.dropFirst(standard.count) }
        return Problem(
            message: "YAML tags such as '\(Echo.text(tag))' are not supported",
            line: line,
            column: column,
            length: tag.unicodeScalars.count,
            hint: "flow reads plain YAML values: remove the tag (quote a value to make it text)"
        )
    }

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func syntaxProblem(_ parser: yaml_parser_t, _ bytes: UnsafeBufferPointer<UInt8>) -> Problem {
        let problem = parser.problem.map { String(cString: $0) } ?? "unreadable YAML"
        if parser.error == YAML_READER_ERROR {
            let (line, column) = position(ofByte: parser.problem_offset, in: bytes)
            if problem.hasPrefix("control characters") {
                let code = "U+" + String(String(parser.problem_value, radix: 16, uppercase: true).leftPadded(to: 4))
                return Problem(
                    message: "the file holds a control character (\(code)), which YAML does not allow",
                    line: line,
                    column: column,
                    hint: "remove it, or write it as an escape in a double-quoted string, such as \"\\t\" or \"\\x07\""
                )
            }
            return Problem(
                message: "the file is not readable as YAML text: \(problem)",
                line: line,
                column: column,
                hint: "workflow files are UTF-8 text"
            )
        }
        let context = parser.context.map { String(cString: $0) }
        let mark = parser.problem_mark
        // libyaml's scanner runs ahead of the events and has its own (higher) nesting limit.
        if problem.hasPrefix("Maximum nesting level") {
            return Problem(
                message: "the YAML is nested more than \(InputLimits.maximumDepth) levels deep",
                line: Int(mark.line) + 1,
                column: Int(mark.column) + 1,
                hint: "flow refuses deeper nesting; see \"Limits\" in Grammar.md"
            )
        }
        return Problem(
            message: "invalid YAML: \(problem)",
            line: Int(mark.line) + 1,
            column: Int(mark.column) + 1,
            hint: context.map { contextText in
                "\(contextText) that starts at line \(parser.context_mark.line + 1), column \(parser.context_mark.column + 1)"
            },
            syntaxError: problem
        )
    }

    /// The 1-based line and column (counting characters, as libyaml's marks do) of a byte offset.
    private static func position(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, Int) {
        let end = min(max(0, offset), bytes.count)
        var line = 1
        var lineStart = 0
        for index in 0..<end where bytes[index] == 0x0A {
            line += 1
            lineStart = index + 1
        }
        // Count the characters before the offset: every byte but UTF-8 continuation bytes.
        let column = bytes[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count + 1
        return (line, column)
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
