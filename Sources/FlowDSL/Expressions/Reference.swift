/// A path read from one of the expression roots, such as `steps.login.outputs.token`; the checker
/// uses it to verify names and dependencies before anything runs.
package struct Reference: Sendable, Hashable, CustomStringConvertible {
    /// The root name: `inputs`, `env`, `secrets`, `steps`, `result`, `services`, `flow`, or an unknown
    /// name to report.
    package let root: String
    /// The static accesses after the root, up to and including the first computed index.
    package let path: [PathComponent]
    /// Where the reference starts, in Characters from the start of the expression.
    package let offset: Int
    /// How many Characters it covers, from the root to the end of its last path component.
    package let length: Int

    /// Creates a reference; the parser makes these, tests compare against them.
    package init(root: String, path: [PathComponent], offset: Int, length: Int) {
        self.root = root
        self.path = path
        self.offset = offset
        self.length = length
    }

    /// The path as a user would write it: `steps.login.outputs.token`, `env['my var']`,
    /// `result.json.items[0]`, with `[*]` for a computed index.
    package var description: String {
        var text = root
        for component in path {
            switch component {
            case .key(let key):
                if Lexer.isIdentifier(key) {
                    text += "." + key
                } else {
                    text += "['" + key.replacing("'", with: "''") + "']"
                }
            case .index(let index): text += "[\(index)]"
            case .dynamic: text += "[*]"
            }
        }
        return text
    }
}

/// One access in a reference's path.
package enum PathComponent: Sendable, Hashable {
    /// `.name` or `['name']`.
    case key(String)
    /// `[3]`, a literal integer index.
    case index(Int)
    /// `[expression]`: known only at run time; it ends the static path.
    case dynamic
}

/// A function call as written, for checking names and argument counts before anything runs.
package struct FunctionCall: Sendable, Hashable {
    /// The function name as written (names are case-sensitive).
    package let name: String
    /// How many arguments the call passes.
    package let argumentCount: Int
    /// Where the name starts, in Characters from the start of the expression.
    package let offset: Int
    /// How many Characters the call covers, from the name to the closing parenthesis.
    package let length: Int
    /// Each argument's value when it is a literal (`'^a+$'`), `nil` when it is computed; for
    /// checking a literal regex or JSON path before anything runs.
    package let literalArguments: [Value?]

    /// Creates a call record; the parser makes these, tests compare against them.
    package init(name: String, argumentCount: Int, offset: Int, length: Int, literalArguments: [Value?] = []) {
        self.name = name
        self.argumentCount = argumentCount
        self.offset = offset
        self.length = length
        self.literalArguments = literalArguments
    }

    /// Calls are the same when they have the same name, argument count and place (the literal
    /// arguments follow from those for one expression text).
    package static func == (lhs: FunctionCall, rhs: FunctionCall) -> Bool {
        lhs.name == rhs.name && lhs.argumentCount == rhs.argumentCount && lhs.offset == rhs.offset
            && lhs.length == rhs.length
    }

    /// Hashes what `==` compares.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(argumentCount)
        hasher.combine(offset)
        hasher.combine(length)
    }
}

/// The root names expressions may read.
package enum Roots {
    /// Every root: `inputs`, `env`, `secrets`, `steps`, `result`, `services`, `flow`.
    package static let names = ["inputs", "env", "secrets", "steps", "result", "services", "flow"]
    /// The properties of the `flow` root.
    package static let flowProperties = ["executable"]
}
