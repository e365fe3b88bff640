import GRDB
import LifetraceFormat
import LifetraceOutput

/// Why a history store could not be opened, read or written: one line naming the store's file.
/// The store is never rewritten or truncated on any of these (docs/HISTORY.md, "Bad input").
public struct HistoryStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// No store at the path (`history show` never creates one).
        case missing
        /// The file is an SQLite database of something else.
        case foreign
        /// A newer version of lifetrace wrote the store: its schema has migrations this one lacks.
        case newerSchema(unknown: [String])
        /// The file is not an SQLite database, or its pages are damaged.
        case corrupt
        /// Another process held the store's write lock past the busy timeout.
        case locked(seconds: Double)
        /// The disk (or the store's size limit) is full.
        case full
        /// A run of the build is in the store already.
        case duplicateRun(build: String, path: String)
        /// Any other SQLite error.
        case sqlite(String)
    }

    /// The store's path.
    public var path: String
    /// What went wrong.
    public var kind: Kind

    /// An error of `kind` at `path`.
    public init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// The error of an SQLite failure at `path`.
    init(path: String, _ error: DatabaseError, busySeconds: Double) {
        self.path = path
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT: kind = .corrupt
        case .SQLITE_BUSY, .SQLITE_LOCKED: kind = .locked(seconds: busySeconds)
        case .SQLITE_FULL: kind = .full
        default: kind = .sqlite(error.message ?? "\(error.resultCode)")
        }
    }

    /// The one line every command prints.
    public var description: String {
        switch kind {
        case .missing: "\(path): no history store here (`lifetrace history add` makes one)"
        case .foreign: "\(path): an SQLite database that is not a lifetrace history store; left as it is"
        case .newerSchema(let unknown):
            "\(path): written by a newer lifetrace (schema steps \(unknown.joined(separator: ", ")) unknown to this one); left as it is"
        case .corrupt: "\(path): not a readable history store (the file is not an SQLite database, or it is damaged); left as it is"
        case .locked(let seconds):
            "\(path): locked by another process for more than \(DecimalText.compact(seconds)) s; nothing was written"
        case .full: "\(path): the disk is full; nothing of this build was written, the store is as it was"
        case .duplicateRun(let build, let run): "\(path): build \(build) already has the run \(run); nothing was written"
        case .sqlite(let message): "\(path): \(message)"
        }
    }
}
