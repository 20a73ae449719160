/// A place in a workflow file: the file name as given, and a 1-based line and column.
package struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file name as the user gave it (a path, or a label such as `<stdin>`).
    package let file: String
    /// The line, counting from 1.
    package let line: Int
    /// The column in Unicode scalars, counting from 1.
    package let column: Int

    /// Creates a location; line and column count from 1.
    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and CI annotators recognise.
    package var description: String { "\(file):\(line):\(column)" }
}
