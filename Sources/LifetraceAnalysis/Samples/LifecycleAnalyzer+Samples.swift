import LifetraceFormat

extension LifecycleAnalyzer {
    /// Analyses the trace `source` reads, with its stack samples
    /// (``analyzeWithSamples(_:path:options:lifetimeEnded:)``). The source is the caller's: the
    /// inputs module (`LifetraceRunner`, `TraceInputs.open(path:)`) opens trace files.
    ///
    /// The reader is taken out of ``AnyTraceSource`` once, here in the analysis module, so that
    /// the loop is specialised for the concrete reader instead of switching (and copying the
    /// reader) at every event. With `prefetch`, a binary trace is decoded on a second thread while
    /// it is analysed (``PrefetchingTraceReader``): the caller decides, knowing the cores it may use.
    public static func analyze(
        _ source: AnyTraceSource, path: String, options: AnalysisOptions, prefetch: Bool,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)? = nil
    ) throws(TraceError) -> TraceAnalysis {
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
            return try analyzeWithSamples(&reader, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        var reader = source
        return try analyzeWithSamples(&reader, path: path, options: options, lifetimeEnded: lifetimeEnded)
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
}
