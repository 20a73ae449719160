import Foundation

extension RunReport {
    /// The report as JUnit XML: one test suite for the workflow, one test case per step.
    ///
    /// Failed steps are `<failure>`s, cancelled ones `<error>`s, skipped ones `<skipped/>`; the
    /// step's location goes in `file` and in the message so CI systems can point at the YAML.
    /// Failures and errors count only what failed the run, so they agree with the exit code: a
    /// step whose failure the run absorbed (the loser of a race, a failure under
    /// `continue-on-error`, or anything inside such a step) is `<skipped message="…"/>` saying why.
    package func junitText() -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        // A for-each step's items are test cases of their own, named `fetch[3]`.
        let cases = steps.flatMap(\.withItems)
        let verdicts = JUnitVerdicts(steps: steps)
        let kinds = cases.map { verdicts.kind(of: $0) }
        // A setup that failed (a service that did not start) is a failed test case of its own,
        // so the counts say what the exit code says.
        let setup = setupError.map { error in
            StepReport(id: "services", kind: "services", location: file, state: .failed, error: error)
        }
        let failures = kinds.reduce(setup == nil ? 0 : 1) { $1 == .failure ? $0 + 1 : $0 }
        let errors = kinds.reduce(0) { $1 == .error ? $0 + 1 : $0 }
        let skipped = kinds.reduce(0) { $1.isSkipped ? $0 + 1 : $0 }
        xml += #"<testsuites name="\#(Self.escape(workflow))" tests="\#(cases.count + (setup == nil ? 0 : 1))" "#
        xml += #"failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)" "#
        xml += #"time="\#(Self.seconds(durationSeconds))">"# + "\n"
        xml += #"  <testsuite name="\#(Self.escape(workflow))" tests="\#(cases.count + (setup == nil ? 0 : 1))" "#
        xml += #"failures="\#(failures)" errors="\#(errors)" skipped="\#(skipped)" "#
        xml += #"time="\#(Self.seconds(durationSeconds))" timestamp="\#(Self.escape(startedAt))" "#
        xml += #"file="\#(Self.escape(file))">"# + "\n"
        if let setup { xml += testCase(setup, .failure) }
        for (step, kind) in zip(cases, kinds) {
            xml += testCase(step, kind)
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private func testCase(_ step: StepReport, _ kind: JUnitVerdicts.Kind) -> String {
        let name = step.name.map { "\(step.id) (\($0))" } ?? step.id
        var xml = #"    <testcase name="\#(Self.escape(name))" classname="\#(Self.escape(workflow)).\#(step.kind)" "#
        xml += #"file="\#(Self.escape(step.location))" time="\#(Self.seconds(step.durationSeconds ?? 0))""#
        let message = "\(step.location): \(step.error ?? step.state.rawValue)"
        switch kind {
        case .failure:
            xml += ">\n"
            xml += #"      <failure message="\#(Self.escape(message))" type="failed">"#
            xml += Self.escape(message) + "</failure>\n    </testcase>\n"
        case .error:
            xml += ">\n"
            xml += #"      <error message="\#(Self.escape(message))" type="cancelled"/>"# + "\n    </testcase>\n"
        case .skipped(nil):
            xml += ">\n      <skipped/>\n    </testcase>\n"
        case .skipped(let why?):
            xml += ">\n      <skipped message=\"\(Self.escape(why))\"/>\n    </testcase>\n"
        case .passed:
            xml += "/>\n"
        }
        return xml
    }

    /// XML-escapes text for attributes and content, dropping characters XML 1.0 forbids.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\n": escaped += "&#10;"
            case "\t", "\r": escaped.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
