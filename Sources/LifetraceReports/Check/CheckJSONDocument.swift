import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceRunner

/// The `--format json` document of `check` and of `report` on one trace (docs/JSON.md), written
/// piece by piece: each trace's lifetimes as they end, its counts and violations after them, the
/// summary last. Memory stays bounded by one lifetime and a trace's violations, never by the
/// number of lifetimes or traces.
///
/// ```swift
/// var document = CheckJSONDocument(strict: false)
/// output(document.head)
/// output(CheckJSONDocument.traceHead(path: path))
/// CheckJSONDocument.write(report, first: true, to: &bytes)   // as each lifetime ends
/// output(document.traceTail(.success(analysis), lifetimes: 1))
/// output(document.tail)
/// ```
public struct CheckJSONDocument: Sendable {
    /// Whether warnings fail a trace.
    public let strict: Bool
    /// The configuration file the check ran with, named in the summary; nil when none was read.
    public var configuration: CheckConfiguration?
    /// What the history said of the build (`check --history`), in the summary; nil without one.
    public var history: CheckHistoryVerdict?
    private var traces = 0
    private var unreadable = 0
    private var failed = 0
    private var incomplete = 0
    private var events = 0
    private var lifetimes = 0
    private var errors = 0
    private var warnings = 0
    private var rules: [Rule: Int64] = [:]

    /// A document whose verdict counts warnings as failures with `strict`.
    public init(strict: Bool) { self.strict = strict }

    /// The version of the document's schema (docs/JSON.md); raised whenever a field changes
    /// meaning or is removed, never for an added field.
    public static let schemaVersion: Int64 = 1

    /// The opening of the document.
    public let head = "{\n  \"schema\": \(CheckJSONDocument.schemaVersion),\n  \"traces\": ["

    /// The separator written before every trace's entry but the first.
    public static let traceSeparator = ","

    /// The opening of a trace's entry, up to its list of lifetimes.
    public static func traceHead(path: String) -> String {
        "\n    {\n      \"path\": " + JSONValue.string(path).rendered() + ",\n      \"lifetimes\": ["
    }

    /// Appends one lifetime of a trace's entry to `output`; `first` for the trace's first lifetime.
    public static func write(_ lifetime: LifetimeReport, first: Bool, to output: inout [UInt8]) {
        output.append(contentsOf: (first ? "\n        " : ",\n        ").utf8)
        JSONOutput.write(to: &output, indent: 2, level: 4) { lifetime.write(to: &$0) }
    }

