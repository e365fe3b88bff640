import LifetraceReports

/// Why the history gives no baseline: the store cannot be read (its own error), it has no build
/// of the branch, or too few runs for the comparison. One line naming the store.
public struct HistoryBaselineError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable {
        /// The store could not be opened or read (missing, damaged, newer, locked).
        case store(HistoryStoreError)
        /// No build of the branch (before the build judged, with `before`); the branches the store has.
        case noBranch(String, known: [String], before: Bool)
        /// The branch's builds hold fewer runs than a comparison needs.
        case tooFewRuns(branch: String, builds: Int, runs: Int)
    }

    /// The store's path.
    public var path: String
    /// What went wrong.
    public var kind: Kind

    /// An error of `kind` at `path`.
    public init(path: String, _ kind: Kind) {
        self.path = path
        self.kind = kind
    }

    /// The one line every command prints.
    public var description: String {
        switch kind {
        case .store(let error): return error.description
        case .noBranch(let branch, let known, let before):
            let branches = known.isEmpty ? "it has no build with a branch" : "its branches: " + known.joined(separator: ", ")
            return "\(path): no build of branch \(branch)\(before ? " before this one" : "") (\(branches))"
        case .tooFewRuns(let branch, let builds, let runs):
            return "\(path): the last \(builds == 1 ? "build" : "\(builds) builds") of branch \(branch) hold \(runs) "
                + "run\(runs == 1 ? "" : "s"); a baseline needs at least \(RunComparison.minimumRunsToGate)"
        }
    }
}
