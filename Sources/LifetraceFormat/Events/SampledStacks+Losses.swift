extension SampledStacks {
    /// What the limits kept out, each count with the limit it passed
    /// (`3744 stack samples (a reader keeps 262144 samples and 262144 distinct frames of a trace)`),
    /// or nil when nothing was: the one wording of ``lossNote`` and of the warning of a command
    /// that copies a trace (`import`, `symbolicate`).
    public var lostRecords: String? {
        var parts: [String] = []
        if lostSamples > 0 {
            parts.append(
                "\(lostSamples) stack sample\(lostSamples == 1 ? "" : "s") (a reader keeps \(Self.maxSamples) samples "
                    + "and \(Self.maxNodes) distinct frames of a trace)")
        }
        if lostStackRecords > 0 {
            parts.append(
                "\(lostStackRecords) stack record\(lostStackRecords == 1 ? "" : "s") (a reader looks up \(Self.maxWalkedFrames) frames "
                    + "of a trace's stack records)")
        }
        if lostImages > 0 { parts.append("\(lostImages) image\(lostImages == 1 ? "" : "s") (\(Self.maxImages) kept)") }
        if lostSymbols > 0 {
            parts.append("\(lostSymbols) symbol\(lostSymbols == 1 ? "" : "s") (\(Self.maxNodes) and 16 MiB of their text kept)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
