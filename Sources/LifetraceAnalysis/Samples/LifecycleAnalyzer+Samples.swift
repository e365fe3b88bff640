import LifetraceFormat

extension LifecycleAnalyzer {
    /// Analyses `reader`'s events, then gives each stall the stack samples the reader kept
    /// (``StallSamplePass``; nothing when the trace has none). `lifetimeEnded` is called with the
    /// trace's metadata as each lifetime ends. The reader is the caller's: the inputs module
    /// (`LifetraceRunner`, `TraceInputs`) opens trace files and chooses how to read them.
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
