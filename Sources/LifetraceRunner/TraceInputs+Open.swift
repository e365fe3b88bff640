import LifetraceAnalysis
import LifetraceFormat
import LifetraceInstruments
import LifetraceZstd

// The one place that opens trace files for reading (`ReadingBoundaryTests` checks that no other
// module does): the kind of file found from its first bytes, binary chunks read with libzstd
// (``ZstdCodec``), Instruments exports converted by ``XctraceExport`` (docs/INSTRUMENTS.md).
// The reports and the exports are handed what is opened here.

extension TraceInputs {
    /// Opens the trace at `path` (`-` for standard input): binary, JSONL, or an Instruments export.
    public static func open(
        path: String, binaryOptions: BinaryTraceReader.Options = .init()
    ) throws(TraceError) -> AnyTraceSource {
        try TraceFile.open(path: path, codec: ZstdCodec(), binaryOptions: binaryOptions, converter: XctraceExport.self)
    }

    /// Opens one trace, or the XML tables of one Instruments recording read together (see
    /// ``TraceFile/open(paths:codec:binaryOptions:converter:)``).
    public static func open(
        paths: [String], binaryOptions: BinaryTraceReader.Options = .init()
    ) throws(TraceError) -> AnyTraceSource {
        try TraceFile.open(paths: paths, codec: ZstdCodec(), binaryOptions: binaryOptions, converter: XctraceExport.self)
    }
}

extension LifecycleAnalyzer {
    /// Opens and analyses the trace at `path`, with its stack samples
    /// (``LifecycleAnalyzer/analyze(_:path:options:prefetch:lifetimeEnded:)``, which takes the
    /// concrete reader out once). With `prefetch`, a binary trace is decoded on a second thread
    /// while it is analysed: the caller decides, knowing the cores it may use
    /// (``TraceInputs/analyze(path:options:prefetch:turns:lifetimeEnded:)``).
    public static func analyze(
        path: String, options: AnalysisOptions, prefetch: Bool,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)? = nil
    ) throws(TraceError) -> TraceAnalysis {
        try analyze(TraceInputs.open(path: path), path: path, options: options, prefetch: prefetch, lifetimeEnded: lifetimeEnded)
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
