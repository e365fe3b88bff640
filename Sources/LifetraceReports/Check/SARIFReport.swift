import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// `lifetrace check --format sarif`: the check as a SARIF 2.1.0 log (OASIS, "Static Analysis
/// Results Interchange Format (SARIF) Version 2.1.0"), for code-scanning dashboards such as
/// GitHub's (`github/codeql-action/upload-sarif`).
///
/// One run; `tool.driver.rules` is the rule catalog (every built-in rule, then the rules of rule
/// files), each with its summary, the sentence it rests on, and help that names its public source
/// by title. Each violation is a result with its rule's level (`error` or `warning`), its
/// statement, and the trace as its location: the line of the offending event in a text trace
/// (`region.startLine`), the bytes of the chunk it was decoded from in a binary one
/// (`region.byteOffset` and `byteLength`).
/// Traces that could not be read, or not read whole, are error notifications of the invocation,
/// whose `executionSuccessful` is then false: a dashboard never shows them as clean; a trace
/// judged all the same with a problem of its reading (an unclosed end) is a note notification, as
/// is each cap an analysis met and each note on its stack samples (``TraceAnalysis/capNotes``).
///
/// The log holds to what GitHub code scanning accepts and keeps (its documentation, "SARIF
/// support for code scanning" and "SARIF results exceed limits"): one run per file (20 at
/// most), one location per result (1,000), two tags per rule (20), and at most
/// ``resultLimit`` results, the number GitHub keeps of a run (it refuses a run of more than
/// 25,000), within ``byteLimit`` bytes (its 10 MB per file). Past them, the most severe are
/// written, ranked as the GitHub annotations are (``GitHubAnnotations``), in the order of the
/// traces; a warning notification of the invocation says how many were left out, and the run's
/// `properties` count them (`resultsNotWritten`). Each result has a stable
/// `partialFingerprints` entry (``fingerprintKey``: its rule, trace, lifetime and place among
/// that rule's violations in the lifetime), so that code scanning follows a finding from one run
/// of the job to the next, although the traces are artifacts, not files of the repository.
public struct SARIFReport: CheckRenderer {
    /// The most results written in a run: GitHub keeps 5,000 of a run and refuses more than 25,000.
    public static let resultLimit = 5_000
    /// The most bytes the log takes: GitHub's limit on a SARIF file, 10 MB.
    public static let byteLimit = 10_000_000
    /// The key of each result's fingerprint in `partialFingerprints`.
    public static let fingerprintKey = "lifetraceFinding/v1"

    /// The SARIF version written.
    public static let version = "2.1.0"
    /// The schema the log names: the OASIS standard's, errata 01.
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// The base id of trace locations under ``workingDirectory``: SARIF's customary name for the
    /// root of the sources, given in the run's `originalUriBaseIds`.
    public static let rootBaseId = "%SRCROOT%"

    /// The check.
    public var output: CheckOutput
    /// The directory relative paths are read from: a trace under it is located by a relative
    /// URI with ``rootBaseId``, any other by an absolute `file://` URI.
    public var workingDirectory: String

    /// Creates the log of `output`, with paths relative to `workingDirectory`.
    public init(_ output: CheckOutput, workingDirectory: String) {
        self.output = output
        self.workingDirectory = workingDirectory
    }

