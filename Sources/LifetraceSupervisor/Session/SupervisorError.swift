/// A failure of the supervisor itself: what went wrong and the detail that locates it.
public struct SupervisorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The scenario file is not valid.
        case badScenario = "bad scenario"
        /// The app could not be started.
        case spawnFailed = "cannot start the app"
        /// The shared-memory region could not be created.
        case regionFailed = "cannot create the recorder region"
        /// The trace could not be written.
        case traceFailed = "cannot write the trace"
    }

    /// What went wrong.
    public var kind: Kind
    /// Where and why.
    public var detail: String

    /// An error of `kind` with `detail`.
    public init(_ kind: Kind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    /// One line: the problem and its detail.
    public var description: String { "\(kind.rawValue): \(detail)" }
}
