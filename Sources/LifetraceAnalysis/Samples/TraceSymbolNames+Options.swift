import LifetraceFormat

extension TraceSymbolNames {
    /// Names for `stacks` with the symbols the trace carries (`symbol` records) and, with
    /// ``AnalysisOptions/symbolicates``, those the images' files on this machine give
    /// (``Symbolizer``; the trace's own win).
    public init(stacks: SampledStacks, options: AnalysisOptions) {
        var symbols = stacks.symbols
        if options.symbolicates, !stacks.samples.isEmpty, let found = try? Symbolizer.symbolize(stacks) {
            symbols.merge(found) { kept, _ in kept }
        }
        self.init(stacks: stacks, symbols: symbols)
    }
}
