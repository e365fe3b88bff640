import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// The full analysis of one trace for `lifetrace report`: launch timeline, stalls, violations,
/// time in states and how each lifetime ended.
public struct TraceReport: Sendable {
    /// The formats `lifetrace report --format` accepts.
    public enum Format: String, Sendable, CaseIterable {
        /// Plain text for a terminal.
        case text
        /// The same document as `check --format json`, with one trace.
        case json
        /// Markdown, for a pull-request comment.
        case markdown
    }

    /// The analysis.
    public var analysis: TraceAnalysis
    /// The options it ran with (thresholds are shown).
    public var options: AnalysisOptions

    /// Creates the report.
    public init(analysis: TraceAnalysis, options: AnalysisOptions) {
        self.analysis = analysis
        self.options = options
    }

    /// The report in `format`, ending with a newline.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text: text
        case .json: CheckJSONDocument.rendered([analysis], strict: false)
        case .markdown: markdown
        }
    }

    /// The text form.
    public var text: String {
        let profiles = analysis.stallProfilesByStart
        var lines = ["Trace \(analysis.path): \(analysis.eventCount) events, \(plural(analysis.lifetimeCount, "lifetime"))"]
        lines.append(Self.timesNote)
        if !analysis.metadata.isEmpty {
            lines.append("Metadata: " + analysis.metadata.fields.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        }
        for issue in analysis.issues { lines.append("Note: \(issue.description)") }
        for lifetime in analysis.lifetimes {
            lines.append("")
            lines.append("Lifetime \(lifetime.index + 1): \(launchTitle(lifetime.launch, origin: analysis.origin))")
            for (label, value) in launchRows(lifetime) { lines.append("  \(label): \(value)") }
            if lifetime.stallCount == 0 {
                lines.append("  Stalls (>= \(DurationFormat.fixed.string(options.stallThreshold))): none")
            } else {
                lines.append("  Stalls (>= \(DurationFormat.fixed.string(options.stallThreshold))):")
                for stall in lifetime.stalls {
                    lines.append("    \(stallStart(stall))  \(DurationFormat.fixed.string(stall.duration))"
                        + (stall.unfinished ? " (unfinished)" : "") + "  " + blameText(stall, profile: profiles[stall.start]))
                }
                if lifetime.omittedStalls > 0 { lines.append("    \(omittedStallsText(lifetime))") }
            }
            lines.append("  Time in states (\(lifetime.timeInStates.view.rawValue) view): " + statesText(lifetime.timeInStates))
            lines.append("  End: \(lifetime.end.phrase)")
            for fact in lifetime.end.facts { lines.append("    - \(fact)") }
            let violations = analysis.violations.filter { $0.lifetime == lifetime.index }
            lines.append("  Violations: \(violations.isEmpty ? "none" : String(violations.count))")
            for violation in violations {
                lines.append("    " + violation.line())
                for event in violation.events { lines.append("        \(event)") }
            }
        }
        if let note = analysis.omittedNote { lines += ["", "Note: \(note)."] }
        for note in analysis.capNotes { lines += ["", "Note: \(note)."] }
        // Each line is one line: a trace's names cannot add lines or control the terminal.
        var text = ""
        for line in lines {
            text += TerminalText.escaped(line)
            text += "\n"
        }
        return text
    }

    /// The Markdown form.
    public var markdown: String {
        let profiles = analysis.stallProfilesByStart
        var lines = ["# Lifetrace report: \(MarkdownText.code(analysis.path, inTable: false))", ""]
        lines.append("\(analysis.eventCount) events, \(plural(analysis.lifetimeCount, "lifetime")), "
            + "\(plural(analysis.errorCount, "error")), \(plural(analysis.warningCount, "warning")).")
        lines += ["", Self.timesNote + "."]
        if let note = analysis.omittedNote { lines += ["", MarkdownText.prose(note) + "."] }
        for note in analysis.capNotes { lines += ["", MarkdownText.prose(note) + "."] }
        for lifetime in analysis.lifetimes {
            lines += ["", "## Lifetime \(lifetime.index + 1): \(MarkdownText.prose(launchTitle(lifetime.launch, origin: analysis.origin)))", "", "| | |", "| --- | --- |"]
            for (label, value) in launchRows(lifetime) { lines.append("| \(label) | \(cell(value)) |") }
            lines.append("| Time in states (\(lifetime.timeInStates.view.rawValue) view) | \(cell(statesText(lifetime.timeInStates))) |")
            lines.append("| End | \(cell(lifetime.end.phrase)) |")
            lines += ["", "### Stalls (>= \(DurationFormat.fixed.string(options.stallThreshold)))", ""]
            if lifetime.stallCount == 0 {
                lines.append("None.")
            } else {
                lines += ["| start | duration | blame |", "| --- | --- | --- |"]
                for stall in lifetime.stalls {
                    lines.append("| \(stallStart(stall)) | \(DurationFormat.fixed.string(stall.duration))"
                        + (stall.unfinished ? " (unfinished)" : "") + " | \(cell(blameText(stall, profile: profiles[stall.start]))) |")
                }
                if lifetime.omittedStalls > 0 { lines += ["", MarkdownText.prose(omittedStallsText(lifetime))] }
            }
            lines += ["", "### How it ended", ""]
            for fact in lifetime.end.facts { lines.append("- \(MarkdownText.prose(fact))") }
            let violations = analysis.violations.filter { $0.lifetime == lifetime.index }
            lines += ["", "### Violations", ""]
            if violations.isEmpty { lines.append("None.") }
            for violation in violations {
                lines.append("- **\(violation.severity.rawValue)** `\(violation.rule.id)` at " + MarkdownText.prose(violation.statement))
                for event in violation.events { lines.append("  - \(MarkdownText.code(event.description, inTable: false))") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What the report's times count from, said once at its top (docs/REPORTS.md, "One clock").
    public static let timesNote = "Times are \(TraceClock.origin) (+0.000 s); durations after a launch say so"

    /// The line under a lifetime's stalls when it has more than it lists.
    func omittedStallsText(_ lifetime: LifetimeReport) -> String {
        "\(lifetime.omittedStalls) more stall\(lifetime.omittedStalls == 1 ? "" : "s") not listed (\(lifetime.stallCount) in all)"
    }

    /// The heading of a lifetime: the launch kind with its reason, pid and time.
    /// With `origin` (the trace's first event), the launch time is given relative to it.
    public func launchTitle(_ launch: LaunchReport, origin: Int64? = nil) -> String {
        var title = "\(launch.kind.rawValue) launch"
        var details: [String] = []
        if let reason = launch.reason { details.append("reason \(reason)") }
        if let pid = launch.pid { details.append("pid \(pid)") }
        if let timestamp = launch.timestamp {
            let at = origin.map { "at \(TraceClock.labelled(timestamp - $0))" } ?? "at \(timestamp) ns"
            details.append(launch.inferred ? "\(at), inferred: no launch event, the first event's time" : at)
        }
        if !details.isEmpty { title += " (" + details.joined(separator: ", ") + ")" }
        return title
    }

    /// The launch rows of a lifetime's table: duration and window, milestones, busy time.
    public func launchRows(_ lifetime: LifetimeReport) -> [(String, String)] {
        let launch = lifetime.launch
        let window: String
        switch launch.windowEnd {
        case .firstFrame: window = "to the first frame"
        case .firstActive: window = "to the end of the first didBecomeActive"
        case .didFinishLaunching: window = "to the end of didFinishLaunching"
        case .open: window = launch.neverOpened ? "never opened" : (launch.abandonedAfter == nil ? "never closed" : "abandoned")
        }
        let milestones = launch.milestones
        let marks: [(String, Int64?)] = [
            ("willFinishLaunching", milestones.willFinishLaunching),
            ("didFinishLaunching returned", milestones.didFinishLaunchingEnd),
            ("first active", milestones.firstActive), ("first frame", milestones.firstFrame),
        ]
        // Milestones are lengths after the launch, not moments (docs/REPORTS.md, "One clock").
        let reached = marks.compactMap { mark in mark.1.map { "\(mark.0) \(DurationFormat.fixed.string($0))" } }
        var rows = [
            ("Launch", (launch.duration.map(DurationFormat.fixed.string) ?? (launch.neverOpened ? "none" : "unfinished")) + " (\(window))"),
            ("Milestones", reached.isEmpty ? "none" : reached.joined(separator: ", ") + " after the launch"),
            ("Main thread busy in window", DurationFormat.fixed.string(launch.busyInWindow) + " (from \(lifetime.busySource.rawValue))"),
        ]
        if let left = launch.abandonedAfter {
            rows.append(("Abandoned", "the user left \(DurationFormat.fixed.string(left)) after the launch, before the first activation; not judged by its length"))
        }
        if launch.neverOpened {
            rows.append((
                "Prewarm", "the system prewarmed the process and the user never opened it; not judged as a launch"))
        }
        if let prewarm = launch.prewarm {
            let how = prewarm.resumeFoundBy == .state ? "a state event" : "the first event after a pause"
            rows.append((
                "Prewarm",
                "\(DurationFormat.fixed.string(prewarm.resume - prewarm.start)) before the resume (found by \(how)); "
                    + "main thread busy \(DurationFormat.fixed.string(prewarm.busy)); the launch is timed from the resume"))
        }
        return rows
    }

    /// When a stall started: its moment since the trace's first event (``TraceClock``).
    public func stallStart(_ stall: Stall) -> String {
        TraceClock.moment(stall.start, origin: analysis.origin)
    }

    /// A stall's blame in one line: the work it is blamed on with its chain, then what its
    /// stack samples blame (`profile`'s ``StallProfile/blameLine``, when the trace has samples
    /// of it), then the other intervals that ran during it, longest first.
    public func blameText(_ stall: Stall, profile: StallProfile? = nil) -> String {
        let samples = profile?.blameLine.map { "; " + $0 } ?? ""
        guard let work = stall.workText else { return "no callback or signpost on the main thread" + samples }
        let others = stall.blame.filter { $0.name != stall.work?.name || $0.kind != stall.work?.kind }
        guard !others.isEmpty else { return work + samples }
        return work + samples + "; also " + others.map { "\($0.kind.rawValue) \($0.name) \(DurationFormat.fixed.string($0.duration))" }
            .joined(separator: ", ")
    }

    /// Time in each state in one line.
    public func statesText(_ times: StateTimes) -> String {
        times.durations.isEmpty
            ? "none" : times.durations.map { "\($0.state) \(DurationFormat.fixed.string($0.duration))" }.joined(separator: ", ")
    }

    private func cell(_ text: String) -> String { MarkdownText.prose(text) }
}
