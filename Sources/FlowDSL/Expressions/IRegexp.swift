/// I-Regexp (RFC 9485), the interoperable regular expressions of JSONPath's `match()` and
/// `search()`, checked against its grammar and translated to Swift `Regex` syntax: `.` becomes
/// "any character but a line break" as the RFC says, literal characters are escaped, `^` and `$`
/// anchor at the start and the very end, and matching works on Unicode scalars, not on grapheme
/// clusters.
enum IRegexp {
    /// The compiled regex, or `nil` when `pattern` is not an I-Regexp.
    static func regex(_ pattern: String) -> Regex<AnyRegexOutput>? {
        guard let translated = translate(pattern) else { return nil }
        return (try? Regex(translated))?.matchingSemantics(.unicodeScalar)
    }

    /// The pattern in Swift `Regex` syntax, or `nil` when it is not an I-Regexp.
    static func translate(_ pattern: String) -> String? {
        var translator = Translator(Array(pattern.unicodeScalars))
        guard let translated = translator.alternation(), translator.position == translator.scalars.count else {
            return nil
        }
        return translated
    }

    private struct Translator {
        let scalars: [Unicode.Scalar]
        var position = 0
        /// How deep groups nest here: deeper patterns are refused (as not I-Regexps a filter can
        /// use) rather than allowed to exhaust the stack.
        var depth = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        /// branch *( "|" branch )
        mutating func alternation() -> String? {
            guard var text = branch() else { return nil }
            while current == "|" {
                position += 1
                guard let next = branch() else { return nil }
                text += "|" + next
            }
            return text
        }

        /// *piece, up to `|`, `)` or the end.
        private mutating func branch() -> String? {
            var text = ""
            while let scalar = current, scalar != "|", scalar != ")" {
                guard let atom = atom() else { return nil }
                text += atom
                if let quantifier = quantifier() {
                    guard !quantifier.isEmpty else { return nil }
                    text += quantifier
                }
            }
            return text
        }

        /// `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`; `nil` when none comes, "" when malformed.
        private mutating func quantifier() -> String? {
            switch current {
            case "*", "+", "?":
                position += 1
                return String(scalars[position - 1])
            case "{":
                position += 1
                let low = digits()
                guard !low.isEmpty else { return "" }
                var text = "{" + low
                if current == "," {
                    position += 1
                    text += "," + digits()
                }
                guard current == "}" else { return "" }
                position += 1
                return text + "}"
            default:
                return nil
            }
        }

        private mutating func digits() -> String {
            var text = ""
            while let scalar = current, ("0"..."9").contains(scalar) {
                text.unicodeScalars.append(scalar)
                position += 1
            }
            return text
        }

        private mutating func atom() -> String? {
            guard let scalar = current else { return nil }
            switch scalar {
            case "(":
                position += 1
                depth += 1
                defer { depth -= 1 }
                guard depth <= 64, let inner = alternation(), current == ")" else { return nil }
                position += 1
                return "(?:" + inner + ")"
            case ".":
                position += 1
                return "[^\\n\\r]"
            case "\\":
                return escape()
            case "[":
                return characterClass()
            case "^", "$":
                // Anchors, as in the ECMAScript and PCRE mappings of RFC 9485 §5 and as the
                // compliance suite expects (`match(@, '^ab.*')` matches "abc").
                position += 1
                return scalar == "^" ? "^" : "\\z"
            case ")", "*", "+", "?", "]", "{", "|", "}":
                return nil
            default:
                position += 1
                return Self.literal(scalar)
            }
        }

        /// After `\`: a single character escape (as a literal) or `\p{…}` / `\P{…}`.
        private mutating func escape() -> String? {
            position += 1
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "n": return "\\n"
            case "r": return "\\r"
            case "t": return "\\t"
            case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}":
                return Self.literal(scalar)
            case "p", "P":
                guard current == "{" else { return nil }
                position += 1
                var name = ""
                while let letter = current, letter != "}" {
                    name.unicodeScalars.append(letter)
                    position += 1
                }
                guard current == "}", Self.categories.contains(name) else { return nil }
                position += 1
                return "\\\(scalar){\(name)}"
            default:
                return nil
            }
        }

        /// The general categories `\p{…}` may name (RFC 9485 §3).
        private static let categories: Set<String> = [
            "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
            "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
            "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
        ]

        /// `[` [^] ( "-" / item ) *item [ "-" ] `]`, where an item is a character, a range of
        /// two, or a category escape.
        private mutating func characterClass() -> String? {
            position += 1
            var text = "["
            if current == "^" {
                position += 1
                text += "^"
            }
            if current == "-" {
                position += 1
                text += "\\-"
            } else if current == "]" {
                return nil
            }
            while let scalar = current, scalar != "]" {
                if scalar == "-" {
                    // Only as the last character of the class.
                    position += 1
                    guard current == "]" else { return nil }
                    text += "\\-"
                    break
                }
                if scalar == "\\", position + 1 < scalars.count,
                    scalars[position + 1] == "p" || scalars[position + 1] == "P"
                {
                    guard let category = escape() else { return nil }
                    text += category
                    continue
                }
                guard let low = classCharacter() else { return nil }
                text += low
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard let high = classCharacter() else { return nil }
                    text += "-" + high
                }
            }
            guard current == "]" else { return nil }
            position += 1
            return text + "]"
        }

        /// A character in a class: any but `-`, `[`, `\`, `]`, or a single character escape.
        private mutating func classCharacter() -> String? {
            guard let scalar = current else { return nil }
            switch scalar {
            case "\\":
                let start = position
                guard let escaped = escape(), !escaped.hasPrefix("\\p"), !escaped.hasPrefix("\\P") else {
                    position = start
                    return nil
                }
                return escaped
            case "-", "[", "]":
                return nil
            default:
                position += 1
                return Self.literal(scalar)
            }
        }

        /// A character that stands for itself, escaped unless it is an ASCII letter or digit.
        private static func literal(_ scalar: Unicode.Scalar) -> String {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                return String(scalar)
            }
            return "\\u{\(String(scalar.value, radix: 16))}"
        }
    }
}
