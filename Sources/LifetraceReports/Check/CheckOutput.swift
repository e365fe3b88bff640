import LifetraceAnalysis
import LifetraceFormat

/// The output of `lifetrace check` for a set of analysed traces, in each supported format.
public struct CheckOutput: Sendable {
    /// The formats `lifetrace check --format` accepts.
    public enum Format: String, Sendable, CaseIterable {
        /// One block per trace for people.
        case text
        /// The document described in `docs/JSON.md`.
        case json
        /// JUnit XML: one test case per rule per trace.
        case junit
        /// GitHub Actions workflow commands: the most severe findings as annotations.
        case github
        /// Markdown: the whole check, for a CI job summary (`$GITHUB_STEP_SUMMARY`).
        case markdown
        /// SARIF 2.1.0, for code-scanning dashboards.
        case sarif
    }

    /// The analyses, in the order the traces were given.
    public var analyses: [TraceAnalysis]
    /// The rules that were checked (JUnit has a test case for each).
    public var rules: RuleSet
    /// The rules of rule files, when any were given.
    public var userRules: UserRules?
    /// Whether warnings fail the check.
    public var strict: Bool
    /// The errors of the traces that could not be read at all, in the order given. Text and JSON
    /// count them (the errors themselves go to standard error); JUnit and GitHub list each, so a
    /// CI system never shows an unreadable trace as passed.
    public var unreadable: [TraceError]

    /// Creates the output.
    public init(
        analyses: [TraceAnalysis], rules: RuleSet, userRules: UserRules? = nil, strict: Bool, unreadable: [TraceError] = []
    ) {
        self.analyses = analyses
        self.rules = rules
        self.userRules = userRules
        self.strict = strict
        self.unreadable = unreadable
    }

    /// Whether the check passes: no trace fails and every trace was read whole enough
    /// (``TraceAnalysis/isIncomplete(strict:)``).
    public var passed: Bool { !analyses.contains { $0.fails(strict: strict) } && incomplete == 0 }

    /// The number of traces read only in part (their problems are listed with them).
    public var incomplete: Int { analyses.count { $0.isIncomplete(strict: strict) } }

    /// The output in `format`, ending with a newline.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text: text
        case .json: CheckJSONDocument.rendered(analyses, strict: strict)
        case .junit: JUnitReport(analyses: analyses, rules: rules, userRules: userRules, strict: strict, unreadable: unreadable).xml
        case .github: GitHubAnnotations(analyses: analyses, strict: strict, unreadable: unreadable).text
        case .markdown: CheckMarkdownSummary(self).markdown
        case .sarif: SARIFReport(self).json
        }
    }

    /// The text form: per trace its verdict and violations with their witnesses, then a summary.
    public var text: String {
        var output = ""
        // Every line goes through the terminal escaper: a trace's names cannot forge lines.
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
