internal import CXMLShim

/// XPath 1.0 over XML and HTML documents, through libxml2 (in the `CXMLShim` C target, so that
/// no libxml2 type or global reaches Swift). `package`: FlowEngine reads S3's XML answers with it.
package enum XPath {
    /// Why `expression` is not valid XPath 1.0, or `nil` when it compiles.
    static func problem(_ expression: String) -> String? {
        guard !expression.utf8.contains(0) else { return "it contains a NUL character" }
        var message = [CChar](repeating: 0, count: 512)
        let valid = message.withUnsafeMutableBufferPointer { buffer in
            flow_xpath_check(expression, buffer.baseAddress!, buffer.count)
        }
        guard valid == 0 else { return nil }
        return message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// What went wrong: the document did not parse, or the expression did not compile or run.
    package struct Problem: Error {
        package let message: String
    }

    /// `expression` evaluated on `document` (UTF-8 text): a node set is an array of the nodes'
    /// string values (an element's text, an attribute's value), in document order; a string,
    /// a number or a boolean is itself. `namespaces` maps prefixes to URIs, beside those the
    /// document declares (the default one as `_`).
    package static func evaluate(
        _ expression: String, in document: String, html: Bool, namespaces: [(prefix: String, uri: String)] = []
    ) throws(Problem) -> Value {
        guard !expression.utf8.contains(0) else { throw Problem(message: "the XPath contains a NUL character") }
        guard !document.isEmpty else {
            throw Problem(message: "the document is empty, not \(html ? "HTML" : "XML")")
        }
        var document = document
        var result = flow_xpath_result()
        defer { flow_xpath_result_free(&result) }
        // C strings for the namespaces, alive until the call returns.
        let prefixes = namespaces.map { cCopy($0.prefix) }
        let uris = namespaces.map { cCopy($0.uri) }
        defer {
            for pointer in prefixes + uris { pointer.deallocate() }
        }
        document.withUTF8 { bytes in
            // Not empty (checked above), so the bytes have an address.
            let base = UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self)
            prefixes.map { UnsafePointer($0) }.withUnsafeBufferPointer { prefixList in
                uris.map { UnsafePointer($0) }.withUnsafeBufferPointer { uriList in
                    flow_xpath_evaluate(
                        base, bytes.count, html ? 1 : 0, expression, prefixList.baseAddress, uriList.baseAddress,
                        namespaces.count, &result)
                }
            }
        }
        switch Int(result.kind) {
        case Int(FLOW_XPATH_NODES):
            var values: [Value] = []
            values.reserveCapacity(result.count)
            for index in 0..<result.count {
                values.append(.string(result.nodes.map { String(cString: $0[index]!) } ?? ""))
            }
            return .array(values)
        case Int(FLOW_XPATH_BOOLEAN): return .bool(result.boolean != 0)
        case Int(FLOW_XPATH_NUMBER): return .number(result.number)
        case Int(FLOW_XPATH_STRING): return .string(result.string.map { String(cString: $0) } ?? "")
        default:
            let message = withUnsafeBytes(of: result.message) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            switch result.stage {
            case 1 where html: throw Problem(message: "the document is not HTML: \(message)")
            case 1:
                throw Problem(message: "the document is not well-formed XML: \(message) (for HTML, use htmlXPath())")
            case 2: throw Problem(message: "the XPath failed: \(message)")
            default: throw Problem(message: message)
            }
        }
    }

    /// A C copy of `text` that the caller deallocates; NUL characters end it early.
    private static func cCopy(_ text: String) -> UnsafeMutablePointer<CChar> {
        let bytes = Array(text.utf8.prefix { $0 != 0 })
        let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
        pointer[bytes.count] = 0
        return pointer
    }
}

extension Functions {
    /// `xpath(document, expression[, namespaces])` on XML, `htmlXPath(document, expression)` on
    /// HTML (libxml2's HTML parser, which accepts what browsers accept).
    static func xpath(_ name: String, _ arguments: [Value]) throws(Failure) -> Value {
        let document = arguments[0].interpolated
        let expression = arguments[1].interpolated
        var namespaces: [(prefix: String, uri: String)] = []
        if arguments.count > 2, case .object(let members) = arguments[2] {
            for (prefix, uri) in members.sorted(by: { $0.key < $1.key }) {
                guard case .string(let text) = uri else {
                    throw Failure(
                        message: "\(name)() expects namespace URIs as strings, got \(uri.typeName) for '\(prefix)'")
                }
                namespaces.append((prefix, text))
            }
        }
        do {
            return try XPath.evaluate(expression, in: document, html: name == "htmlXPath", namespaces: namespaces)
        } catch {
            throw Failure(message: "\(name)('\(expression)'): \(error.message)")
        }
    }
}
