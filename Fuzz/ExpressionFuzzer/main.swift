// libFuzzer harness for the expression language: templates, expressions, evaluation, JSON.
import FlowDSL

/// libFuzzer's entry point: parses the bytes as a template and as an expression, evaluates what
/// parses, and reads them as JSON. Errors are fine; crashes and out-of-range error offsets are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExpression(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let length = text.count
    let context = FuzzContext()
    do {
        let template = try Template.parse(text)
        for embedded in template.expressions {
            precondition(embedded.offset >= 0 && embedded.offset <= length, "embedded offset out of the text")
        }
        _ = try? template.evaluate(context)
        _ = template.render { "<\($0.root)>" }
    } catch {
        precondition(error.offset >= 0 && error.offset <= length, "template error offset out of the text")
    }
    do {
        let expression = try Expression.parse(text)
        _ = expression.references
        _ = expression.functionCalls
        if let value = try? expression.evaluate(context) {
            _ = value.interpolated
            _ = value.jsonText
        }
    } catch {
        precondition(error.offset >= 0 && error.offset <= length, "expression error offset out of the text")
    }
    if let value = try? Value(jsonText: text) {
        _ = value.jsonText
    }
    return 0
}

/// Roots with values of every type, so evaluation reaches property access, indexing and functions.
private struct FuzzContext: EvaluationContext {
    func value(ofRoot name: String) -> Value? {
        switch name {
        case "inputs":
            return .object([
                "n": .number(3), "s": .string("a,b"), "t": .bool(true), "z": .null,
                "list": .array([.number(1), .string("x"), .array([]), .object(["k": .number(-0.5)])]),
            ])
        case "steps":
            return .object(["a": .object(["outputs": .object(["v": .string("[1,2]")]), "status": .string("failed")])])
        case "env", "secrets":
            return .object(["HOME": .string("/root")])
        default:
            return nil
        }
    }

    func statusFunction(_ function: StatusFunction) -> Bool? {
        function == .always || function == .failure
    }
}
