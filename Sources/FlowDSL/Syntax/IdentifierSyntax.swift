/// Step ids and input names: `[A-Za-z_][A-Za-z0-9_-]*`.
package enum IdentifierSyntax {
    /// Whether `name` is a valid step id or input name.
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        let isLetter: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }
        guard isLetter(first) || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" }
    }
}
