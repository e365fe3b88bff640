import LifetraceReports

/// A baseline taken from the history: the runs of the last builds of a branch, written
/// `history:BRANCH[:N]` (docs/HISTORY.md, "The history as a baseline"). `diff --baseline`
/// compares a candidate with them; `check --history` compares the build it adds with the builds
/// of its branch before it.
public struct HistoryBaseline: Sendable, Hashable {
    /// How many builds a baseline takes when `:N` is not given: enough runs for the tests to see a
    /// step of a few percent (10 builds of 8 launches are 80), few enough that a change of some
    /// months ago is not in it.
    public static let defaultBuilds = 10

    /// The branch whose builds are the baseline.
    public var branch: String
    /// How many of its builds, the last ones.
    public var builds: Int

    /// The last `builds` builds of `branch`.
    public init(branch: String, builds: Int = HistoryBaseline.defaultBuilds) {
        self.branch = branch
        self.builds = builds
    }

    /// The text's prefix.
    public static let scheme = "history:"

    /// Reads `history:BRANCH[:N]`, or throws why the text is not one. A git branch name
    /// never holds `:` (git-check-ref-format), so the last `:` before digits starts the count.
    public init(parsing text: String) throws(SyntaxError) {
        guard text.hasPrefix(Self.scheme) else {
            throw SyntaxError(text: text, reason: "a baseline from the history is written history:BRANCH[:N]")
        }
        var branch = Substring(text.dropFirst(Self.scheme.count))
        var builds = Self.defaultBuilds
        if let colon = branch.lastIndex(of: ":") {
            let count = branch[branch.index(after: colon)...]
            guard let number = Int(count), number > 0, count.allSatisfy(\.isASCII) else {
                throw SyntaxError(text: text, reason: "N in history:BRANCH:N is a number of builds, 1 or more (\"\(count)\" is not)")
            }
            builds = number
            branch = branch[..<colon]
        }
        guard !branch.isEmpty else { throw SyntaxError(text: text, reason: "the branch is missing: history:BRANCH[:N]") }
        self.init(branch: String(branch), builds: builds)
    }

    /// A baseline that is not written `history:BRANCH[:N]`.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// The text given.
        public var text: String
        /// What is wrong with it.
        public var reason: String

        /// The one line a command prints.
        public var description: String { "\(text): \(reason)" }
    }

    /// The baseline's builds in `store`, oldest first: the last ``builds`` builds of ``branch``
    /// added before the build with row id `before` (all of the branch's builds when nil).
    /// Throws when the store has no build of the branch before it.
    public func builds(in store: HistoryStore, before: Int64? = nil) throws(HistoryBaselineError) -> [HistoryStore.StoredBuild] {
        let all = try Self.storeErrors { () throws(HistoryStoreError) in try store.builds() }
        let earlier = all.filter { build in build.record.branch == branch && before.map { build.row < $0 } ?? true }
        guard !earlier.isEmpty else {
            let branches = Set(all.compactMap(\.record.branch)).sorted()
            throw HistoryBaselineError(path: store.path, .noBranch(branch, known: branches, before: before != nil))
        }
        return Array(earlier.suffix(builds))
    }

    /// The runs of the baseline's builds in `store` as the comparison reads them (``HistoryRun/facts``),
    /// with the builds. Throws when there are fewer runs than the comparison needs
    /// (``RunComparison/minimumRunsToGate``).
    public func runs(in store: HistoryStore, before: Int64? = nil) throws(HistoryBaselineError)
        -> (builds: [HistoryStore.StoredBuild], runs: [RunFacts])
    {
        let builds = try builds(in: store, before: before)
        var runs: [RunFacts] = []
        for build in builds {
            runs += try Self.storeErrors { () throws(HistoryStoreError) in try store.runs(ofBuild: build.row) }.map(\.facts)
        }
        guard runs.count >= RunComparison.minimumRunsToGate else {
            throw HistoryBaselineError(path: store.path, .tooFewRuns(branch: branch, builds: builds.count, runs: runs.count))
        }
        return (builds, runs)
    }

    /// The baseline in words: `the last 10 builds of main (builds 7 to 16, 80 runs)`.
    public func describe(_ builds: [HistoryStore.StoredBuild], runs: Int) -> String {
        let span = builds.count == 1 ? "build \(builds[0].record.buildID)"
            : "builds \(builds.first?.record.buildID ?? "") to \(builds.last?.record.buildID ?? "")"
        let which = builds.count == 1 ? "the last build" : "the last \(builds.count) builds"
        return "\(which) of \(branch) (\(span), \(runs) run\(runs == 1 ? "" : "s"))"
    }

    private static func storeErrors<T>(_ work: () throws(HistoryStoreError) -> T) throws(HistoryBaselineError) -> T {
        do {
            return try work()
        } catch {
            throw HistoryBaselineError(path: error.path, .store(error))
        }
    }
}
