import FlowDSL

/// Linux's limits on what a command is started with, checked before starting it so that a large
/// value (a response body passed to a `run` step) fails with a message that says which value and
/// what to do instead, not with `execve`'s bare "Argument list too long" (E2BIG).
enum ArgumentLimits {
    /// `MAX_ARG_STRLEN`: the longest single argument or `NAME=value` variable, NUL included (32 pages).
    static let singleString = 128 << 10
    /// How much of `ARG_MAX` flow lets one command's arguments and added variables take: the
    /// kernel allows a quarter of the stack limit (2 MiB by default) for all of them together with
    /// flow's own environment, which this leaves room for.
    static let total = 1536 << 10

    /// Throws when a value of `spec` is longer than Linux passes to a new process.
    static func check(_ spec: ProcessSpec, at location: SourceLocation) throws(StepError) {
        var strings: [(what: String, size: Int)] = []
        switch spec.command {
        case .shell(let script): strings.append(("the script", script.utf8.count + 1))
        case .argv(let argv):
            for (index, argument) in argv.enumerated() {
                strings.append(("argument \(index + 1)", argument.utf8.count + 1))
            }
        }
        for (name, value) in spec.environment {
            let what =
                name.hasPrefix("FLOW_EXPR_")
                ? "the value of ${{ }} number \(name.dropFirst("FLOW_EXPR_".count)) of the script" : "variable \(name)"
            strings.append((what, name.utf8.count + value.utf8.count + 2))
        }
        let advice =
            "pass large data through a file instead: write a response with 'save-to' on the http step and "
            + "read that file in the command (or write the value to a file in an earlier step)"
        if let longest = strings.max(by: { $0.size < $1.size }), longest.size > singleString {
            throw StepError(
                "\(longest.what) is \(longest.size) bytes, longer than the \(singleString >> 10) KiB Linux allows "
                    + "one argument or environment variable (it would fail with 'Argument list too long'); "
                    + advice,
                at: location)
        }
        let sum = strings.reduce(0) { $0 + $1.size }
        if sum > total {
            throw StepError(
                "the command's arguments and variables take \(sum) bytes, more than the \(total >> 10) KiB "
                    + "flow lets them use (Linux fails larger ones with 'Argument list too long'); " + advice,
                at: location)
        }
    }
}
