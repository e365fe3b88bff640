/// The formats `lifetrace export` writes.
public enum ExportFormat: String, Sendable, CaseIterable, Hashable {
    /// Perfetto's native protobuf trace (`.perfetto-trace`), for ui.perfetto.dev.
    case perfetto
    /// The Trace Event Format (JSON), for chrome://tracing and other viewers.
    case chromeJSON = "chrome-json"
    /// Common Trace Format 1.8: a directory with a TSDL `metadata` file and a binary stream.
    case ctf
    /// The stack samples in Brendan Gregg's collapsed format, one line per distinct stack
    /// (``FoldedStacks``).
    case folded

    /// Whether the output is a directory rather than a file.
    public var writesDirectory: Bool { self == .ctf }
}
