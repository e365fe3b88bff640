import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// JUnit XML for CI: one test suite per trace, one test case per rule that was checked. The
/// verdict is `lifetrace check`'s exit status: a test case fails (`<failure>`) exactly where the
/// check fails, on an error-severity violation, or on any violation with `strict`; a warning
/// that does not fail the check leaves its test case passed and is written in the test case's
/// `<system-out>` and counted in the suite's `warnings` property. A trace that could not be read,
/// or not read whole, is an `<error>` (exit status 2): never absent, so the CI system counts it;
/// one judged all the same with a problem of its reading (an unclosed end) says so in the suite's
/// `<system-out>`, as a note.
/// Times (`time`, seconds) are measured, never shared out: a suite's `time` is the wall-clock time
/// of reading and checking its trace. Its rules are checked in one pass over the events and
/// cannot be timed apart, so the test cases carry no `time` (the attribute is optional in JUnit
/// XML; readers take a missing one as not measured, or as 0).
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

    /// The report of `check`.
    public init(_ check: CheckOutput) {
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
        var tests = unreadable.count
        var failures = 0
        var errors = unreadable.count
        var suites = ""
        var totalSeconds = 0.0
        for analysis in analyses {
            let incomplete = analysis.isIncomplete(strict: strict)
            let violated = Set(analysis.violatedRules)
            let failing = ran.filter { violated.contains($0) && fails($0) }
            let warned = ran.filter { violated.contains($0) && !fails($0) }
            let cases = ran.count + (incomplete ? 1 : 0)
            let seconds = analysis.checkDuration.map(Self.seconds) ?? 0
            tests += cases
            failures += failing.count
            errors += incomplete ? 1 : 0
            totalSeconds += seconds
            var suite = "  <testsuite name=\"\(escape(analysis.path))\" tests=\"\(cases)\" failures=\"\(failing.count)\" "
                + "errors=\"\(incomplete ? 1 : 0)\" skipped=\"0\" time=\"\(Self.time(seconds))\">\n"
            suite += "    <properties>\n"
                + "      <property name=\"events\" value=\"\(analysis.eventCount)\"/>\n"
                + "      <property name=\"lifetimes\" value=\"\(analysis.lifetimeCount)\"/>\n"
                + "      <property name=\"errors\" value=\"\(analysis.errorCount)\"/>\n"
                + "      <property name=\"warnings\" value=\"\(analysis.warningCount)\"/>\n"
                + "      <property name=\"strict\" value=\"\(strict)\"/>\n"
                + "    </properties>\n"
            if incomplete {
                // A trace read only in part: an error (the test could not run), not a pass.
                let problems = analysis.issues.map(\.description).joined(separator: "\n")
                suite += "    <testcase classname=\"\(escape(analysis.path))\" name=\"\(Rule.traceIntegrityID)\">\n"
                    + "      <error type=\"incomplete\" message=\"not read whole, so not checked whole\">"
                    + "\(escape(problems))</error>\n    </testcase>\n"
            }
            for rule in ran {
                suite += "    <testcase classname=\"\(escape(analysis.path))\" name=\"\(escape(rule.id))\""
                guard violated.contains(rule) else {
                    suite += "/>\n"
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
                    suite += ">\n      <failure type=\"\(rule.severity.rawValue)\" "
                        + "message=\"\(escape(message))\">\(escape(body))</failure>\n    </testcase>\n"
                } else {
                    // A warning: visible, and not a failure, since the check passes with it.
                    suite += ">\n      <system-out>\(escape("warning (does not fail the check without --strict):\n" + body))</system-out>\n"
                        + "    </testcase>\n"
                }
            }
            // A problem the check judged the trace with all the same (an unclosed end), then the caps.
            let notes = analysis.readingNotes(strict: strict).map(\.description) + analysis.capNotes.map { $0 + "." }
            if !notes.isEmpty || !warned.isEmpty {
                let lines = (warned.isEmpty ? [] : ["warnings, not failures: " + warned.map(\.id).joined(separator: ", ") + "."])
                    + notes.map { "note: \($0)" }
                suite += "    <system-out>\(escape(lines.map { $0 + "\n" }.joined()))</system-out>\n"
            }
            suite += "  </testsuite>\n"
            suites += suite
        }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"lifetrace check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" "
            + "skipped=\"0\" time=\"\(Self.time(totalSeconds))\">\n"
        for error in unreadable {
            output += "  <testsuite name=\"\(escape(error.file))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0.000000\">\n"
                + "    <testcase classname=\"\(escape(error.file))\" name=\"read\">\n"
                + "      <error type=\"\(error.kind.rawValue)\" message=\"\(escape(error.description))\">"
                + "\(escape(error.description))</error>\n    </testcase>\n  </testsuite>\n"
        }
        output += suites
        output += "</testsuites>\n"
        return output
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Seconds with six decimals (microseconds), as JUnit's `time` attribute takes them.
    static func time(_ seconds: Double) -> String { DecimalText.string(seconds, decimals: 6) }

    func escape(_ text: String) -> String { XMLText.escape(text) }
}
