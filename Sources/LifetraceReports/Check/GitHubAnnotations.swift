import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// GitHub Actions workflow commands for `lifetrace check --format github`: the few most severe
/// findings as annotations, the rest left to the job summary (``CheckMarkdownSummary``, written
/// to `$GITHUB_STEP_SUMMARY` by the command).
///
/// GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per job
/// (GitHub's documentation of problem matchers and workflow commands, "Limitations"); more are
/// dropped without a word. So at most ``perKind`` of each kind are written, most severe first:
/// traces that could not be read or not read whole, a trace's count of violations not listed,
/// then error-severity violations, then warnings, then notices (an unclosed trace judged all
/// the same, the analysis's caps). Violations of one kind are ranked by how far
/// they went past their rule's limit (``Violation/overrun``: a stall's duration less its
/// threshold, a callback's, a launch's or a background stretch's time less its limit), the
/// farthest first; violations of rules without a duration limit (the ordering rules) follow,
/// and ties keep the order of the traces and, within a trace, of time, so the output is the same
/// on every run. A last plain line says how many were left out and
/// where they are. Annotations carry no `file=`: a trace is not source in the pull request, and
/// an annotation with a file GitHub cannot find in the commit is attached to nothing. The rule
/// and the trace are in the `title=` instead (`hang in runs/a.jsonl line 12`, with the offending
/// event's line in a text trace; `hang in runs/a.ltrace chunk at byte 4096`, with the offset of
/// the chunk it was decoded from in a binary one); the annotation is shown on the run's summary page.
public struct GitHubAnnotations: CheckRenderer {
    /// The most annotations of one kind (error, warning, notice) written: GitHub's limit per step.
    public static let perKind = 10

    /// The analyses.
    public var analyses: [TraceAnalysis]
    /// Whether warnings fail, and any reading problem fails a trace (``TraceAnalysis/isIncomplete(strict:)``).
    public var strict: Bool
    /// The traces that could not be read.
    public var unreadable: [TraceError]
    /// Whether the job summary is written beside the annotations (`$GITHUB_STEP_SUMMARY` is
    /// set): the last line says where the findings left out are, or that they were not written.
    public var writesJobSummary = true
    /// The configuration file the check ran with: the first notice names it and what it changed.
    public var configuration: CheckConfiguration?
    /// What the history said of the build: a notice when it starts no change, an error naming
    /// the change when it does.
    public var history: CheckHistoryVerdict?

    /// The annotations of `check`.
    public init(_ check: CheckOutput) {
        analyses = check.analyses
        strict = check.strict
        unreadable = check.unreadable
        configuration = check.configuration
        history = check.history
    }

    /// One annotation, before it is written.
    struct Annotation {
        /// `error`, `warning` or `notice`.
        var command: String
        /// The title: what and where.
        var title: String
        /// The message.
        var message: String
    }

    /// Every finding as an annotation, most severe first.
    var annotations: [Annotation] {
        var unread: [Annotation] = []
        var omitted: [Annotation] = []
        var errors: [(annotation: Annotation, overrun: Int64?)] = []
        var warnings: [(annotation: Annotation, overrun: Int64?)] = []
        var notices: [Annotation] = []
        if let configuration {
            notices.append(Annotation(command: "notice", title: "lifetrace configuration \(configuration.file)", message: configuration.sentence))
        }
        if let history {
            let annotation = Annotation(
                command: history.passed ? "notice" : "error", title: "lifetrace history \(history.store)", message: history.sentence)
            if history.passed { notices.append(annotation) } else { unread.append(annotation) }
        }
        for error in unreadable {
            var place = ""
            if case .line(let line, let column) = error.location { place = " line \(line) column \(column)" }
            unread.append(Annotation(command: "error", title: "unreadable trace \(error.file)\(place)", message: error.description))
        }
        for analysis in analyses {
            if analysis.isIncomplete(strict: strict) {
                let problems = analysis.issues.map(\.description).joined(separator: "\n")
                unread.append(Annotation(
                    command: "error", title: "trace not read whole: \(analysis.path)",
                    message: "not read whole, so not checked whole:\n\(problems)"))
            }
            for violation in analysis.violations {
                // With --strict a warning fails the check, so it is written as an error.
                let failing = violation.severity == .error || strict
                let annotation = Annotation(
                    command: failing ? "error" : "warning", title: "\(violation.rule.id) in \(analysis.path)\(violation.offendingPlace)",
                    message: violation.placedStatement + violation.events.map { "\n  \($0)" }.joined())
                if failing {
                    errors.append((annotation, violation.overrun))
                } else {
                    warnings.append((annotation, violation.overrun))
                }
            }
            if let note = analysis.omittedNote {
                let failing = strict || analysis.omittedViolations.keys.contains { $0.severity == .error }
                // Before the trace's own violations: it says how many there are.
                omitted.append(Annotation(
                    command: failing ? "error" : "warning", title: "violations not listed in \(analysis.path)", message: note))
            }
            // Judged all the same (an unclosed end): a notice, as the text's note.
            for issue in analysis.readingNotes(strict: strict) {
                notices.append(Annotation(command: "notice", title: "trace not closed: \(analysis.path)", message: issue.description))
            }
            for note in analysis.capNotes {
                notices.append(Annotation(command: "notice", title: "analysis caps in \(analysis.path)", message: note))
            }
        }
        return unread + omitted + Self.worstFirst(errors) + Self.worstFirst(warnings) + notices
    }

