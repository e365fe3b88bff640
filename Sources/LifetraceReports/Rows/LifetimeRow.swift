import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// One row of `lifetrace report --format ndjson` (docs/JSON.md, "Rows"): a lifetime of a trace
/// with everything a fleet summary needs, flat enough for a table (Parquet, Spark SQL).
///
/// Rows are made one lifetime at a time while a trace is analysed and written at once, so that
/// memory does not grow with the number of lifetimes or traces. Each trace ends with a
/// ``TraceRow``, or an error row when it could not be read.
public struct LifetimeRow: Sendable {
    /// The version of the row schema; raised whenever a field changes meaning or is removed.
    public static let schemaVersion: Int64 = 1

    /// The trace's path as it was named.
    public var path: String
    /// The trace's metadata (app, appVersion, os, device and any other keys).
    public var metadata: TraceMetadata
    /// The lifetime, with its launch, stalls, time in states and ending.
    public var lifetime: LifetimeReport
    /// Violations found while this lifetime was replayed, per rule, in rule order, rules with
    /// none left out (those past the analysis's limit included).
    public var violations: [(rule: Rule, count: Int)]

    /// The row of `lifetime` in the trace at `path`; `violations` are the ones kept in full
    /// while it was replayed, `omitted` those counted past the analysis's limit.
    public init<Violations: Sequence<Violation>>(
        path: String, metadata: TraceMetadata, lifetime: LifetimeReport, violations: Violations,
        omitted: [Rule: Int] = [:]
    ) {
        self.path = path
        self.metadata = metadata
        self.lifetime = lifetime
        var counts = omitted
        for violation in violations { counts[violation.rule, default: 0] += 1 }
        self.violations = counts.keys.sorted().map { ($0, counts[$0]!) }
    }

    /// The stalls' durations (ns), in time order.
    public var stallDurations: [Int64] { lifetime.stalls.map(\.duration) }

    /// Whether the ending was inferred: no `exit` event closed the lifetime (a new launch came,
    /// or the trace ended first), so the kind rests on what was seen before.
    public var endInferred: Bool { lifetime.end.kind == .relaunched || lifetime.end.kind == .endOfTrace }

    /// The row as one JSON object (docs/JSON.md, "Rows").
    public var json: JSONValue {
        let launch = lifetime.launch
        let stalls = lifetime.stalls
        let longest = stalls.enumerated().max { ($0.element.duration, $1.offset) < ($1.element.duration, $0.offset) }?.element
        var severities: [Severity: Int] = [:]
        for entry in violations { severities[entry.rule.severity, default: 0] += entry.count }
        return .object([
            JSONMember("schema", .int(Self.schemaVersion)),
            JSONMember("row", .string("lifetime")),
            JSONMember("path", .string(path)),
            JSONMember("metadata", metadata.json),
            JSONMember("index", .int(Int64(lifetime.index))),
            JSONMember("events", .int(Int64(lifetime.eventCount))),
            JSONMember("droppedEvents", .int(lifetime.droppedEvents)),
            JSONMember("launch", .object([
                JSONMember("kind", .string(launch.kind.rawValue)),
                JSONMember("reason", .optional(launch.reason)),
                JSONMember("pid", .optional(launch.pid)),
                JSONMember("ts", .optional(launch.timestamp)),
                JSONMember("windowEnd", .string(launch.windowEnd.rawValue)),
                JSONMember("duration", .optional(launch.duration)),
                JSONMember("busyInWindow", .int(launch.busyInWindow)),
                JSONMember("busySource", .string(lifetime.busySource.rawValue)),
                JSONMember("milestones", .object([
                    JSONMember("willFinishLaunching", .optional(launch.milestones.willFinishLaunching)),
                    JSONMember("didFinishLaunchingEnd", .optional(launch.milestones.didFinishLaunchingEnd)),
                    JSONMember("firstActive", .optional(launch.milestones.firstActive)),
                    JSONMember("firstFrame", .optional(launch.milestones.firstFrame)),
                ])),
            ])),
            JSONMember("stalls", .object([
                JSONMember("count", .int(Int64(lifetime.stallCount))),
                JSONMember("total", .int(stalls.reduce(0) { $0 &+ $1.duration })),
                JSONMember("longest", .optional(longest?.duration)),
                JSONMember("longestBlame", longest?.blame.first.map {
                    .object([
                        JSONMember("kind", .string($0.kind.rawValue)), JSONMember("name", .string($0.name)),
                        JSONMember("duration", .int($0.duration)),
                    ])
                } ?? .null),
                JSONMember("durations", .array(stalls.map { .int($0.duration) })),
            ] + (lifetime.omittedStalls > 0 ? [JSONMember("omitted", .int(Int64(lifetime.omittedStalls)))] : []))),
            JSONMember("violations", Rule.json(violations)),
            JSONMember("severities", .object([
                JSONMember(Severity.error.rawValue, .int(Int64(severities[.error] ?? 0))),
                JSONMember(Severity.warning.rawValue, .int(Int64(severities[.warning] ?? 0))),
            ])),
            JSONMember("timeInStates", .object([
                JSONMember("view", .string(lifetime.timeInStates.view.rawValue)),
                JSONMember("durations", .object(lifetime.timeInStates.durations.map { JSONMember($0.state, .int($0.duration)) })),
            ])),
            JSONMember("end", .object([
                JSONMember("kind", .string(lifetime.end.kind.rawValue)),
                JSONMember("inferred", .bool(endInferred)),
                JSONMember("code", .optional(lifetime.end.code.map(Int64.init))),
                JSONMember("signal", .optional(lifetime.end.signal.map(Int64.init))),
                JSONMember("ts", .int(lifetime.end.timestamp)),
                JSONMember("sinceLaunch", .optional(lifetime.end.sinceLaunch)),
            ])),
        ])
    }
}

