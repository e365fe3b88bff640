import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// Runs read from rows (docs/JSON.md, "Rows"): the lines `report --format ndjson` writes, or the
/// Spark job's `rows/` written out as JSON lines (docs/SPARK.md; a field that is null may be
/// missing). Lifetime rows are gathered by path and become a run when their trace's row comes;
/// a trace with an error row is unreadable, as in the summary (docs/REPORTS.md, "Aggregation").
public enum RowsFile {
    /// A line that is not a row: the file and line, and why.
    public struct Malformed: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var reason: String
        public var description: String { "\(path):\(line): not a lifetrace row: \(reason); nothing was added" }
    }

    /// The runs and unreadable traces of the rows in `paths` (files, or directories whose
    /// `.json` and `.ndjson` files are read, in name order). Any malformed line refuses all.
    public static func read(_ paths: [String]) throws(Malformed) -> (runs: [HistoryRun], unreadable: [(path: String, error: String)]) {
        var lifetimes: [String: [HistoryRun.Lifetime]] = [:]
        var traces: [(TraceJSON, String)] = []
        var unreadable: [(path: String, error: String)] = []
        for file in files(paths) {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw Malformed(path: file, line: 0, reason: "cannot be read")
            }
            var number = 0
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                number += 1
                guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }) else { continue }
                do {
                    let kind = try JSONDecoder().decode(RowKind.self, from: Data(line))
                    switch kind.row {
                    case "lifetime":
                        let row = try JSONDecoder().decode(LifetimeJSON.self, from: Data(line))
                        lifetimes[row.path, default: []].append(try row.lifetime())
                    case "trace":
                        traces.append((try JSONDecoder().decode(TraceJSON.self, from: Data(line)), file))
                    case "error":
                        let row = try JSONDecoder().decode(ErrorJSON.self, from: Data(line))
                        unreadable.append((row.path, row.error))
                    default:
                        throw Malformed(path: file, line: number, reason: "unknown row kind '\(kind.row)'")
                    }
                } catch let error as Malformed {
                    throw error
                } catch let error as DecodingError {
                    throw Malformed(path: file, line: number, reason: Self.reason(error))
                } catch {
                    throw Malformed(path: file, line: number, reason: String(describing: error))
                }
            }
        }
        let runs = traces.map { trace, _ in
            let rows = (lifetimes[trace.path] ?? []).sorted { $0.position < $1.position }
            return HistoryRun(
                path: trace.path, source: "rows", events: trace.events, lifetimeCount: trace.lifetimes,
                metadata: TraceMetadata((trace.metadata ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }),
                lifetimes: Array(rows.prefix(CappedCounts.lifetimeLimit)),
                violations: (trace.violations ?? []).map { HistoryRun.RuleCount(rule: $0.rule, severity: $0.severity, count: $0.count) })
        }
        return (runs, unreadable)
    }

    /// The files of `paths`: a file as given, a directory's `.json` and `.ndjson` files.
    static func files(_ paths: [String]) -> [String] {
        paths.flatMap { path -> [String] in
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? []
            return names.filter { $0.hasSuffix(".json") || $0.hasSuffix(".ndjson") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
    }

    private static func reason(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            "no '\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is not what a row holds there"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "not JSON" : "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' is damaged"
        @unknown default: "not a row"
        }
    }

    private struct RowKind: Decodable { var row: String }

    private struct ErrorJSON: Decodable {
        var path: String
        var error: String
    }

    private struct TraceJSON: Decodable {
        struct Count: Decodable {
            var rule: String
            var severity: String
            var count: Int
        }
        var path: String
        var metadata: [String: String]?
        var events: Int
        var lifetimes: Int
        var violations: [Count]?
    }

    private struct LifetimeJSON: Decodable {
        struct Launch: Decodable {
            struct Milestones: Decodable {
                var willFinishLaunching: Int64?
                var didFinishLaunchingEnd: Int64?
                var firstActive: Int64?
                var firstFrame: Int64?
            }
            var kind: String
            var duration: Int64?
            var busyInWindow: Int64
            var milestones: Milestones?
        }
        struct Stalls: Decodable {
            struct Blame: Decodable { var name: String }
            var durations: [Int64]
            var omitted: Int?
            var longest: Int64?
            var longestBlame: Blame?
        }
        struct States: Decodable { var durations: [String: Int64] }
        struct End: Decodable {
            var kind: String
            var code: Int64?
            var signal: Int64?
        }
        var path: String
        var index: Int
        var launch: Launch
        var stalls: Stalls
        var timeInStates: States
        var end: End

        /// States in the order the analysis lists them (a JSON object's order is not kept).
        static let stateOrder = ["notRunning", "inactive", "active", "background", "suspended", "terminating"]

        func lifetime() throws -> HistoryRun.Lifetime {
            guard let kind = LaunchKind(rawValue: launch.kind) else {
                throw Malformed(path: path, line: 0, reason: "unknown launch kind '\(launch.kind)'")
            }
            guard let endKind = LifetimeEnd.Kind(rawValue: end.kind) else {
                throw Malformed(path: path, line: 0, reason: "unknown ending '\(end.kind)'")
            }
            var milestones = LaunchMilestones()
            milestones.willFinishLaunching = launch.milestones?.willFinishLaunching
            milestones.didFinishLaunchingEnd = launch.milestones?.didFinishLaunchingEnd
            milestones.firstActive = launch.milestones?.firstActive
            milestones.firstFrame = launch.milestones?.firstFrame
            // Rows name the blame of the longest stall only.
            let longest = stalls.durations.indices.max { (stalls.durations[$0], $1) < (stalls.durations[$1], $0) }
            let states = timeInStates.durations.sorted {
                (Self.stateOrder.firstIndex(of: $0.key) ?? Int.max, $0.key) < (Self.stateOrder.firstIndex(of: $1.key) ?? Int.max, $1.key)
            }
            return HistoryRun.Lifetime(
                position: index, launchKind: kind, launchDuration: launch.duration, busyInWindow: launch.busyInWindow,
                milestones: milestones,
                stalls: stalls.durations.enumerated().map { ($1, $0 == longest ? stalls.longestBlame?.name ?? "" : "") },
                omittedStalls: stalls.omitted ?? 0, timeInStates: states.map { ($0.key, $0.value) }, end: endKind,
                endCode: end.code, endSignal: end.signal)
        }
    }
}
