import LifetraceFormat

extension StallSamplePass {
    /// Gives the stack samples of `stacks` to the stalls of `analysis`'s lifetimes (their blame
    /// and ``TraceAnalysis/stallProfiles``), for an analysis made from a reader rather than by
    /// ``LifecycleAnalyzer/analyzeWithSamples(_:path:options:lifetimeEnded:)`` (which does it
    /// itself): the HTML report's. Does nothing when the analysis has profiles already.
    public static func profileStalls(_ analysis: inout TraceAnalysis, stacks: SampledStacks, options: AnalysisOptions) {
        guard analysis.stallProfiles.isEmpty else { return }
        let intervals = StallIntervals()
        for lifetime in analysis.lifetimes { intervals.add(lifetime.stalls) }
        intervals.profile(&analysis, stacks: stacks, options: options)
    }
}
