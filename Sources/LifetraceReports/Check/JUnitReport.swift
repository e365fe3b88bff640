import LifetraceAnalysis
import LifetraceFormat

/// JUnit XML for CI: one test suite per trace, one test case per rule; a violated rule is a
/// failure carrying its messages (a warning too: CI systems have no warning state), a rule that
/// was not checked is skipped. A trace that could not be read is a suite of one test case, `read`,
/// in error: it is never absent, so the CI system counts it.
public struct JUnitReport: Sendable {
    /// The analyses.
    public var analyses: [TraceAnalysis]
    /// The rules that were checked.
    public var rules: RuleSet
    /// The rules of rule files, when any were given: test cases after the built-in rules'.
    public var userRules: UserRules?
    /// Whether any reading problem fails a trace (``TraceAnalysis/isIncomplete(strict:)``).
    public var strict: Bool
    /// The traces that could not be read.
    public var unreadable: [TraceError]

    /// Creates the report.
    public init(
        analyses: [TraceAnalysis], rules: RuleSet, userRules: UserRules? = nil, strict: Bool = false, unreadable: [TraceError] = []
    ) {
        self.analyses = analyses
        self.rules = rules
        self.userRules = userRules
        self.strict = strict
        self.unreadable = unreadable
    }

    /// The XML document.
    public var xml: String {
        let failures = analyses.reduce(0) { total, analysis in total + analysis.violatedRules.count }
        let allRules = Rule.allCases + (userRules?.rules ?? [])
        let checked = { (rule: Rule) in rule.builtIn == nil ? self.userRules?.enabled.contains(rule) == true : self.rules.contains(rule) }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"lifetrace check\" tests=\"\(analyses.count * allRules.count + unreadable.count)\" "
            + "failures=\"\(failures)\" errors=\"\(unreadable.count)\">\n"
        for error in unreadable {
            output += "  <testsuite name=\"\(escape(error.file))\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
                + "    <testcase classname=\"\(escape(error.file))\" name=\"read\">\n"
                + "      <error type=\"\(error.kind.rawValue)\" message=\"\(escape(error.description))\">"
                + "\(escape(error.description))</error>\n    </testcase>\n  </testsuite>\n"
        }
        for analysis in analyses {
            let violated = analysis.violatedRules
            let skipped = allRules.filter { !checked($0) }.count
            let incomplete = analysis.isIncomplete(strict: strict)
            output += "  <testsuite name=\"\(escape(analysis.path))\" tests=\"\(allRules.count)\" "
                + "failures=\"\(violated.count)\" errors=\"\(incomplete ? 1 : 0)\" skipped=\"\(skipped)\">\n"
            if incomplete {
                // A trace read only in part: an error (the test could not run), not a pass.
                let problems = analysis.issues.map(\.description).joined(separator: "\n")
                output += "    <testcase classname=\"\(escape(analysis.path))\" name=\"\(Rule.traceIntegrityID)\">\n"
                    + "      <error type=\"incomplete\" message=\"not read whole, so not checked whole\">"
                    + "\(escape(problems))</error>\n    </testcase>\n"
            }
            for rule in allRules {
                output += "    <testcase classname=\"\(escape(analysis.path))\" name=\"\(rule.id)\""
                let found = analysis.violations.filter { $0.rule == rule }
                if !checked(rule) {
                    output += ">\n      <skipped message=\"rule not checked\"/>\n    </testcase>\n"
                } else if found.isEmpty && analysis.omittedViolations[rule] == nil {
                    output += "/>\n"
                } else {
                    var body = found.map { violation in
                        violation.statement + "\n"
                            + violation.events.map { "    \($0)\n" }.joined()
                    }.joined()
                    let omitted = analysis.omittedViolations[rule, default: 0]
                    if omitted > 0, let note = analysis.omittedNote {
                        body += "\(omitted) more violations of this rule are not listed. \(note).\n"
                    }
                    let message = found.first?.message ?? "\(omitted) violations, not listed"
                    output += ">\n      <failure type=\"\(rule.severity.rawValue)\" "
                        + "message=\"\(escape(message))\">\(escape(body))</failure>\n    </testcase>\n"
                }
            }
            let notes = analysis.capNotes
            if !notes.isEmpty {
                output += "    <system-out>\(escape(notes.map { "note: \($0).\n" }.joined()))</system-out>\n"
            }
            output += "  </testsuite>\n"
        }
        output += "</testsuites>\n"
        return output
    }

    /// Escapes text for XML attributes and content: the markup characters as entities, line
    /// breaks and tabs as character references (an attribute would turn them into spaces), and
    /// every character XML 1.0 cannot hold at all, not even as a reference (the C0 controls but
    /// tab, LF and CR; U+FFFE; U+FFFF), as U+FFFD REPLACEMENT CHARACTER. Lone surrogates cannot
    /// occur in a Swift string. The one XML escaper of the package.
    static func escape(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: output += "&amp;"
            case 0x3C: output += "&lt;"
            case 0x3E: output += "&gt;"
            case 0x22: output += "&quot;"
            case 0x0A: output += "&#10;"
            case 0x0D: output += "&#13;"
            case 0x09: output += "&#9;"
            case 0..<0x20, 0xFFFE, 0xFFFF: output.unicodeScalars.append("\u{FFFD}")
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    func escape(_ text: String) -> String { Self.escape(text) }
}
