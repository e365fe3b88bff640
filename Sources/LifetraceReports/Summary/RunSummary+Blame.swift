import LifetraceAnalysis

extension RunSummary {
    /// Work the stalls of every run are blamed on (its chain of callbacks and signposts), with
    /// what it cost across the runs: the many-run form of the trace page's "Blamed work", as
    /// Xcode Organizer ranks hang signatures by their share of hang time.
    public struct BlamedWork: Sendable, Hashable {
        /// The chain (`didFinishLaunching > IndexSearchCatalog`), or a phrase when no work ran.
        public var work: String
        /// The stalls blamed on it.
        public var stalls: Int
        /// Their total duration (ns).
        public var total: Int64
        /// The traces it stalled in.
        public var runs: Int
        /// The longest of its stalls (the first in path and lifetime order among equals).
        public var longest: Witness
    }

    /// What a stall with no callback or signpost running is blamed on (the trace page's words).
    public static let noWork = "no callback or signpost on the main thread"

    /// The work the listed stalls are blamed on, by total stall time, largest first (the most
    /// stalls first among equals, then the name).
    public var blamedWork: [BlamedWork] {
        var byWork: [String: BlamedWork] = [:]
        var lastRun: [String: String] = [:]
        for run in runs {
            for lifetime in run.lifetimes {
                for (index, duration) in lifetime.stalls.enumerated() {
                    let chain = index < lifetime.stallWork.count ? lifetime.stallWork[index] : ""
                    let work = chain.isEmpty ? Self.noWork : chain
                    let witness = Witness(value: duration, path: run.path, lifetime: lifetime.index, work: work)
                    var entry = byWork[work] ?? BlamedWork(work: work, stalls: 0, total: 0, runs: 0, longest: witness)
                    entry.stalls += 1
                    entry.total &+= duration
                    if duration > entry.longest.value { entry.longest = witness }
                    if lastRun[work] != run.path {
                        entry.runs += 1
                        lastRun[work] = run.path
                    }
                    byWork[work] = entry
                }
            }
        }
        return byWork.values.sorted { ($1.total, $1.stalls, $0.work) < ($0.total, $0.stalls, $1.work) }
    }

    /// The rows of the blamed work table.
    public static let blamedWorkRows = 15
}
