import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// `lifetrace check --format text`, for people: per trace its verdict, its problems and its
/// violations with their witnesses, then a line that sums up the check. Every line goes through
/// the terminal escaper (``TerminalText``): a trace's names cannot forge lines.
public struct CheckTextReport: CheckRenderer {
    /// The check.
    public var check: CheckOutput

    /// The text of `check`.
    public init(_ check: CheckOutput) { self.check = check }

    /// The text, ending with a newline.
    public var document: String {
        let analyses = check.analyses
        let strict = check.strict
        let unreadable = check.unreadable
        let incomplete = check.incomplete
        var output = ""
        func line(_ text: String) { output += TerminalText.escaped(text) + "\n" }
        for analysis in analyses {
            if analysis.isIncomplete(strict: strict) {
                line("\(analysis.path): not read whole (\(analysis.eventCount) events read), "
                    + "\(plural(analysis.errorCount, "error")), \(plural(analysis.warningCount, "warning"))")
            } else if analysis.violationCount == 0 {
                line("\(analysis.path): ok (\(analysis.eventCount) events, \(plural(analysis.lifetimeCount, "lifetime")))")
            } else {
                line("\(analysis.path): \(plural(analysis.errorCount, "error")), \(plural(analysis.warningCount, "warning"))")
            }
            let problem = analysis.isIncomplete(strict: strict) ? "error" : "note"
            for issue in analysis.issues { line("  \(problem): \(issue.description)") }
            if analysis.isIncomplete(strict: strict) {
                line("  error: not read whole, so not checked whole" + (strict ? " (strict)" : ""))
            }
            for violation in analysis.violations {
                line("  " + violation.line(namingLifetime: analysis.lifetimeCount > 1))
                for event in violation.events { line("      \(event)") }
            }
            if let note = analysis.omittedNote { line("  note: \(note)") }
            for note in analysis.capNotes { line("  note: \(note)") }
        }
        if let configuration = check.configuration { line(configuration.sentence) }
        if let history = check.history { line(history.sentence) }
        let errors = analyses.reduce(0) { $0 + $1.errorCount }
        let warnings = analyses.reduce(0) { $0 + $1.warningCount }
        let failed = analyses.filter { $0.fails(strict: strict) }.count
        output += "\(plural(analyses.count, "trace")) checked, \(failed) failed: "
            + "\(plural(errors, "error")), \(plural(warnings, "warning"))"
            + (strict ? " (strict: warnings fail)" : "")
            + (unreadable.isEmpty ? "" : "; \(plural(unreadable.count, "trace")) could not be read")
            + (incomplete > 0 ? "; \(plural(incomplete, "trace")) not read whole" : "") + "\n"
        return output
    }
}
