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
        /// GitHub Actions workflow commands (annotations).
        case github
    }

    /// The analyses, in the order the traces were given.
    public var analyses: [TraceAnalysis]
    /// The rules that were checked (others appear as skipped in JUnit).
    public var rules: RuleSet
    /// Whether warnings fail the check.
    public var strict: Bool
    /// The traces that could not be read at all (their errors are reported on their own).
    public var unreadable: Int

    /// Creates the output.
    public init(analyses: [TraceAnalysis], rules: RuleSet, strict: Bool, unreadable: Int = 0) {
        self.analyses = analyses
        self.rules = rules
        self.strict = strict
        self.unreadable = unreadable
    }

    /// Whether the check passes: no trace fails.
    public var passed: Bool { !analyses.contains { $0.fails(strict: strict) } }

    /// The output in `format`, ending with a newline.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text: text
        case .json: CheckJSONDocument.rendered(analyses, strict: strict)
        case .junit: JUnitReport(analyses: analyses, rules: rules).xml
        case .github: GitHubAnnotations(analyses: analyses).text
        }
    }

    /// The text form: per trace its verdict and violations with their witnesses, then a summary.
    public var text: String {
        var output = ""
        for analysis in analyses {
            let errors = analysis.errors.count
            let warnings = analysis.warnings.count
            if analysis.violations.isEmpty {
                output += "\(analysis.path): ok (\(analysis.eventCount) events, "
                    + "\(plural(analysis.lifetimeCount, "lifetime")))\n"
            } else {
                output += "\(analysis.path): \(plural(errors, "error")), \(plural(warnings, "warning"))\n"
            }
            for issue in analysis.issues { output += "  note: \(issue.description)\n" }
            for violation in analysis.violations {
                output += "  \(violation.severity.rawValue)[\(violation.rule.id)] \(violation.when): "
                    + "\(violation.message)\n"
                for event in violation.events { output += "      \(event)\n" }
            }
        }
        let errors = analyses.reduce(0) { $0 + $1.errors.count }
        let warnings = analyses.reduce(0) { $0 + $1.warnings.count }
        let failed = analyses.filter { $0.fails(strict: strict) }.count
        output += "\(plural(analyses.count, "trace")) checked, \(failed) failed: "
            + "\(plural(errors, "error")), \(plural(warnings, "warning"))"
            + (strict ? " (strict: warnings fail)" : "")
            + (unreadable > 0 ? "; \(plural(unreadable, "trace")) could not be read" : "") + "\n"
        return output
    }
}

/// `1 error`, `2 errors`.
func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
