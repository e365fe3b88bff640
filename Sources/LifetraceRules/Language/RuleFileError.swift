/// A rule file that cannot be used, with where: `FILE:LINE:COLUMN: what is wrong`.
public struct RuleFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// The line (1-based; 0 when the file could not be read at all).
    public var line: Int
    /// The column (1-based, in Unicode scalars).
    public var column: Int
    /// What is wrong, in one line.
    public var problem: String

    /// Creates an error.
    public init(file: String, line: Int, column: Int, _ problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `FILE:LINE:COLUMN: what is wrong`, or `FILE: what is wrong` when the file could not be
    /// read at all (line 0).
    public var description: String { line == 0 ? "\(file): \(problem)" : "\(file):\(line):\(column): \(problem)" }
}
