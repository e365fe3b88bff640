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
    /// The configuration file the check ran with, and what it changed; nil when none was read.
    public var configuration: CheckConfiguration?
    /// What the history said of the build (`check --history`); nil without a history.
    public var history: CheckHistoryVerdict?

    /// Creates the output.
    public init(
        analyses: [TraceAnalysis], rules: RuleSet, userRules: UserRules? = nil, strict: Bool, unreadable: [TraceError] = [],
        configuration: CheckConfiguration? = nil
    ) {
        self.analyses = analyses
        self.rules = rules
        self.userRules = userRules
        self.strict = strict
        self.unreadable = unreadable
        self.configuration = configuration
    }

    /// Whether the check passes: no trace fails, every trace was read whole enough
    /// (``TraceAnalysis/isIncomplete(strict:)``), and the build starts no change in the history.
    public var passed: Bool {
        !analyses.contains { $0.fails(strict: strict) } && incomplete == 0 && history?.passed != false
    }

    /// The number of traces read only in part (their problems are listed with them).
    public var incomplete: Int { analyses.count { $0.isIncomplete(strict: strict) } }

    /// The output in `format`, ending with a newline: the format's ``CheckRenderer``'s document.
    public func rendered(_ format: Format) -> String { format.renderer.init(self).document }

    /// The text form (``CheckTextReport``).
    public var text: String { CheckTextReport(self).document }
}
