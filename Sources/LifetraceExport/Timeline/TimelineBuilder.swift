import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// Replays a trace through the ``LifecycleAnalyzer`` and turns the analyzer's edges into
/// timeline records, handed to a ``TimelineRecordWriter`` as they come.
///
/// It derives nothing of its own: lifetimes, states, callbacks, signposts, background tasks,
/// busy intervals, stalls, launch windows and violations are the analyzer's ``LifecycleEdge``s,
/// the same the HTML timeline draws. Memory is bounded by what is open at once (tracks per
/// thread and scene, lanes of overlapping signposts and tasks), never by the number of events: a
/// record is written as soon as the edge that makes it comes.
///
/// ```swift
/// var builder = TimelineBuilder(writer: writer, options: options)
/// try builder.start(metadata: reader.metadata)
/// while let event = try reader.next() { try builder.consume(event, symbols: reader.symbols) }
/// try builder.finish(symbols: reader.symbols)
/// ```
public struct TimelineBuilder<Writer: TimelineRecordWriter> {
    /// The analysis that runs alongside.
    public internal(set) var analyzer: LifecycleAnalyzer
    /// The tracks and records drawn from the analyzer's edges.
    var drawing: TimelineDrawing<Writer>

    /// The file format written to.
    public var writer: Writer { drawing.writer }
    /// The names the records use: the fixed ``TimelineName``s, then the trace's strings.
    public var names: SymbolTable { drawing.names }
    /// How many records were written.
    public var recordCount: Int { drawing.recordCount }

    /// A builder writing to `writer`, analysing with `options`.
    public init(writer: Writer, options: AnalysisOptions = AnalysisOptions()) {
        drawing = TimelineDrawing(writer: writer)
        analyzer = LifecycleAnalyzer(options: options)
    }

    /// Writes the file's header; call once, before the first event.
    public mutating func start(metadata: TraceMetadata) throws(ExportError) {
        // The trace's metadata decides which allowances apply; nothing was replayed yet.
        analyzer = LifecycleAnalyzer(options: analyzer.options, metadata: metadata)
        try drawing.writer.start(metadata: metadata)
    }

    /// Replays one event and writes the records of the edges it makes. `symbols` is the
    /// reader's table.
    public mutating func consume(_ event: TraceEvent, symbols: SymbolTable) throws(ExportError) {
        try analyzer.consume(event, symbols: symbols, into: &drawing)
    }

    /// Ends the replay: writes the records of the last lifetime's closing edges, the stalls and
    /// the violations about them with their blame from `stacks` (the reader's samples, known once
    /// its last event is; named by `names`, ``HeldStallEvidence``), and the file's end.
    public mutating func finish(
        symbols: SymbolTable, stacks: SampledStacks = SampledStacks(), names: TraceSymbolNames? = nil
    ) throws(ExportError) {
        if !drawing.started { try drawing.declareTracks(launchPid: nil) }
        _ = try analyzer.finish(symbols: symbols, into: &drawing)
        try drawing.drawHeldStallEvidence(stacks: stacks, names: names)
        try drawing.writer.finish()
    }
}
