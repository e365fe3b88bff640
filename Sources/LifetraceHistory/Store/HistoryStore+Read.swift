import GRDB
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

extension HistoryStore {
    /// A build as stored: its row id (the order builds were first added in) and its record.
    public struct StoredBuild: Sendable, Hashable {
        /// The row id: builds in CI order are in this order.
        public var row: Int64
        /// The build.
        public var record: BuildRecord
    }

    /// Every build, in the order they were first added (CI order).
    public func builds() throws(HistoryStoreError) -> [StoredBuild] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, buildID, commitID, branch, appVersion, buildNumber, device, os, date FROM build ORDER BY id"
            ).map(Self.storedBuild)
        }
    }

    /// The builds of `branch`, newest last.
    public func builds(branch: String) throws(HistoryStoreError) -> [StoredBuild] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT id, buildID, commitID, branch, appVersion, buildNumber, device, os, date FROM build WHERE branch = ? ORDER BY id",
                arguments: [branch]
            ).map(Self.storedBuild)
        }
    }

    private static func storedBuild(_ row: Row) -> StoredBuild {
        StoredBuild(
            row: row[0],
            record: BuildRecord(
                buildID: row[1], commit: row[2], branch: row[3], appVersion: row[4], buildNumber: row[5], device: row[6],
                os: row[7], date: row[8]))
    }

    /// The runs of the build with row id `build`, in the order they were added, each with its
    /// lifetimes, stalls and violations. One build at a time, so that memory holds one build.
    public func runs(ofBuild build: Int64) throws(HistoryStoreError) -> [HistoryRun] {
        try read { db in
            var runs: [Int64: HistoryRun] = [:]
            var order: [Int64] = []
            for row in try Row.fetchAll(
                db, sql: "SELECT id, path, source, events, lifetimes, appVersion, os, device FROM run WHERE buildId = ? ORDER BY id",
                arguments: [build])
            {
                let id: Int64 = row[0]
                var metadata: [(key: String, value: String)] = []
                for (offset, key) in ["appVersion", "os", "device"].enumerated() {
                    if let value: String = row[5 + offset] { metadata.append((key, value)) }
                }
                runs[id] = HistoryRun(
                    path: row[1], source: row[2], events: row[3], lifetimeCount: row[4], metadata: TraceMetadata(metadata),
                    lifetimes: [], violations: [])
                order.append(id)
            }
            var stalls: [Int64: [(duration: Int64, blame: String)]] = [:]
            let stallRows = try Row.fetchCursor(
                db, sql: "SELECT lifetimeId, duration, blame FROM stall WHERE buildId = ? ORDER BY lifetimeId, position",
                arguments: [build])
            while let row = try stallRows.next() {
                stalls[row[0], default: []].append((row[1], row[2]))
            }
            let lifetimeRows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT id, runId, position, launchKind, launchDuration, busyInWindow, willFinishLaunching, didFinishLaunchingEnd,
                        firstActive, firstFrame, omittedStalls, timeInStates, endKind, endCode, endSignal
                    FROM lifetime WHERE buildId = ? ORDER BY id
                    """, arguments: [build])
            while let row = try lifetimeRows.next() {
                var milestones = LaunchMilestones()
                milestones.willFinishLaunching = row[6]
                milestones.didFinishLaunchingEnd = row[7]
                milestones.firstActive = row[8]
                milestones.firstFrame = row[9]
                let kindName: String = row[3]
                let endName: String = row[12]
                let statesText: String = row[11]
                guard let kind = LaunchKind(rawValue: kindName), let end = LifetimeEnd.Kind(rawValue: endName),
                    let states = StateTimesText.decode(statesText)
                else { throw HistoryStoreError(path: path, .corrupt) }
                let lifetime = HistoryRun.Lifetime(
                    position: row[2], launchKind: kind, launchDuration: row[4], busyInWindow: row[5], milestones: milestones,
                    stalls: stalls[row[0]] ?? [], omittedStalls: row[10], timeInStates: states, end: end, endCode: row[13],
                    endSignal: row[14])
                runs[row[1]]?.lifetimes.append(lifetime)
            }
            let violationRows = try Row.fetchCursor(
                db, sql: "SELECT runId, rule, severity, count FROM violation WHERE buildId = ? ORDER BY rowid", arguments: [build])
            while let row = try violationRows.next() {
                runs[row[0]]?.violations.append(HistoryRun.RuleCount(rule: row[1], severity: row[2], count: row[3]))
            }
            return order.map { runs[$0]! }
        }
    }
}