    /// `found` (in the order of the traces and of time) ranked the farthest past its limit first,
    /// those without a limit last; ties keep their order.
    static func worstFirst<Finding>(_ found: [(annotation: Finding, overrun: Int64?)]) -> [Finding] {
        found.enumerated().sorted { left, right in
            switch (left.element.overrun, right.element.overrun) {
            case (let l?, let r?) where l != r: return l > r
            case (.some, nil): return true
            case (nil, .some): return false
            default: return left.offset < right.offset
            }
        }.map(\.element.annotation)
    }

    /// At most ``perKind`` annotations of each kind, then a plain line on what was left out.
    public var document: String {
        var output = ""
        var written: [String: Int] = [:]
        var left: [String: Int] = [:]
        for annotation in annotations {
            guard written[annotation.command, default: 0] < Self.perKind else {
                left[annotation.command, default: 0] += 1
                continue
            }
            written[annotation.command, default: 0] += 1
            output += "::\(annotation.command) title=\(property(annotation.title))::\(data(annotation.message))\n"
        }
        if !left.isEmpty {
            let counts = ["error", "warning", "notice"].compactMap { kind in left[kind].map { plural($0, kind) } }
            let rest = writesJobSummary
                ? "every finding is in the job summary (check --format markdown)"
                : "they were not written anywhere, as $GITHUB_STEP_SUMMARY is not set: "
                    + "run check --format markdown (or text) for every finding"
            output += "lifetrace: \(counts.joined(separator: ", ")) more than GitHub shows per step (\(Self.perKind) of each kind) "
                + "are not annotated; \(rest)\n"
        }
        return output
    }

    /// Escapes a command's message (`%`, CR, LF), as GitHub's runner unescapes it.
    func data(_ text: String) -> String { Self.escape(text, property: false) }

    /// Escapes a command's property value (also `:` and `,`).
    func property(_ text: String) -> String { Self.escape(text, property: true) }

    /// The workflow-command escaper. It walks Unicode scalars, not Characters: Swift reads `\r\n`
    /// as one Character, which a Character comparison with `\r` or `\n` would let through raw,
    /// and a raw line break lets a trace's names start commands of their own. Control characters
    /// follow the package's one rule (``ControlCharacters``): the other controls and noncharacters
    /// (C0 but tab, DEL, C1, ``ControlCharacters/isUnwritable(_:)``) and the other line breaks
    /// (vertical tab, form feed, U+2028, U+2029, ``ControlCharacters/breaksLines(_:)``) have no
    /// escape in the grammar and would reach the log raw (a terminal escape sequence, a line
    /// break for some readers): each is written as U+FFFD, as in the JUnit file and the page. So
    /// is each Bidi_Control character (``ControlCharacters/isBidiControl(_:)``): GitHub shows a
    /// title and a message as they are, and an override in a trace's name would reorder the
    /// rule, the trace and the line the annotation names.
    static func escape(_ text: String, property: Bool) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where property: output += "%3A"
            case ",": output += property ? "%2C" : ","
            case _ where ControlCharacters.isUnwritable(scalar) || ControlCharacters.breaksLines(scalar)
                || ControlCharacters.isBidiControl(scalar):
                output.unicodeScalars.append("\u{FFFD}")
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