    /// Creates the log of `output`, with paths relative to the current directory.
    public init(_ output: CheckOutput) {
        self.init(output, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    /// Every rule the log describes, in catalog order.
    var rules: [Rule] { Rule.allCases + (output.userRules?.rules ?? []) }

    /// The SARIF document, ending with a newline.
    public var document: String {
        let rules = rules
        var index: [Rule: Int] = [:]
        for (position, rule) in rules.enumerated() { index[rule] = position }
        // Each result with its ranking (failing first, farthest past its limit first) and its order.
        var failing: [(annotation: (order: Int, result: JSONValue), overrun: Int64?)] = []
        var passing: [(annotation: (order: Int, result: JSONValue), overrun: Int64?)] = []
        var notifications: [JSONValue] = []
        for error in output.unreadable {
            notifications.append(notification(error.description, uri: error.file))
        }
        for analysis in output.analyses {
            if analysis.isIncomplete(strict: output.strict) {
                let problems = analysis.issues.map(\.description).joined(separator: "; ")
                notifications.append(notification("\(analysis.path): not read whole, so not checked whole: \(problems)", uri: analysis.path))
            }
            // Judged all the same (an unclosed end): a note of the invocation, at the trace.
            for issue in analysis.readingNotes(strict: output.strict) {
                notifications.append(notification(issue.description, uri: analysis.path, level: "note"))
            }
            var ordinals: [FindingPlace: Int] = [:]
            for violation in analysis.violations {
                let place = FindingPlace(rule: violation.rule, lifetime: violation.lifetime)
                let ordinal = ordinals[place, default: 0] + 1
                ordinals[place] = ordinal
                var location: [JSONMember] = [JSONMember("artifactLocation", artifactLocation(analysis.path))]
                if let line = violation.offendingLine {
                    location.append(JSONMember("region", .object([JSONMember("startLine", .int(Int64(line)))])))
                } else if let chunk = violation.offendingChunk {
                    location.append(JSONMember("region", .object([
                        JSONMember("byteOffset", .int(chunk.byteOffset)), JSONMember("byteLength", .int(chunk.byteLength)),
                    ])))
                }
                let witnesses = violation.events.map { "\n  \($0)" }.joined()
                let result = JSONValue.object([
                    JSONMember("ruleId", .string(violation.rule.id)),
                    JSONMember("ruleIndex", .int(Int64(index[violation.rule] ?? 0))),
                    JSONMember("level", .string(Self.level(violation.rule))),
                    JSONMember("message", .object([JSONMember("text", .string(violation.placedStatement + witnesses))])),
                    JSONMember("locations", .array([.object([JSONMember("physicalLocation", .object(location))])])),
                    JSONMember("partialFingerprints", .object([
                        JSONMember(Self.fingerprintKey, .string(fingerprint(violation, in: analysis.path, ordinal: ordinal))),
                    ])),
                    JSONMember("properties", .object([
                        JSONMember("lifetimeNumber", .int(Int64(violation.lifetime + 1))),
                        JSONMember("timestamp", .int(violation.timestamp)),
                    ])),
                ])
                let ranked = (annotation: (order: failing.count + passing.count, result: result), overrun: violation.overrun)
                if violation.severity == .error || output.strict { failing.append(ranked) } else { passing.append(ranked) }
            }
            // What the analysis counted instead of keeping past its caps, and the stack samples'
            // notes (images not symbolicated, samples past the reader's limits): notes at the trace.
            for note in analysis.capNotes {
                notifications.append(notification("\(analysis.path): \(note)", uri: analysis.path, level: "note"))
            }
            if let note = analysis.omittedNote {
                notifications.append(.object([
                    JSONMember("level", .string("warning")), JSONMember("message", .object([JSONMember("text", .string("\(analysis.path): \(note)"))])),
                ]))
            }
        }
        let ranked = GitHubAnnotations.worstFirst(failing) + GitHubAnnotations.worstFirst(passing)
        let results = within(limits: ranked, notifications: &notifications, rules: rules)
        let successful = output.unreadable.isEmpty && output.incomplete == 0
        let document = JSONValue.object([
            JSONMember("$schema", .string(Self.schema)),
            JSONMember("version", .string(Self.version)),
            JSONMember("runs", .array([.object([
                JSONMember("tool", .object([JSONMember("driver", .object([
                    JSONMember("name", .string("lifetrace")),
                    JSONMember("fullName", .string("Lifetrace, the iOS app life cycle checker")),
                    JSONMember("rules", .array(rules.map(Self.descriptor))),
                ]))])),
                JSONMember("originalUriBaseIds", .object([
                    JSONMember(Self.rootBaseId, .object([JSONMember("uri", .string(Self.directoryURI(workingDirectory)))])),
                ])),
                JSONMember("invocations", .array([.object([
                    JSONMember("executionSuccessful", .bool(successful)),
                    JSONMember("toolExecutionNotifications", .array(notifications)),
                ] + invocationProperties)])),
                JSONMember("results", .array(results.kept)),
            ] + (results.left > 0 ? [JSONMember("properties", .object([JSONMember("resultsNotWritten", .int(Int64(results.left)))]))] : []))])),
        ])
        return document.rendered(indent: 2) + "\n"
    }

    /// A violation's place among the findings of a trace: its rule in its lifetime.
    private struct FindingPlace: Hashable {
        var rule: Rule
        var lifetime: Int
    }

    /// A finding's fingerprint, the same on every run that finds it: the rule, the trace as the
    /// log names it, the lifetime (from 1) and the violation's place among that rule's
    /// violations in the lifetime (from 1), `hang:runs/a.jsonl:2:1`. No time or duration in it:
    /// a run recorded again that breaks the rule in the same place is the same finding.
    func fingerprint(_ violation: Violation, in path: String, ordinal: Int) -> String {
        let trace = WorkingDirectoryPath.relative(path, under: workingDirectory) ?? path
        return "\(violation.rule.id):\(trace):\(violation.lifetime + 1):\(ordinal)"
    }

    /// The results written, most severe first, up to ``resultLimit`` and within ``byteLimit``
    /// (with room for the rest of the log), back in the order of the traces; a warning
    /// notification says how many were left out.
    private func within(
        limits ranked: [(order: Int, result: JSONValue)], notifications: inout [JSONValue], rules: [Rule]
    ) -> (kept: [JSONValue], left: Int) {
        // The log without results: the rule catalog and the notifications, as they are indented.
        let rest = JSONValue.array(rules.map(Self.descriptor) + notifications).rendered(indent: 2, level: 4).utf8.count
        var budget = Self.byteLimit - rest - 64 * 1024
        var kept: [(order: Int, result: JSONValue)] = []
        for entry in ranked where kept.count < Self.resultLimit {
            let size = entry.result.rendered(indent: 2, level: 4).utf8.count + 12
            guard size <= budget else { continue }
            budget -= size
            kept.append(entry)
        }
        let left = ranked.count - kept.count
        if left > 0 {
            notifications.append(.object([
                JSONMember("level", .string("warning")),
                JSONMember("message", .object([JSONMember("text", .string(
                    "\(left) of \(ranked.count) results are not in this log: GitHub code scanning keeps at most "
                        + "\(Self.resultLimit) results of a run and takes files of at most \(Self.byteLimit / 1_000_000) MB; "
                        + "the most severe are here, and every finding is in the JSON and JUnit outputs"))])),
            ]))
        }
        return (kept.sorted { $0.order < $1.order }.map(\.result), left)
    }

    /// The invocation's property bag: the configuration file the check ran with and what it
    /// changed (`configuration`, `configurationChanges`); nothing when none was read.
    /// With a history, its verdict too (`history`: the store, the build, the build it was
    /// compared to, the changes it starts, whether it passed).
    var invocationProperties: [JSONMember] {
        var properties: [JSONMember] = []
        if let configuration = output.configuration {
            properties += [
                JSONMember("configuration", .string(configuration.file)),
                JSONMember("configurationChanges", .array(configuration.changes.map(JSONValue.string))),
            ]
        }
        if let history = output.history {
            properties.append(JSONMember("history", .object([
                JSONMember("store", .string(history.store)),
                JSONMember("build", .string(history.build)),
                JSONMember("comparedTo", history.comparedTo.map(JSONValue.string) ?? .null),
                JSONMember("changes", .array(history.changes.map(JSONValue.string))),
                JSONMember("passed", .bool(history.passed)),
            ])))
        }
        return properties.isEmpty ? [] : [JSONMember("properties", .object(properties))]
    }

    /// A rule's reporting descriptor: id, summary, the sentence it rests on, help citing its source.
    static func descriptor(_ rule: Rule) -> JSONValue {
        var members = [
            JSONMember("id", .string(rule.id)),
            JSONMember("shortDescription", .object([JSONMember("text", .string(rule.summary))])),
        ]
        let source = rule.fact.map { $0.source + ($0.isTranslation ? " (quoted in translation)" : "") } ?? rule.location
        if let reason = rule.reason {
            members.append(JSONMember("fullDescription", .object([JSONMember("text", .string(reason))])))
        }
        let help = "Violated when " + rule.summary + "."
            + (source.map { " Source: \($0)." } ?? "")
            + (rule.builtIn != nil ? " The rule and its allowances are explained in Lifetrace's docs/LIFECYCLE.md." : "")
        members.append(JSONMember("help", .object([JSONMember("text", .string(help))])))
        members.append(JSONMember("defaultConfiguration", .object([JSONMember("level", .string(level(rule)))])))
        members.append(JSONMember("properties", .object([
            JSONMember("tags", .array([.string("ios-life-cycle"), .string(rule.builtIn != nil ? "built-in" : "rule-file")])),
        ])))
        return .object(members)
    }

    /// SARIF's level for a rule's severity.
    static func level(_ rule: Rule) -> String { rule.severity == .error ? "error" : "warning" }

    /// A notification of the invocation at a trace: an `error` for a trace the check could not
    /// read whole, a `note` for a problem it judged the trace with all the same.
    private func notification(_ text: String, uri path: String, level: String = "error") -> JSONValue {
        .object([
            JSONMember("level", .string(level)),
            JSONMember("message", .object([JSONMember("text", .string(text))])),
            JSONMember("locations", .array([.object([JSONMember("physicalLocation", .object([
                JSONMember("artifactLocation", artifactLocation(path)),
            ]))])])),
        ])
    }

    /// Where a trace is (SARIF 2.1.0, 3.4 "artifactLocation object"): under the working directory,
    /// a relative URI reference with ``rootBaseId``; elsewhere an absolute `file://` URI.
    func artifactLocation(_ path: String) -> JSONValue {
        if let relative = WorkingDirectoryPath.relative(path, under: workingDirectory) {
            return .object([JSONMember("uri", .string(Self.relativeURI(relative))), JSONMember("uriBaseId", .string(Self.rootBaseId))])
        }
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: workingDirectory, isDirectory: true))
        return .object([JSONMember("uri", .string(absolute.standardizedFileURL.absoluteString))])
    }

    /// The characters a relative URI's path keeps as they are: those of a URI path but `:`, which
    /// in a first segment would read as a scheme (RFC 3986, 4.2).
    private static let relativePathAllowed: CharacterSet = {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(":")
        return allowed
    }()

    /// A relative path as a relative URI reference, percent-encoded (RFC 3986).
    static func relativeURI(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: relativePathAllowed) ?? path
    }

    /// A directory as an absolute `file://` URI ending in `/`, as `originalUriBaseIds` needs.
    static func directoryURI(_ directory: String) -> String {
        URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL.absoluteString
    }
}
