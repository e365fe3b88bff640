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
/// statement, and the trace as its location (the line of the offending event in a text trace).
/// Traces that could not be read, or not read whole, are error notifications of the invocation,
/// whose `executionSuccessful` is then false: a dashboard never shows them as clean.
public struct SARIFReport: Sendable {
    /// The SARIF version written.
    public static let version = "2.1.0"
    /// The schema the log names: the OASIS standard's, errata 01.
    public static let schema = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// The check.
    public var output: CheckOutput

    /// Creates the log of `output`.
    public init(_ output: CheckOutput) { self.output = output }

    /// Every rule the log describes, in catalog order.
    var rules: [Rule] { Rule.allCases + (output.userRules?.rules ?? []) }

    /// The SARIF document, ending with a newline.
    public var json: String {
        let rules = rules
        var index: [Rule: Int] = [:]
        for (position, rule) in rules.enumerated() { index[rule] = position }
        var results: [JSONValue] = []
        var notifications: [JSONValue] = []
        for error in output.unreadable {
            notifications.append(notification(error.description, uri: error.file))
        }
        for analysis in output.analyses {
            if analysis.isIncomplete(strict: output.strict) {
                let problems = analysis.issues.map(\.description).joined(separator: "; ")
                notifications.append(notification("\(analysis.path): not read whole, so not checked whole: \(problems)", uri: analysis.path))
            }
            let lines = GitHubAnnotations.eventLines(analysis)
            for violation in analysis.violations {
                var location: [JSONMember] = [JSONMember("artifactLocation", .object([JSONMember("uri", .string(Self.uri(analysis.path)))]))]
                if let line = violation.events.last.flatMap({ lines?[Self.key($0)] }) {
                    location.append(JSONMember("region", .object([JSONMember("startLine", .int(Int64(line)))])))
                }
                let witnesses = violation.events.map { "\n  \($0)" }.joined()
                results.append(.object([
                    JSONMember("ruleId", .string(violation.rule.id)),
                    JSONMember("ruleIndex", .int(Int64(index[violation.rule] ?? 0))),
                    JSONMember("level", .string(Self.level(violation.rule))),
                    JSONMember("message", .object([JSONMember("text", .string(violation.statement + witnesses))])),
                    JSONMember("locations", .array([.object([JSONMember("physicalLocation", .object(location))])])),
                    JSONMember("properties", .object([
                        JSONMember("lifetime", .int(Int64(violation.lifetime + 1))),
                        JSONMember("timestamp", .int(violation.timestamp)),
                    ])),
                ]))
            }
            if let note = analysis.omittedNote {
                notifications.append(.object([
                    JSONMember("level", .string("warning")), JSONMember("message", .object([JSONMember("text", .string("\(analysis.path): \(note)"))])),
                ]))
            }
        }
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
                JSONMember("invocations", .array([.object([
                    JSONMember("executionSuccessful", .bool(successful)),
                    JSONMember("toolExecutionNotifications", .array(notifications)),
                ])])),
                JSONMember("results", .array(results)),
            ])])),
        ])
        return document.rendered(indent: 2) + "\n"
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

    /// A notification of the invocation (a trace the check could not read whole).
    private func notification(_ text: String, uri: String) -> JSONValue {
        .object([
            JSONMember("level", .string("error")),
            JSONMember("message", .object([JSONMember("text", .string(text))])),
            JSONMember("locations", .array([.object([JSONMember("physicalLocation", .object([
                JSONMember("artifactLocation", .object([JSONMember("uri", .string(Self.uri(uri)))])),
            ]))])])),
        ])
    }

    /// A path as a URI reference: percent-encoded where a URI path cannot hold the character.
    static func uri(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }

    private static func key(_ event: EventSummary) -> JSONLEventLines.Key { GitHubAnnotations.key(event) }}
