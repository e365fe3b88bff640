import LifetraceFormat

extension TraceSymbolNames {
    /// Names for `stacks` with the symbols the trace carries (`symbol` records) and, with
    /// ``AnalysisOptions/symbolication``, those its resolver gives (the trace's own win).
    public init(stacks: SampledStacks, options: AnalysisOptions) {
        var symbols = stacks.symbols
        var notes: [String] = []
        if let resolver = options.symbolication?.resolver, !stacks.samples.isEmpty {
            do {
                let found = try resolver.resolve(stacks)
                symbols.merge(found.symbols) { kept, _ in kept }
                notes = found.notes
            } catch {
                notes = ["the stack samples could not be symbolicated: \(error)"]
            }
        }
        self.init(stacks: stacks, symbols: symbols, inApp: options.inAppImages)
        self.notes = notes
    }
}
