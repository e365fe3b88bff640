import LifetraceFormat
import LifetraceInstruments

// The analysis side reads, writes and recompresses traces through these: one place that knows
// both kinds of chunk frames (``ZstdCodec``). The format module's own entry points take their
// codec explicitly, so code that does not link libzstd names the codec it has. The analysis side
// also reads Instruments exports, converted by ``XctraceExport`` (docs/INSTRUMENTS.md).

extension TraceFile {
    /// Opens the trace at `path` (`-` for standard input), reading binary chunks with ``ZstdCodec``
    /// and Instruments exports with ``XctraceExport``.
    public static func open(
        path: String, binaryOptions: BinaryTraceReader.Options = .init()
    ) throws(TraceError) -> AnyTraceSource {
        try open(path: path, codec: ZstdCodec(), binaryOptions: binaryOptions, converter: XctraceExport.self)
    }

    /// Opens one trace, or the XML tables of one Instruments recording read together (see
    /// ``TraceFile/open(paths:codec:binaryOptions:converter:)``).
    public static func open(
        paths: [String], binaryOptions: BinaryTraceReader.Options = .init()
    ) throws(TraceError) -> AnyTraceSource {
        try open(paths: paths, codec: ZstdCodec(), binaryOptions: binaryOptions, converter: XctraceExport.self)
    }
}

extension BinaryTraceReader {
    /// Opens the binary trace at `path` (`-` for standard input), reading its chunks with ``ZstdCodec``.
    public init(path: String, options: Options = .init()) throws(TraceError) {
        try self.init(path: path, codec: ZstdCodec(), options: options)
    }

    /// Reads a binary trace held in memory with ``ZstdCodec``; `name` is used in issues and errors.
    public init(bytes: [UInt8], name: String, options: Options = .init()) throws(TraceError) {
        try self.init(bytes: bytes, name: name, codec: ZstdCodec(), options: options)
    }
}

extension TraceWriter {
    /// Creates (or truncates) the file at `path`, writes the header, and compresses chunks with
    /// libzstd at `options.compressionLevel`.
    public convenience init(path: String, metadata: TraceMetadata, options: Options = .init()) throws(TraceError) {
        try self.init(path: path, metadata: metadata, codec: ZstdCodec(), options: options)
    }

    /// Writes to an open file descriptor, compressing chunks with libzstd; `name` is used in errors.
    public convenience init(
        fileDescriptor: Int32, name: String, metadata: TraceMetadata, options: Options = .init()
    ) throws(TraceError) {
        try self.init(fileDescriptor: fileDescriptor, name: name, metadata: metadata, codec: ZstdCodec(), options: options)
    }
}
