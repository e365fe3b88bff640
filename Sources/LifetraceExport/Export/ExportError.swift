import LifetraceFormat

/// Why an export failed, and where.
///
/// Its ``description`` is the one line the command-line tool prints.
public struct ExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Kind: String, Hashable, Sendable {
        /// The input trace could not be read (see ``ExportError/input``).
        case input
        /// The output could not be created or written.
        case output
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The input's problem, for ``Kind/input``.
    public var input: TraceError?
    /// The file or directory concerned.
    public var path: String
    /// What is wrong, for a person.
    public var message: String

    /// An output problem at `path`.
    public init(output path: String, _ message: String) {
        kind = .output
        input = nil
        self.path = path
        self.message = message
    }

    /// An input problem.
    public init(_ error: TraceError) {
        kind = .input
        input = error
        path = error.file
        message = error.message
    }

    /// One line: the input's own description, or `path: message` for the output.
    public var description: String {
        if let input { return input.description }
        return "\(path): \(message)"
    }
}
