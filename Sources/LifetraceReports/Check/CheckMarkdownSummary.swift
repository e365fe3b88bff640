import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// `lifetrace check --format markdown`: the whole check as Markdown, for a CI job summary
/// (`$GITHUB_STEP_SUMMARY`) or a pull-request comment: the verdict as the exit status gives it,
/// the problems of each trace not read whole (file, byte, cause), a row per trace, the violations
/// by rule, then every violation up to ``violationLimit``.
///
/// GitHub takes at most 1 MiB of summary per step (its documentation of job summaries), so the
/// document is cut at a line boundary before ``byteLimit`` bytes with a line saying so; the JSON
/// and JUnit outputs keep everything.
public struct CheckMarkdownSummary: CheckRenderer {
    /// The most violations listed one by one.
    public static let violationLimit = 500
    /// The most traces given a row of their own.
    public static let traceLimit = 1000
    /// The most bytes written, under GitHub's 1 MiB per step.
    public static let byteLimit = 1_000_000

    /// The check.
    public var output: CheckOutput

    /// Creates the summary of `output`.
    public init(_ output: CheckOutput) { self.output = output }

    /// The exit status `lifetrace check` ends with for this output.
    public var exitStatus: Int {
        if !output.unreadable.isEmpty || output.incomplete > 0 { return 2 }
        return output.passed ? 0 : 1
    }

    /// The Markdown document, ending with a newline.
    public var document: String {
        let analyses = output.analyses
        let strict = output.strict
        let errors = analyses.reduce(0) { $0 + $1.errorCount }
        let warnings = analyses.reduce(0) { $0 + $1.warningCount }
        let failed = analyses.count { $0.fails(strict: strict) }
        let verdict = switch exitStatus {
        case 0: warnings > 0 ? "passed, with warnings" : "passed"
        case 1: "failed"
        default: "failed: input not read whole"
        }
        var lines = ["## Lifetrace check: \(verdict)", ""]
        lines.append("\(plural(analyses.count, "trace")) checked, \(failed) failed: \(plural(errors, "error")), "
            + "\(plural(warnings, "warning"))" + (strict ? " (strict: warnings fail)" : " (warnings do not fail the check)")
            + (output.unreadable.isEmpty ? "" : "; \(plural(output.unreadable.count, "trace")) could not be read")
            + (output.incomplete > 0 ? "; \(plural(output.incomplete, "trace")) not read whole" : "")
            + ". Exit status \(exitStatus).")
        if let configuration = output.configuration {
            lines += ["", "_Checked with the configuration \(MarkdownText.code(configuration.file, inTable: false))_: "
                + (configuration.changes.isEmpty ? "it changes no rule, limit or allowance."
                    : configuration.changes.map(MarkdownText.prose).joined(separator: "; ") + ".")]
        }
        if let history = output.history {
            lines += ["", "### History", "", MarkdownText.prose(history.sentence) + "."]
        }
        if !output.unreadable.isEmpty {
            lines += ["", "### Traces that could not be read", ""]
            lines += output.unreadable.map { "- \(MarkdownText.code($0.file, inTable: false)): \(MarkdownText.prose($0.description))" }
        }
        // What a trace not read whole lost: each problem of its reading, where and why.
        let lost = analyses.filter { $0.isIncomplete(strict: strict) }.flatMap { analysis in
            analysis.issues.map { (analysis.path, $0.placedMessage) }
        }
        if !lost.isEmpty {
            lines += ["", "### Traces not read whole", ""]
            lines += lost.map { "- \(MarkdownText.code($0.0, inTable: false)): \(MarkdownText.prose($0.1))." }
        }
        if !analyses.isEmpty {
            lines += ["", "### Traces", ""]
            lines += markdownTable(["trace", "verdict", "errors", "warnings", "events", "lifetimes"], analyses.prefix(Self.traceLimit).map { analysis in
                let verdict = analysis.isIncomplete(strict: strict) ? "**not read whole**"
                    : analysis.fails(strict: strict) ? "**failed**" : analysis.violationCount > 0 ? "passed, with warnings" : "passed"
                return [
                    MarkdownText.code(analysis.path, inTable: false), verdict, "\(analysis.errorCount)", "\(analysis.warningCount)",
                    "\(analysis.eventCount)", "\(analysis.lifetimeCount)",
                ]
            })
            if analyses.count > Self.traceLimit {
                lines += ["", "\(analyses.count - Self.traceLimit) more traces are not listed (the JSON and JUnit outputs have them)."]
            }
        }
        var byRule: [Rule: (count: Int, traces: Int)] = [:]
        for analysis in analyses {
            var counts: [Rule: Int] = analysis.omittedViolations
            for violation in analysis.violations { counts[violation.rule, default: 0] += 1 }
            for (rule, count) in counts {
                byRule[rule, default: (0, 0)].count += count
                byRule[rule, default: (0, 0)].traces += 1
            }
        }
        if !byRule.isEmpty {
            lines += ["", "### Violations by rule", ""]
            // Errors first, then by count.
            let ordered = byRule.keys.sorted { a, b in
                (a.severity == .error ? 0 : 1, -byRule[a]!.count, a.id) < (b.severity == .error ? 0 : 1, -byRule[b]!.count, b.id)
            }
            lines += markdownTable(["rule", "severity", "violations", "traces", "source"], ordered.map { rule in
                [
                    MarkdownText.code(rule.id, inTable: false), rule.severity.rawValue, "\(byRule[rule]!.count)", "\(byRule[rule]!.traces)",
                    MarkdownText.prose(rule.fact?.source ?? rule.location ?? ""),
                ]
            })
            lines += ["", "### Violations", ""]
            var listed = 0
            var unlisted = 0
            for analysis in analyses {
                for violation in analysis.violations {
                    guard listed < Self.violationLimit else {
                        unlisted += 1
                        continue
                    }
                    listed += 1
                    lines.append("- **\(violation.severity.rawValue)** \(MarkdownText.code(violation.rule.id, inTable: false)) in "
                        + "\(MarkdownText.code(analysis.path, inTable: false)): \(MarkdownText.prose(violation.placedStatement))")
                }
                unlisted += analysis.omittedCount
            }
            if unlisted > 0 {
                lines += ["", "\(unlisted) more violations are not listed here; the JSON and JUnit outputs list every one kept."]
            }
        }
        // A problem the check judged the trace with all the same (an unclosed end), then the caps.
        let notes = analyses.flatMap { analysis in
            analysis.readingNotes(strict: strict).map { (analysis.path, $0.placedMessage) } + analysis.capNotes.map { (analysis.path, $0) }
        }
        if !notes.isEmpty {
            lines += ["", "### Notes", ""]
            lines += notes.map { "- \(MarkdownText.code($0.0, inTable: false)): \(MarkdownText.prose($0.1))." }
        }
        return Self.bounded(lines)
    }

    /// The lines joined, cut at a line boundary so that the whole stays within ``byteLimit``.
    static func bounded(_ lines: [String]) -> String {
        let ending = "\n_The summary was cut here to stay within GitHub's 1 MiB per step; the JSON and JUnit outputs have everything._\n"
        var output = ""
        var bytes = 0
        for line in lines {
            let size = line.utf8.count + 1
            if bytes + size > byteLimit - ending.utf8.count {
                return output + ending
            }
            output += line + "\n"
            bytes += size
        }
        return output
    }
}
