#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failure to set up recording: which step failed, on which file, and the system's reason.
public struct RecorderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: String, Sendable, Hashable {
        /// The region's file could not be opened or created.
        case openFailed = "cannot open recorder region"
        /// The region could not be sized or mapped.
        case mapFailed = "cannot map recorder region"
        /// The file is not a recorder region of a version this library reads.
        case badRegion = "not a recorder region"
        /// The trace file could not be written.
        case writeFailed = "cannot write trace"
        /// The writer thread could not be started.
        case threadFailed = "cannot start the recorder's writer thread"
    }

    /// What went wrong.
    public var kind: Kind
    /// The file involved, if any.
    public var path: String?
    /// The system's error number, 0 if none.
    public var errno: Int32
    /// More detail, for example the writer's own message.
    public var detail: String?

    /// An error of `kind` on `path` with the system's `errno`.
    public init(_ kind: Kind, path: String?, errno: Int32, detail: String? = nil) {
        self.kind = kind
        self.path = path
        self.errno = errno
        self.detail = detail
    }

    /// One line: the problem, the file and the system's reason.
    public var description: String {
        var text = kind.rawValue
        if let path { text += " \(path)" }
        if errno != 0 { text += ": " + String(cString: strerror(errno)) }
        if let detail { text += ": " + detail }
        return text
    }
}
