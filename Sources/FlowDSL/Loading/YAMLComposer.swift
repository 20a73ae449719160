internal import CYaml

/// One pass over libyaml's event stream that checks the YAML and builds flow's `Node` tree at
/// once: it reports syntax errors with their mark, duplicate keys and tags, and refuses nesting
/// deeper than `InputLimits.maximumDepth` and alias expansions beyond
/// `InputLimits.maximumAliasExpansion` nodes. Checking costs a stack of counters and one size per
/// anchor, so a hostile file costs memory linear in its length; an alias shares its anchor's node.
enum YAMLComposer {
    /// A problem found by the pass (1-based line and column).
    struct Problem: Error {
        let message: String
        let line: Int
        let column: Int
        var length = 1
        let hint: String?
        /// For a syntax error: libyaml's own words, for `LayoutHint` to recognise.
        var syntaxError: String?
    }

    /// What the pass found: the first document's root, no document, or why the file is refused.
    enum Outcome {
        case document(Node)
        case noDocument
        case problems([Problem])
    }

    /// A collection being built. Its nodes so far wait on the walk's one stack of nodes (a
    /// mapping's as key, value, key, value...) from `start` on, and are copied into an array of
    /// their exact count when it ends: one allocation a collection, none to grow it (issue 32).
    private struct Frame {
        var anchor: String?
        var size = 1
        var height = 1
        let mark: Node.Mark
        let isMapping: Bool
        /// Where the collection's nodes start on the stack.
        let start: Int
        /// A large mapping's scalar keys, for the duplicate check (small ones are scanned).
        var keyIndex: [String: Int]?
        /// Pairs whose key is an alias or a collection, compared by value when the mapping ends.
        var otherKeys: [Int] = []
        /// One bit per length of the scalar keys so far (`length & 63`): a key of a length not
        /// seen repeats none, and needs no scan (issue 32).
        var keyLengths: UInt64 = 0
        /// Whether the collection is inside a step, so its bytes go to `StepCanon`.
        let canonical: Bool
        /// Whether it is a mapping that is the value of a `steps` key (its values are steps).
        let isStepList: Bool
        /// Whether it is a mapping that is a step (the value of a key of a step list).
        let isStep: Bool
        /// Where its bytes start in `StepCanon`.
        let canonStart: Int
        /// Whether an alias inside it was not written to `StepCanon`: no fingerprint then.
        var unwritten = false
        /// Whether it is the workflow's `steps:` mapping, whose entries go to a `StepStream`.
        var streamed = false
    }

    /// Mappings with more scalar keys than this look repeats up in a dictionary.
    private static let scanLimit = 12

