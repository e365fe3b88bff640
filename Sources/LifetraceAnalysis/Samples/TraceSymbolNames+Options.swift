import LifetraceFormat

extension TraceSymbolNames {
    /// Names for `stacks` with the symbols the trace carries (`symbol` records) and, with
    /// ``AnalysisOptions/symbolication``, those its resolver gives (the trace's own win).
    public init(stacks: SampledStacks, options: AnalysisOptions) {
        var symbols = stacks.symbols
        if let resolver = options.symbolication?.resolver, !stacks.samples.isEmpty,
            let found = try? resolver.symbols(for: stacks)
        {
            symbols.merge(found) { kept, _ in kept }
        }
        self.init(stacks: stacks, symbols: symbols)
    }
}
