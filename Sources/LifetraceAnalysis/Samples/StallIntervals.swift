import LifetraceFormat

/// The stalls of a trace's lifetimes as they end, kept for the stack samples' pass
/// (``StallSamplePass``): at most ``limit`` intervals (the analyzer already caps each lifetime's).
final class StallIntervals: @unchecked Sendable {
    /// The most intervals kept.
    static let limit = 100_000
    private(set) var intervals: [(start: Int64, duration: Int64)] = []

    func add(_ stalls: [Stall]) {
        for stall in stalls where intervals.count < Self.limit { intervals.append((stall.start, stall.duration)) }
    }

    /// Adds the samples' blame to `analysis` when `stacks` has samples; with
    /// ``AnalysisOptions/symbolication``, symbols come from its resolver too.
    func profile(_ analysis: inout TraceAnalysis, stacks: SampledStacks, options: AnalysisOptions) {
        if let note = stacks.lossNote { analysis.capped.addStackSampleNote(note) }
        guard !stacks.samples.isEmpty else { return }
        let names = TraceSymbolNames(stacks: stacks, options: options)
        for note in names.notes { analysis.capped.addStackSampleNote(note) }
        analysis.stallProfiles = StallSamplePass.annotate(&analysis, stalls: intervals, stacks: stacks, names: names.name)
    }
}