    /// Checks `bytes` and composes their first document. The problems are one that stops the
    /// pass (a syntax error, a limit), or every duplicate key and tagged value (each found on
    /// its own, so one round fixes them all); then, as a YAML composer reports them, a repeated
    /// alias or collection key, or a second document.
    ///
    /// With a `stream`, each entry of the workflow's own `steps:` mapping is sent to it as soon
    /// as its value is built (the caller finishes the stream).
    static func compose(_ bytes: [UInt8], stream: StepStream? = nil) -> Outcome {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return .problems([Problem(message: "the YAML parser could not start", line: 1, column: 1, hint: nil)])
        }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var walk = Walk(stream: stream, size: bytes.count)
            defer {
                walk.canon.release()
                walk.stack.release()
            }
            return walk.run(&parser, bytes: buffer)
        }
    }

    private struct Walk {
        /// Where the entries of the workflow's `steps:` mapping go as they are built, if anywhere.
        let stream: StepStream?
        /// The file's size in bytes, to size the workflow's step list's key index once.
        let size: Int
        var frames: [Frame] = []
        /// The nodes of the collections being built, innermost last (see `Frame`).
        var stack = NodeStack()
        /// The bytes of the steps' values, for their definition fingerprints, and where each
        /// node of `stack` starts in them.
        var canon = StepCanon()
        var anchors: [String: (size: Int, height: Int, node: Node)] = [:]
        var expanded = 0
        var nodes = 0
        var problems: [Problem] = []
        var documents = 0
        var root: Node?
        /// The first composition error of the first document, or a second document's start.
        var composeProblem: Problem?

        mutating func run(_ parser: inout yaml_parser_t, bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    return .problems(problems + [YAMLComposer.syntaxProblem(parser, bytes)])
                }
                defer { yaml_event_delete(&event) }
                if let stop = handle(event) { return .problems(problems + [stop]) }
                if event.type == YAML_STREAM_END_EVENT { return outcome() }
            }
        }

        private func outcome() -> Outcome {
            if !problems.isEmpty { return .problems(problems) }
            if let composeProblem { return .problems([composeProblem]) }
            guard let root else { return .noDocument }
            return .document(root)
        }

        /// Takes one event in; a problem that stops the pass comes back.
        private mutating func handle(_ event: yaml_event_t) -> Problem? {
            let line = Int(event.start_mark.line) + 1
            let column = Int(event.start_mark.column) + 1
            let mark = Node.Mark(line: line, column: column)
            switch event.type {
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents == 2, composeProblem == nil {
                    composeProblem = Problem(
                        message: "invalid YAML: but found another document", line: line, column: column, hint: nil)
                }
                return nil
            case YAML_SCALAR_EVENT, YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT, YAML_ALIAS_EVENT:
                if event.type != YAML_ALIAS_EVENT { nodes += 1 }
                if nodes > InputLimits.maximumNodes {
                    return Problem(
                        message: "the YAML holds more than \(InputLimits.maximumNodes) values",
                        line: line,
                        column: column,
                        hint: "flow refuses larger documents; see \"Limits\" in Grammar.md"
                    )
                }
                // Most values have no tag: the problem (a large optional) is made only for one that has.
                if YAMLComposer.tag(of: event) != nil,
                    let problem = YAMLComposer.tagProblem(event, line: line, column: column)
                {
                    problems.append(problem)
                }
            default:
                break
            }
            switch event.type {
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                let isMapping = event.type == YAML_MAPPING_START_EVENT
                let anchorPointer = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
                // A mapping that is a value of a step list is a step; one under a `steps` key is a step list.
                var isStep = false
                var isStepList = false
                if isMapping, let parent = frames.last, parent.isMapping, (stack.count - parent.start) % 2 == 1 {
                    isStep = parent.isStepList
                    if stack.isScalar(stack.count - 1, "steps") { isStepList = true }
                }
                let canonical = isStep || frames.last?.canonical == true
                let canonStart = canon.count
                if canonical { canon.append(isMapping ? UInt8(ascii: "{") : UInt8(ascii: "[")) }
                // The workflow's own step list: the root mapping's `steps`, in the first document;
                // only the first such mapping (a second one is a duplicate key: the file is refused).
                let streamed = isStepList && frames.count == 1 && documents == 1 && stream?.isOpen == false
                frames.append(
                    Frame(
                        anchor: YAMLComposer.string(anchorPointer), mark: mark, isMapping: isMapping,
                        start: stack.count, canonical: canonical, isStepList: isStepList, isStep: isStep,
                        canonStart: canonStart, streamed: streamed))
                if streamed { stream?.open() }
                if frames.count > InputLimits.maximumDepth {
                    return Problem(
                        message: "the YAML is nested more than \(InputLimits.maximumDepth) levels deep",
                        line: line,
                        column: column,
                        hint: "flow refuses deeper nesting; see \"Limits\" in Grammar.md"
                    )
                }
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                guard let frame = frames.popLast() else { return nil }
                let node: Node
                if frame.isMapping {
                    // Moved off the stack, not copied (issue 32).
                    let pairs = stack.movePairs(from: frame.start)
                    checkOtherKeys(frame, pairs)
                    var fingerprint: UInt64?
                    if frame.canonical {
                        fingerprint = canon.closeMapping(
                            open: frame.canonStart, first: frame.start, fingerprint: frame.isStep && !frame.unwritten)
                    }
                    node = .mapping(
                        Node.Mapping(
                            entries: pairs, scalarKeys: frame.otherKeys.isEmpty, mark: frame.mark,
                            fingerprint: fingerprint))
                } else {
                    if frame.canonical { canon.append(UInt8(ascii: "]")) }
                    node = .sequence(Node.Sequence(nodes: stack.moveItems(from: frame.start), mark: frame.mark))
                }
                canon.popStarts(to: frame.start)
                // A step outside any other step is done: its bytes are no longer needed.
                if frame.canonical, frames.last?.canonical != true { canon.truncate(to: frame.canonStart) }
                finish(
                    node, anchor: frame.anchor, size: frame.size, height: frame.height, keyStyle: nil,
                    canonStart: frame.canonStart)
            case YAML_SCALAR_EVENT:
                let scalar = event.data.scalar
                let text = String(
                    decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
                let style = Node.Scalar.Style(rawValue: scalar.style.rawValue) ?? .any
                let node = Node.scalar(Node.Scalar(string: text, style: style, mark: mark))
                let canonStart = canon.count
                if frames.last?.canonical == true {
                    canon.scalar(UnsafeBufferPointer(start: scalar.value, count: scalar.length), style: style)
                }
                finish(
                    node, anchor: YAMLComposer.string(scalar.anchor), size: 1, height: 1, keyStyle: style,
                    canonStart: canonStart)
            case YAML_ALIAS_EVENT:
                let name = YAMLComposer.string(event.data.alias.anchor) ?? ""
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
                // An alias is not written to `StepCanon`: the steps around it are fingerprinted from their nodes.
                for index in frames.indices.reversed() where frames[index].canonical { frames[index].unwritten = true }
                finish(
                    target.node, anchor: nil, size: target.size, height: target.height, keyStyle: nil,
                    canonStart: canon.count)
            default:
                break
            }
            return nil
        }

        /// Hands a finished node to its parent (or makes it the document's root) and records its
        /// anchor. `keyStyle` is a scalar's style (nil for a collection or an alias): a scalar
        /// that is a key has its text read back only then, and the node is moved onto the stack,
        /// so a value's text is neither copied nor retained on the way (issue 32).
        private mutating func finish(
            _ node: consuming Node, anchor: String?, size: Int, height: Int, keyStyle: Node.Scalar.Style?,
            canonStart: Int
        ) {
            if let anchor { anchors[anchor] = (size, height, node) }
            guard !frames.isEmpty else {
                if documents == 1 { root = node }
                return
            }
            let parent = frames.count - 1
            frames[parent].size += size
            frames[parent].height = max(frames[parent].height, height + 1)
            // A mapping's key comes at an even distance from its start, its value after it.
            if frames[parent].isMapping, (stack.count - frames[parent].start) % 2 == 0 {
                if let style = keyStyle, case .scalar(let scalar) = node {
                    noteKey(scalar.string, style: style, at: scalar.mark, in: parent)
                } else {
                    frames[parent].otherKeys.append((stack.count - frames[parent].start) / 2)
                    // The one-thread parse reports such keys before any step: the stream cannot.
                    if frames[parent].streamed { stream?.abandon() }
                }
            }
            stack.append(node)
            canon.pushStart(canonStart)
            // A step of the workflow's step list is complete: its key and value go to the stream.
            if frames[parent].streamed, (stack.count - frames[parent].start) % 2 == 0 {
                stream?.send(key: stack[stack.count - 2], value: stack[stack.count - 1])
            }
        }

        /// The key of pair `position` of the mapping of frame `parent`.
        private func key(_ position: Int, in parent: Int) -> Node {
            stack[frames[parent].start + 2 * position]
        }

        /// Reports a scalar key the mapping already has, at the repeated key, naming where the
        /// first one is; a mapping of many keys keeps them in a dictionary, a small one is scanned.
        private mutating func noteKey(_ key: String, style: Node.Scalar.Style, at mark: Node.Mark, in parent: Int) {
            // No copy of the frame is held while its index grows: that would copy the index each time.
            let count = (stack.count - frames[parent].start) / 2
            guard frames[parent].keyIndex != nil else {
                // Only a key of a length seen before in the mapping can repeat one (issue 32).
                let lengthBit: UInt64 = 1 << UInt64(key.utf8.count & 63)
                let lengthSeen = frames[parent].keyLengths & lengthBit != 0
                frames[parent].keyLengths |= lengthBit
                if lengthSeen, let first = firstKey(key, in: parent) {
                    reportDuplicate(key, style: style, at: mark, first: first)
                } else if count >= YAMLComposer.scanLimit {
                    var index: [String: Int] = [:]
                    // The workflow's own step list holds most keys of a large file: its index is
                    // made as large as a step every 32 bytes needs, not grown by rehashing
                    // (issue 32: the growth was 1% of validating a 10,000-step file).
                    if parent == 1, frames[parent].isStepList { index.reserveCapacity(size / 32) }
                    for position in 0..<count where !frames[parent].otherKeys.contains(position) {
                        if let text = self.key(position, in: parent).scalar?.string, index[text] == nil {
                            index[text] = position
                        }
                    }
                    index[key] = count
                    frames[parent].keyIndex = index
                }
                return
            }
            // A large mapping's index is asked and filled in one lookup; a repeat (rare) puts the
            // first position back.
            if let position = frames[parent].keyIndex?.updateValue(count, forKey: key) {
                frames[parent].keyIndex?[key] = position
                reportDuplicate(key, style: style, at: mark, first: self.key(position, in: parent).mark)
            }
        }

        private mutating func reportDuplicate(
            _ key: String, style: Node.Scalar.Style, at mark: Node.Mark, first: Node.Mark
        ) {
            let quoted = style != .plain
            problems.append(
                Problem(
                    message:
                        "duplicate key '\(Echo.text(key))': the first '\(Echo.text(key))' is at line \(first.line), column \(first.column)",
                    line: mark.line,
                    column: mark.column,
                    length: key.unicodeScalars.count + (quoted ? 2 : 0),
                    hint: "each key appears once per mapping; step ids are unique across the file"
                ))
        }

        /// Where the mapping's scalar key `key` first is, if it has one already.
        private func firstKey(_ key: String, in parent: Int) -> Node.Mark? {
            if let position = frames[parent].keyIndex?[key] { return self.key(position, in: parent).mark }
            guard frames[parent].keyIndex == nil else { return nil }
            // Lengths first, in place: no copy of each key's scalar (issue 19).
            let length = key.utf8.count
            let start = frames[parent].start
            return stack.withNodes { nodes in
                var index = start
                while index < nodes.count {
                    defer { index += 2 }
                    guard case .scalar(let scalar) = nodes[index], scalar.string.utf8.count == length,
                        scalar.string == key, !frames[parent].otherKeys.contains((index - start) / 2)
                    else { continue }
                    return scalar.mark
                }
                return nil
            }
        }

        /// A key written as an alias or a collection repeats another key when their values are
        /// equal; like Yams' composer, this is an error of the first document only.
        private mutating func checkOtherKeys(_ frame: Frame, _ pairs: [Node.Pair]) {
            guard !frame.otherKeys.isEmpty, documents == 1, composeProblem == nil else { return }
            var names: [String] = []
            var firstMark: Node.Mark?
            var reported = Set<Int>()
            // Only pairs where one key is such a key are compared: a scalar key against every
            // other key would cost the square of a large mapping's size (a step list of 100,000).
            let others = Set(frame.otherKeys)
            for (position, pair) in pairs.enumerated() where !reported.contains(position) {
                let later =
                    others.contains(position)
                    ? Array(pairs.indices[(position + 1)...]) : frame.otherKeys.filter { $0 > position }
                let repeats = later.filter { other in pairs[other].keyNode.sameValue(as: pair.keyNode) }
                guard !repeats.isEmpty else { continue }
                reported.formUnion(repeats)
                names.append(pair.keyNode.scalar?.string ?? "<uncovertable>")
                if firstMark == nil { firstMark = pair.keyNode.mark }
            }
            guard let firstMark else { return }
            composeProblem = Problem(
                message: "duplicate key \(names.map { "'\($0)'" }.joined(separator: ", ")) in one mapping",
                line: firstMark.line,
                column: firstMark.column,
                length: names[0].count,
                hint: "each key appears once per mapping; step ids are unique across the file"
            )
        }
    }

    /// flow reads plain YAML values; a tag (`!!binary`, `!custom`) would change what a value
    /// means behind flow's back, so it is refused where it is written.
    private static func tagProblem(_ event: yaml_event_t, line: Int, column: Int) -> Problem? {
        guard var tag = string(tag(of: event)) else { return nil }
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

    /// The tag written on a scalar or a collection, as libyaml gives it; nil for none.
    @inline(__always)
    private static func tag(of event: yaml_event_t) -> UnsafeMutablePointer<yaml_char_t>? {
        switch event.type {
        case YAML_SCALAR_EVENT: event.data.scalar.tag
        case YAML_SEQUENCE_START_EVENT: event.data.sequence_start.tag
        case YAML_MAPPING_START_EVENT: event.data.mapping_start.tag
        default: nil
        }
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
