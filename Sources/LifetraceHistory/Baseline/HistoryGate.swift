import LifetraceOutput
import LifetraceReports

/// `check --history`'s verdict on a build in the store: whether it starts a change
/// (docs/HISTORY.md, "check --history").
///
/// E-divisive needs several builds on each side of a change before it can name it
/// (``EDivisive/minimumSegment``), which is too late for the job of the build that made it. So
/// the build's runs are compared with the runs of the builds of its branch before it
/// (``HistoryBaseline``) by `diff`'s tests (``RunComparison``: Mann-Whitney U with exact
/// p-values for small samples, Holm's adjustment), held to what `history show` asks of a
/// change: p at most ``EDivisive/significance`` and a median that rose by
/// ``EDivisive/minimumMagnitude`` or more. A metric the build before it had already risen on
/// (against its own baseline) is a change that build started, not this one: a change fails the
/// one build that starts it, and the builds after it pass while the baseline catches up.
public struct HistoryGate: Sendable {
    /// The builds compared with: a branch's, or nil for the judged build's own branch (the last
    /// ``HistoryBaseline/defaultBuilds``).
    public var baseline: HistoryBaseline?
    /// The detector whose significance and smallest change the gate applies.
    public var detector = EDivisive()

    /// A gate comparing with `baseline` (nil: the build's own branch).
    public init(baseline: HistoryBaseline? = nil) {
        self.baseline = baseline
    }

    /// The comparison's gate: a median rise past the detector's smallest change, at its significance.
    var comparisonGate: ComparisonGate {
        ComparisonGate(maxRegression: detector.minimumMagnitude * 100, alpha: detector.significance, failsOnMoreViolations: false)
    }

    /// The verdict on the build `buildID` of `store`, whose runs were just `added` (false: the
    /// build had them already). Throws only when the store cannot be read.
    public func verdict(store: HistoryStore, buildID: String, added: Bool) throws(HistoryStoreError) -> CheckHistoryVerdict {
        guard let build = try store.build(id: buildID) else { throw HistoryStoreError(path: store.path, .sqlite("build \(buildID) is not in the store")) }
        var verdict = CheckHistoryVerdict(
            store: store.path, build: build.record.label, added: added, comparedTo: nil, baseline: "", changes: [])
        guard let branch = baseline?.branch ?? build.record.branch else {
            verdict.baseline = "no earlier build: the build has no branch (--branch, or the CI's variables, name it)"
            return verdict
        }
        let baseline = HistoryBaseline(branch: branch, builds: baseline?.builds ?? HistoryBaseline.defaultBuilds)
        let compared: (builds: [HistoryStore.StoredBuild], runs: [RunFacts])
        do {
            compared = try baseline.runs(in: store, before: build.row)
        } catch {
            // The first builds of a branch have nothing to be compared with, and pass.
            if case .store(let error) = error.kind { throw error }
            verdict.baseline = "no baseline: " + error.description
            return verdict
        }
        let previous = compared.builds[compared.builds.count - 1]
        verdict.comparedTo = previous.record.label
        verdict.baseline = baseline.describe(compared.builds, runs: compared.runs.count)
        let candidate = try store.runs(ofBuild: build.row).map(\.facts)
        let risen = rises(RunComparison(baseline: compared.runs, candidate: candidate, gate: comparisonGate))
        guard !risen.isEmpty else { return verdict }
        // What the build before had already risen on is its change, not this build's.
        let before = try rises(of: previous, in: store, baseline: baseline)
        verdict.changes = risen.filter { !before.contains($0.metric) }.map { row in
            sentence(row, build: build.record, previous: previous.record, branch: branch, builds: compared.builds.count, runs: compared.runs.count)
        }
        return verdict
    }

    /// The metrics whose median rose past the gate in `comparison`.
    func rises(_ comparison: RunComparison) -> [RunComparison.Row] {
        let limit = comparisonGate.maxRegression ?? 0
        return comparison.rows.filter { row in row.isRegression && (row.medianChange ?? 0) >= limit }
    }

    /// The metrics `build` had risen on against its own baseline (none when it had no baseline).
    private func rises(of build: HistoryStore.StoredBuild, in store: HistoryStore, baseline: HistoryBaseline) throws(HistoryStoreError)
        -> Set<RunMetric>
    {
        let compared: (builds: [HistoryStore.StoredBuild], runs: [RunFacts])
        do {
            compared = try baseline.runs(in: store, before: build.row)
        } catch {
            if case .store(let error) = error.kind { throw error }
            return []
        }
        let candidate = try store.runs(ofBuild: build.row).map(\.facts)
        return Set(rises(RunComparison(baseline: compared.runs, candidate: candidate, gate: comparisonGate)).map(\.metric))
    }

    /// `launch.cold median rose 21.3 % (216 ms -> 262 ms) at build 17, commit c0ffee17, compared
    /// to build 16, commit c0ffee16, the last of the 10 builds of main before it (80 runs),
    /// p < 0.0001 (Mann-Whitney U, Holm-adjusted)`.
    func sentence(_ row: RunComparison.Row, build: BuildRecord, previous: BuildRecord, branch: String, builds: Int, runs: Int) -> String {
        let from = row.baselineMedian ?? 0
        let to = row.candidateMedian ?? 0
        let relative = DecimalText.string(abs(row.medianChange ?? 0), decimals: 1)
        let adjusted = row.adjustedP ?? 1
        let p = adjusted < 0.0001 ? "< 0.0001" : "= " + DecimalText.string(adjusted, decimals: 4)
        func named(_ record: BuildRecord) -> String {
            "build \(record.buildID)" + (record.commit.map { ", commit \($0.prefix(12))" } ?? "")
        }
        let which = builds == 1 ? "the build of \(branch) before it" : "the last of the \(builds) builds of \(branch) before it"
        return "\(row.metric.key) median rose \(relative) % (\(row.metric.format(from)) -> \(row.metric.format(to))) at \(named(build)), "
            + "compared to \(named(previous)), \(which) (\(runs) run\(runs == 1 ? "" : "s")), p \(p) (Mann-Whitney U, Holm-adjusted)"
    }
}