/// The row that closes a trace in `--format ndjson`: what belongs to the trace rather than to
/// one lifetime (its event count, the reader's recovered problems), or the error that stopped it.
public struct TraceRow: Sendable {
    /// The trace's path as it was named.
    public var path: String
    /// The trace's metadata.
    public var metadata: TraceMetadata
    /// How many events were read.
    public var eventCount: Int
    /// How many lifetimes it had (as many lifetime rows came before this row).
    public var lifetimeCount: Int
    /// Violations per rule over the whole trace, in rule order, those past the analysis's limit
    /// included.
    public var violations: [(rule: Rule, count: Int)]
    /// Problems the reader recovered from, one line each.
    public var issues: [String]
    /// What the main thread's stack samples say of each stall that had some (``stallSamplesJSON``).
    public var stallProfiles: [StallProfile] = []
    /// The one-line error when the trace could not be read; its lifetime rows, if any came
    /// before, are then left out of every summary.
    public var error: String?

    /// The row closing `analysis`.
    public init(_ analysis: TraceAnalysis) {
        path = analysis.path
        metadata = analysis.metadata
        eventCount = analysis.eventCount
        lifetimeCount = analysis.lifetimeCount
        var counts: [Rule: Int] = [:]
        for violation in analysis.violations { counts[violation.rule, default: 0] += 1 }
        for (rule, count) in analysis.omittedViolations { counts[rule, default: 0] += count }
        violations = counts.keys.sorted().map { ($0, counts[$0]!) }
        issues = analysis.issues.map(\.description)
        stallProfiles = analysis.stallProfiles
        error = nil
    }

    /// The error row of a trace that could not be read.
    public init(path: String, error: TraceError) {
        self.path = path
        metadata = TraceMetadata()
        eventCount = 0
        lifetimeCount = 0
        violations = []
        issues = []
        self.error = error.description
    }

    /// The row closing the analysis of the trace at `path`, or its error row.
    public init(_ result: Result<TraceAnalysis, TraceError>, path: String) {
        switch result {
        case .success(let analysis): self.init(analysis)
        case .failure(let error): self.init(path: path, error: error)
        }
    }

    /// The row as one JSON object (docs/JSON.md, "Rows").
    public var json: JSONValue {
        if let error {
            return .object([
                JSONMember("schema", .int(LifetimeRow.schemaVersion)), JSONMember("row", .string("error")),
                JSONMember("path", .string(path)), JSONMember("error", .string(error)),
            ])
        }
        return .object([
            JSONMember("schema", .int(LifetimeRow.schemaVersion)),
            JSONMember("row", .string("trace")),
            JSONMember("path", .string(path)),
            JSONMember("metadata", metadata.json),
            JSONMember("events", .int(Int64(eventCount))),
            JSONMember("lifetimes", .int(Int64(lifetimeCount))),
            JSONMember("violations", Rule.json(violations)),
            JSONMember("issues", .array(issues.map(JSONValue.string))),
        ] + (stallProfiles.isEmpty ? [] : [JSONMember("stallSamples", stallSamplesJSON)]))
    }
}

extension Rule {
    /// Violation counts as rows write them: one entry per rule broken, in rule-table order, with
    /// the rule's severity and place in the table (which orders rules in every summary).
    static func json(_ counts: [(rule: Rule, count: Int)]) -> JSONValue {
        .array(counts.map {
            .object([
                JSONMember("rule", .string($0.rule.id)), JSONMember("severity", .string($0.rule.severity.rawValue)),
                JSONMember("order", .int(Int64($0.rule.order))), JSONMember("count", .int(Int64($0.count))),
            ])
        })
    }
}

extension TraceMetadata {
    /// The metadata as a JSON object, keys in the order they were written.
    public var json: JSONValue { .object(fields.map { JSONMember($0.key, .string($0.value)) }) }
}
