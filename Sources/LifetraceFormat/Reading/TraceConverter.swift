/// Reads inputs of another tool's making into a ``DecodedTrace``.
///
/// The hook by which ``TraceFile/open(path:codec:binaryOptions:converter:)`` reads an Instruments
/// export (an XML document) without the format module knowing XML: the module that parses it
/// conforms, and the inputs module's `TraceInputs.open(path:)` passes it. Several inputs are the
/// tables of one recording, read together into one trace.
public protocol TraceConverter {
    /// Reads `inputs`, each once and in order, into one trace.
    static func convert(_ inputs: [TraceConverterInput]) throws(TraceError) -> DecodedTrace
}

/// One input for a ``TraceConverter``: its name, the bytes already read to tell its kind, and
/// the rest, read on demand.
public struct TraceConverterInput {
    /// The input's path as the user named it (`-` for standard input), for errors.
    public let name: String
    /// The first bytes, already read.
    public let prefix: [UInt8]
    let handle: FileDescriptorHandle?

    init(name: String, prefix: [UInt8], handle: FileDescriptorHandle) {
        self.name = name
        self.prefix = prefix
        self.handle = handle
    }

    /// An input held in memory: all of it is the prefix.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        prefix = bytes
        handle = nil
    }

    /// Reads the bytes after ``prefix`` into `buffer`; returns their count, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(TraceError) -> Int {
        guard let handle else { return 0 }
        return try handle.read(into: buffer, name: name)
    }
}
