import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// JUnit XML for CI: one test suite per trace, one test case per rule that was checked. The
/// verdict is `lifetrace check`'s exit status: a test case fails (`<failure>`) exactly where the
/// check fails, on an error-severity violation, or on any violation with `strict`; a warning
/// that does not fail the check leaves its test case passed and is written in the suite's
/// `<system-out>` and counted in its `warnings` property. A trace that could not be read, or not
/// read whole, is an `<error>` (exit status 2): never absent, so the CI system counts it; one
/// judged all the same with a problem of its reading (an unclosed end) says so in the suite's
/// `<system-out>`, as a note.
///
/// The document holds to the strict JUnit schema that CI servers validate against (the one of
/// Apache Ant's JUnit report, docs/REPORTS.md): `<testsuites>` without attributes; each suite
/// with `name`, `package`, `id`, `timestamp` (when the check ran, UTC, without a zone),
/// `hostname`, `tests`, `failures`, `errors`, `time`, then `<properties>`, its test cases,
/// `<system-out>` and `<system-err>`, always present; each test case with `name`, `classname`
/// and `time`, and at most one `<failure>` or `<error>`.
/// Times (`time`, seconds) are measured, never shared out: a suite's `time` is the wall-clock time
/// of reading and checking its trace. Its rules are checked in one pass over the events and
/// cannot be timed apart, so every test case's `time` is 0.
public struct JUnitReport: CheckRenderer {
    /// The analyses.
    public var analyses: [TraceAnalysis]
    /// The rules that were checked.
    public var rules: RuleSet
    /// The rules of rule files, when any were given: test cases after the built-in rules'.
    public var userRules: UserRules?
    /// Whether warnings fail, and any reading problem fails a trace (``TraceAnalysis/isIncomplete(strict:)``).
    public var strict: Bool
    /// The traces that could not be read.
    public var unreadable: [TraceError]
    /// The configuration file the check ran with: every suite's `configuration` property names
    /// it, and a `configuration.change` property each thing it changed.
    public var configuration: CheckConfiguration?
    /// What the history said of the build: a suite of its own, whose test case fails on a change
    /// the build starts, and `history` properties in every suite.
    public var history: CheckHistoryVerdict?

    /// When the check ran: every suite's `timestamp`.
    public var timestamp = Date()
    /// The machine the check ran on: every suite's `hostname`.
    public var hostname = JUnitReport.machineName

    /// The report of `check`.
    public init(_ check: CheckOutput) {
        configuration = check.configuration
        history = check.history
        analyses = check.analyses
        rules = check.rules
        userRules = check.userRules
        strict = check.strict
        unreadable = check.unreadable
    }

    /// The rules that ran, built-in ones first, in table order.
    var checkedRules: [Rule] {
        Rule.allCases.filter { rules.contains($0) } + (userRules.map { user in user.rules.filter { user.enabled.contains($0) } } ?? [])
    }

    /// Whether `rule`'s violations in `analysis` fail the check.
    func fails(_ rule: Rule) -> Bool { strict || rule.severity == .error }

