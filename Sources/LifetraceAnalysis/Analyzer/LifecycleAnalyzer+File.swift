import LifetraceFormat
import LifetraceZstd

extension LifecycleAnalyzer {
    /// Opens and analyses the trace at `path`.
    ///
    /// The reader is taken out of ``AnyTraceSource`` once, so that the loop is specialised for
    /// the concrete reader instead of switching (and copying the reader) at every event. With
    /// `prefetch`, a binary trace is decoded on a second thread while it is analysed
    /// (``PrefetchingTraceReader``): the caller decides, knowing the cores it may use.
    /// `lifetimeEnded` is called with the trace's metadata as each lifetime ends
    /// (``lifetimeEnded``).
    public static func analyze(
        path: String, options: AnalysisOptions, prefetch: Bool,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)? = nil
    ) throws(TraceError) -> TraceAnalysis {
        let source = try TraceFile.open(path: path)
        if var reader = source.binary {
            if prefetch {
                var prefetching = PrefetchingTraceReader(reader)
                return try analyzeWithSamples(&prefetching, path: path, options: options, lifetimeEnded: lifetimeEnded)
            }
            return try analyzeWithSamples(&reader, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        if var reader = source.jsonl {
            return try analyzeWithSamples(&reader, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        if var reader = source.decoded {
            return try analyze(&reader, path: path, options: options, metadataFor: lifetimeEnded)
        }
        var reader = source
        return try analyze(&reader, path: path, options: options, metadataFor: lifetimeEnded)
    }

    /// Analyses `reader`'s events, then gives each stall the stack samples the reader kept
    /// (``StallSamplePass``; nothing when the trace has none). `lifetimeEnded` is called with the
    /// trace's metadata as each lifetime ends.
    public static func analyzeWithSamples<Source: TraceEventSource>(
        _ reader: inout Source, path: String, options: AnalysisOptions,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)?
    ) throws(TraceError) -> TraceAnalysis {
        let metadata = reader.metadata
        let stalls = StallIntervals()
        let sink: LifetimeSink = { report, violations, omitted in
            stalls.add(report.stalls)
            lifetimeEnded?(metadata, report, violations, omitted)
        }
        var analysis = try analyze(&reader, path: path, options: options, lifetimeEnded: sink)
        stalls.profile(&analysis, stacks: reader.sampledStacks, options: options)
        return analysis
    }

    /// Analyses a text trace or a converted one (an Instruments export).
    private static func analyze<Source: TraceEventSource>(
        _ reader: inout Source, path: String, options: AnalysisOptions,
        metadataFor lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)?
    ) throws(TraceError) -> TraceAnalysis {
        let metadata = reader.metadata
        let sink = lifetimeEnded.map { sink in { sink(metadata, $0, $1, $2) } }
        return try analyze(&reader, path: path, options: options, lifetimeEnded: sink)
    }
}
