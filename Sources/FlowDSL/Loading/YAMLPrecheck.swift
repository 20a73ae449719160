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
        let hint: String?
    }

    private struct Frame {
        var anchor: String?
        var size = 1
        var height = 1
    }

    static func check(_ bytes: [UInt8]) -> Problem? {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return Problem(message: "the YAML parser could not start", line: 1, column: 1, hint: nil)
        }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            return walk(&parser)
        }
    }

    private static func walk(_ parser: inout yaml_parser_t) -> Problem? {
        var frames: [Frame] = []
        var anchors: [String: (size: Int, height: Int)] = [:]
        var expanded = 0
        var nodes = 0
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else { return syntaxProblem(parser) }
            defer { yaml_event_delete(&event) }
            let line = Int(event.start_mark.line) + 1
            let column = Int(event.start_mark.column) + 1
            var finished: Frame?
            if event.type == YAML_SCALAR_EVENT || event.type == YAML_SEQUENCE_START_EVENT
                || event.type == YAML_MAPPING_START_EVENT
            {
                nodes += 1
                if nodes > InputLimits.maximumNodes {
                    return Problem(
                        message: "the YAML holds more than \(InputLimits.maximumNodes) values",
                        line: line,
                        column: column,
                        hint: "flow refuses larger documents; see \"Limits\" in Grammar.md"
                    )
                }
            }
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return nil
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let anchorPointer =
                    event.type == YAML_SEQUENCE_START_EVENT
                    ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                frames.append(Frame(anchor: string(anchorPointer)))
                if frames.count > InputLimits.maximumDepth {
                    return Problem(
                        message: "the YAML is nested more than \(InputLimits.maximumDepth) levels deep",
                        line: line,
                        column: column,
                        hint: "flow refuses deeper nesting; see \"Limits\" in Grammar.md"
                    )
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                finished = frames.popLast()
            case YAML_SCALAR_EVENT:
                finished = Frame(anchor: string(event.data.scalar.anchor))
            case YAML_ALIAS_EVENT:
                let name = string(event.data.alias.anchor) ?? ""
                guard let target = anchors[name] else {
                    return Problem(
                        message: "alias '*\(name)' refers to no anchor defined before it",
                        line: line,
                        column: column,
                        hint: nil
                    )
                }
                expanded += target.size
                if expanded > InputLimits.maximumAliasExpansion {
                    return Problem(
                        message: "aliases would expand to more than \(InputLimits.maximumAliasExpansion) nodes",
                        line: line,
                        column: column,
                        hint: "this looks like an alias bomb; see \"Limits\" in Grammar.md"
                    )
                }
                if frames.count + target.height > InputLimits.maximumDepth + 1 {
                    return Problem(
                        message: "alias '*\(name)' nests the YAML more than \(InputLimits.maximumDepth) levels deep",
                        line: line,
                        column: column,
                        hint: "flow refuses deeper nesting; see \"Limits\" in Grammar.md"
                    )
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

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    private static func syntaxProblem(_ parser: yaml_parser_t) -> Problem {
        let problem = parser.problem.map { String(cString: $0) } ?? "unreadable YAML"
        if parser.error == YAML_READER_ERROR {
            return Problem(
                message: "the file is not readable as YAML text: \(problem)",
                line: 1,
                column: 1,
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
            }
        )
    }
}