    /// The XML document, ending with a newline.
    public var document: String {
        let ran = checkedRules
        var suites: [String] = []
        for error in unreadable {
            suites.append(suite(
                name: error.file, tests: 1, failures: 0, errors: 1, seconds: 0, properties: "",
                cases: "    <testcase classname=\"\(escape(error.file))\" name=\"read\" time=\"\(Self.time(0))\">\n"
                    + "      <error type=\"\(error.kind.rawValue)\" message=\"\(escape(error.description))\">"
                    + "\(escape(error.description))</error>\n    </testcase>\n",
                output: "", id: suites.count))
        }
        for analysis in analyses {
            let incomplete = analysis.isIncomplete(strict: strict)
            let violated = Set(analysis.violatedRules)
            let failing = ran.filter { violated.contains($0) && fails($0) }
            let caseStart = { (name: String) in
                "    <testcase classname=\"\(self.escape(analysis.path))\" name=\"\(self.escape(name))\" time=\"\(Self.time(0))\""
            }
            var cases = ""
            var warnings = ""
            if incomplete {
                // A trace read only in part: an error (the test could not run), not a pass.
                let problems = analysis.issues.map(\.description).joined(separator: "\n")
                cases += caseStart(Rule.traceIntegrityID) + ">\n"
                    + "      <error type=\"incomplete\" message=\"not read whole, so not checked whole\">"
                    + "\(escape(problems))</error>\n    </testcase>\n"
            }
            for rule in ran {
                cases += caseStart(rule.id)
                guard violated.contains(rule) else {
                    cases += "/>\n"
                    continue
                }
                let found = analysis.violations.filter { $0.rule == rule }
                var body = found.map { violation in
                    violation.placedStatement + "\n" + violation.events.map { "    \($0)\n" }.joined()
                }.joined()
                let omitted = analysis.omittedViolations[rule, default: 0]
                if omitted > 0, let note = analysis.omittedNote {
                    body += "\(omitted) more violations of this rule are not listed. \(note).\n"
                }
                if fails(rule) {
                    let message = found.first?.placedStatement ?? "\(omitted) violations, not listed"
                    cases += ">\n      <failure type=\"\(rule.severity.rawValue)\" "
                        + "message=\"\(escape(message))\">\(escape(body))</failure>\n    </testcase>\n"
                } else {
                    // A warning: visible in the suite's output, and not a failure, since the check
                    // passes with it (the strict schema gives a test case no output of its own).
                    cases += "/>\n"
                    warnings += "warning \(rule.id) (does not fail the check without --strict):\n" + body
                }
            }
            let warned = ran.filter { violated.contains($0) && !fails($0) }
            // A problem the check judged the trace with all the same (an unclosed end), then the caps.
            let notes = analysis.readingNotes(strict: strict).map(\.description) + analysis.capNotes.map { $0 + "." }
            let lines = (warned.isEmpty ? [] : ["warnings, not failures: " + warned.map(\.id).joined(separator: ", ") + "."])
                + notes.map { "note: \($0)" }
            let properties = "      <property name=\"events\" value=\"\(analysis.eventCount)\"/>\n"
                + "      <property name=\"lifetimes\" value=\"\(analysis.lifetimeCount)\"/>\n"
                + "      <property name=\"errors\" value=\"\(analysis.errorCount)\"/>\n"
                + "      <property name=\"warnings\" value=\"\(analysis.warningCount)\"/>\n"
                + "      <property name=\"strict\" value=\"\(strict)\"/>\n"
            suites.append(suite(
                name: analysis.path, tests: ran.count + (incomplete ? 1 : 0), failures: failing.count, errors: incomplete ? 1 : 0,
                seconds: analysis.checkDuration.map(Self.seconds) ?? 0, properties: properties, cases: cases,
                output: lines.map { $0 + "\n" }.joined() + warnings, id: suites.count))
        }
        if let history {
            let failure = history.changes.isEmpty ? "/>\n"
                : ">\n      <failure type=\"change\" message=\"\(escape(history.changes[0]))\">"
                    + "\(escape(history.changes.joined(separator: "\n")))</failure>\n    </testcase>\n"
            suites.append(suite(
                name: history.store, tests: 1, failures: history.passed ? 0 : 1, errors: 0, seconds: 0, properties: "",
                cases: "    <testcase classname=\"\(escape(history.store))\" name=\"\(escape(history.build))\" time=\"\(Self.time(0))\""
                    + failure,
                output: history.sentence + "\n", id: suites.count))
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n" + suites.joined() + "</testsuites>\n"
    }

    /// One `<testsuite>` with every attribute and element the strict schema requires.
    private func suite(
        name: String, tests: Int, failures: Int, errors: Int, seconds: Double, properties: String, cases: String, output: String, id: Int
    ) -> String {
        "  <testsuite name=\"\(escape(name))\" package=\"\(escape(name))\" id=\"\(id)\" timestamp=\"\(Self.timestamp(timestamp))\" "
            + "hostname=\"\(escape(hostname))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(Self.time(seconds))\">\n"
            + "    <properties>\n" + properties + configurationProperties + historyProperties + "    </properties>\n"
            + cases
            + "    <system-out>\(escape(output))</system-out>\n"
            + "    <system-err></system-err>\n"
            + "  </testsuite>\n"
    }

    /// `date` as the strict schema's timestamp: ISO 8601, UTC, to the second, without a zone.
    static func timestamp(_ date: Date) -> String {
        UTCTimestamp.text(date, zone: "")
    }

    /// This machine's name (`gethostname`), without asking a name service; `localhost` when it
    /// has none.
    public static var machineName: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }

    /// The properties naming the configuration file and each thing it changed.
    var configurationProperties: String {
        guard let configuration else { return "" }
        return "      <property name=\"configuration\" value=\"\(escape(configuration.file))\"/>\n"
            + configuration.changes.map { "      <property name=\"configuration.change\" value=\"\(escape($0))\"/>\n" }.joined()
    }

    /// The properties naming the history's verdict: the store, the build, the build it was
    /// compared to, each change it starts, and whether it passed.
    var historyProperties: String {
        guard let history else { return "" }
        return "      <property name=\"history\" value=\"\(escape(history.store))\"/>\n"
            + "      <property name=\"history.build\" value=\"\(escape(history.build))\"/>\n"
            + (history.comparedTo.map { "      <property name=\"history.comparedTo\" value=\"\(escape($0))\"/>\n" } ?? "")
            + history.changes.map { "      <property name=\"history.change\" value=\"\(escape($0))\"/>\n" }.joined()
            + "      <property name=\"history.passed\" value=\"\(history.passed)\"/>\n"
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Seconds with six decimals (microseconds), as JUnit's `time` attribute takes them.
    static func time(_ seconds: Double) -> String { DecimalText.string(seconds, decimals: 6) }

    func escape(_ text: String) -> String { XMLText.escape(text) }
}