    /// The rest of a trace's entry after its `lifetimes` lifetimes: counts, metadata, issues and
    /// violations, or the error that stopped the reading. Counts the trace into the summary.
    public mutating func traceTail(_ result: Result<TraceAnalysis, TraceError>, lifetimes written: Int) -> String {
        var bytes = Array((written == 0 ? "]" : "\n      ]").utf8)
        if case .success(let analysis) = result { add(analysis) } else { unreadable += 1 }
        let strict = strict
        JSONOutput.appendMembers(to: &bytes, indent: 2, level: 3) { json in
            switch result {
            case .success(let analysis):
                json.member("complete", !analysis.isIncomplete(strict: strict))
                json.member("events", Int64(analysis.eventCount))
                json.member("origin", analysis.origin)
                json.key("metadata")
                json.value(analysis.metadata.json)
                json.member("issues", strings: analysis.issues.lazy.map(\.description))
                json.member("violations", each: analysis.violations) { violation, json in violation.write(to: &json) }
                // Only for a trace with stack samples, so that every other trace keeps its shape.
                if !analysis.stallProfiles.isEmpty {
                    json.member("stallSamples", each: analysis.stallProfiles) { profile, json in profile.write(to: &json) }
                }
                json.member("violationLimit", Int64(analysis.violationLimit))
                json.member("omittedViolations", object: { json in
                    for rule in analysis.omittedViolations.keys.sorted() {
                        json.key(escaping: rule.id)
                        json.value(Int64(analysis.omittedViolations[rule, default: 0]))
                    }
                })
                // Only when an allowance for real iOS applied (docs/LIFECYCLE.md), each by its id.
                if !analysis.allowancesUsed.isEmpty { json.member("allowances", strings: analysis.allowancesUsed.lazy.map(\.id)) }
                // Only past a cap, so that the output of every other trace keeps its shape.
                var capped = analysis.capped
                capped.lifetimes = max(0, analysis.lifetimeCount - written)
                if !capped.isEmpty {
                    json.member("capped", object: { json in
                        if capped.lifetimes > 0 { json.member("lifetimes", Int64(capped.lifetimes)) }
                        if capped.stalls > 0 { json.member("stalls", Int64(capped.stalls)) }
                        if capped.threadBegins > 0 { json.member("threadBegins", Int64(capped.threadBegins)) }
                        if capped.deepBegins > 0 { json.member("deepBegins", Int64(capped.deepBegins)) }
                        if capped.sceneEvents > 0 { json.member("sceneEvents", Int64(capped.sceneEvents)) }
                        if !capped.stackSampleNotes.isEmpty { json.member("stackSamples", strings: capped.stackSampleNotes) }
                    })
                }
            case .failure(let error):
                json.member("error", error.description)
            }
        }
        bytes.append(contentsOf: "\n    }".utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func add(_ analysis: TraceAnalysis) {
        traces += 1
        if analysis.fails(strict: strict) { failed += 1 }
        if analysis.isIncomplete(strict: strict) { incomplete += 1 }
        events += analysis.eventCount
        lifetimes += analysis.lifetimeCount
        errors += analysis.errorCount
        warnings += analysis.warningCount
        for violation in analysis.violations { rules[violation.rule, default: 0] += 1 }
        for (rule, count) in analysis.omittedViolations { rules[rule, default: 0] += Int64(count) }
    }

    /// How many traces fail (errors, or warnings with ``strict``).
    public var failedTraces: Int { failed }

    /// How many traces could not be read.
    public var unreadableTraces: Int { unreadable }

    /// How many traces were not read whole (``TraceAnalysis/isIncomplete(strict:)``).
    public var incompleteTraces: Int { incomplete }

    /// The summary and the end of the document, with its final newline.
    public var tail: String {
        let summary = JSONValue.object([
            JSONMember("traces", .int(Int64(traces))),
            JSONMember("failedTraces", .int(Int64(failed))),
            JSONMember("incompleteTraces", .int(Int64(incomplete))),
            JSONMember("unreadableTraces", .int(Int64(unreadable))),
            JSONMember("events", .int(Int64(events))),
            JSONMember("lifetimes", .int(Int64(lifetimes))),
            JSONMember("errors", .int(Int64(errors))),
            JSONMember("warnings", .int(Int64(warnings))),
            JSONMember("rules", .object(rules.keys.sorted().map { JSONMember($0.id, .int(rules[$0, default: 0])) })),
            JSONMember("strict", .bool(strict)),
            JSONMember("passed", .bool(failed == 0 && incomplete == 0 && unreadable == 0 && history?.passed != false)),
        ] + (configuration.map { configuration in
            // Only when a file was read, so that every other document keeps its shape.
            [JSONMember("configuration", .object([
                JSONMember("file", .string(configuration.file)),
                JSONMember("changes", .array(configuration.changes.map(JSONValue.string))),
            ]))]
        } ?? []) + (history.map { history in
            // Only with a history, so that every other document keeps its shape.
            [JSONMember("history", .object([
                JSONMember("store", .string(history.store)),
                JSONMember("build", .string(history.build)),
                JSONMember("added", .bool(history.added)),
                JSONMember("comparedTo", history.comparedTo.map(JSONValue.string) ?? .null),
                JSONMember("baseline", .string(history.baseline)),
                JSONMember("changes", .array(history.changes.map(JSONValue.string))),
                JSONMember("passed", .bool(history.passed)),
            ]))]
        } ?? []))
        return (traces + unreadable == 0 ? "]" : "\n  ]") + ",\n  \"summary\": " + summary.rendered(indent: 2, level: 1) + "\n}\n"
    }

    /// The whole document for analyses already made (their lifetimes kept).
    public static func rendered(
        _ analyses: [TraceAnalysis], strict: Bool, configuration: CheckConfiguration? = nil, history: CheckHistoryVerdict? = nil
    ) -> String {
        var document = CheckJSONDocument(strict: strict)
        document.configuration = configuration
        document.history = history
        var text = document.head
        for (index, analysis) in analyses.enumerated() {
            text += (index == 0 ? "" : traceSeparator) + traceHead(path: analysis.path)
            var bytes: [UInt8] = []
            for (position, lifetime) in analysis.lifetimes.enumerated() { write(lifetime, first: position == 0, to: &bytes) }
            text += String(decoding: bytes, as: UTF8.self)
            text += document.traceTail(.success(analysis), lifetimes: analysis.lifetimes.count)
        }
        return text + document.tail
    }
}

extension CheckJSONDocument {
    /// Analyses `paths` on every core and writes their document to `output` while they are read:
    /// each lifetime as it ends, traces in path order. A trace that cannot be read keeps what was
    /// read of it and gets an `error`; `failed` is called with its error on the calling thread,
    /// `recovered` with the problems of each trace its reader recovered from (`issues`).
    /// Returns the document, whose counts give the verdict.
    public static func stream(
        _ paths: [String], options: AnalysisOptions, strict: Bool, configuration: CheckConfiguration? = nil, to output: StagedOutputFile,
        failed: (TraceError) -> Void = { _ in }, recovered: ([TraceError]) -> Void = { _ in }
    ) throws(TraceError) -> CheckJSONDocument {
        var streaming = options
        streaming.keepsLifetimes = false
        let options = streaming
        var document = CheckJSONDocument(strict: strict)
        document.configuration = configuration
        try output.write(document.head)
        var first = true
        try TraceInputs.inOrder(paths: paths, output: output) { path, alone, spool in
            var written = 0
            spool.write(traceHead(path: path))
            let result = Result { () throws(TraceError) in
                try TraceInputs.analyze(path: path, options: options, prefetch: alone) { _, report, _, _ in
                    // The first lifetimes in full, as a report keeps them; the tail counts the rest.
                    guard written < options.lifetimeLimit else { return }
                    spool.write { write(report, first: written == 0, to: &$0) }
                    written += 1
                }
            }
            return (result, written)
        } emit: { traced, spool throws(TraceError) in
            // One trace alone wrote straight through, so there is never a separator to add
            // before its entry afterwards.
            if !first { try output.write(traceSeparator) }
            first = false
            try spool.copy(to: output)
            try output.write(document.traceTail(traced.0, lifetimes: traced.1))
            switch traced.0 {
            case .failure(let error): failed(error)
            case .success(let analysis): if !analysis.issues.isEmpty { recovered(analysis.issues) }
            }
        }
        try output.write(document.tail)
        return document
    }
}
