import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceRunner

/// What `lifetrace replay` prints: every event of a trace with the system and app views before
/// and after it, each violation under the event that revealed it, then those found at the end.
/// With a window (`from`, `to`), a violation is shown when the event that revealed it is in the
/// window (under it), or when its own moment is (after the window's events: a lifetime's stalls
/// are judged as the lifetime ends, so a hang is revealed by its `exit` or the trace's end).
public enum ReplayTranscript {
    /// The first line: what the times count from.
    public static let header = "time \(TraceClock.origin) (as --from and --to take it), event, views"

    /// Replays the trace at `path` and hands `show` each line, without its newline: the
    /// ``header``, then each event with its time since the trace's first event, the clock
    /// `--from` and `--to` select by (from `from` to `to`, ns). Every line goes through the
    /// terminal escaper: a trace's names cannot forge lines.
    ///
    /// Returns the problems the reader recovered from (a cut end, a skipped chunk, an unclosed
    /// end: every event read before them is shown). Throws the ``TraceError`` that stopped the
    /// reading (what was read before it is shown), or what `show` throws.
    @discardableResult
    public static func write(
        path: String, options: AnalysisOptions, from: Int64 = .min, to: Int64 = .max, show: (String) throws -> Void
    ) throws -> [TraceError] {
        func line(_ text: String) throws { try show(TerminalText.escaped(text)) }
        var source = try TraceInputs.open(path: path)
        // A replay lists events, not lifetimes: no report is kept.
        var options = options
        options.keepsLifetimes = false
        var analyzer = LifecycleAnalyzer(options: options, metadata: source.metadata)
        var origin: Int64?
        // Violations whose moment is in the window but that a later event revealed.
        var later: [Violation] = []
        func inWindow(_ violation: Violation) -> Bool {
            let moment = violation.timestamp &- (origin ?? violation.timestamp)
            return moment >= from && moment <= to
        }
        try line(header)
        while let event = try source.next() {
            let step = analyzer.step(event, symbols: source.symbols)
            let offset = event.timestamp - (origin ?? event.timestamp)
            if origin == nil { origin = event.timestamp }
            guard offset >= from && offset <= to else {
                // Revealed outside the window (a lifetime's stalls are judged as it ends): shown
                // when its own moment is in the window.
                later += step.violations.filter(inWindow)
                continue
            }
            try line(step.line(origin: origin ?? event.timestamp))
            for violation in step.violations { try line("    " + violation.line(timed: false)) }
        }
        if !later.isEmpty {
            try line("revealed after --to by a later event, at a moment in the window:")
            for violation in later { try line("    " + violation.line()) }
        }
        let found = analyzer.violations.count
        _ = analyzer.finish(symbols: source.symbols)
        let atEnd = analyzer.violations[found...].filter(inWindow)
        if !atEnd.isEmpty {
            try line("at the end of the trace:")
            for violation in atEnd { try line("    " + violation.line()) }
        }
        let omitted = analyzer.omittedViolations.values.reduce(0, +)
        if omitted > 0 {
            try line("\(omitted) more violations were found and not shown: an analysis keeps the first "
                + "\(options.violationLimit) of a trace in full")
        }
        for note in analyzer.cappedCounts.notes { try line("note: \(note)") }
        return source.issues
    }
}

extension ReplayStep {
    /// One line: the time since `origin` (the trace's first event), the event, then the views
    /// (`a -> b` where they changed).
    public func line(origin: Int64) -> String {
        let time = TraceClock.moment(event.timestamp &- origin)
        var parts = [event.label]
        if !event.thread.isMain { parts[0] += " (thread \(event.thread))" }
        // Outside a lifetime (before a launch, after an exit) both views are Not running.
        let notRunning = LifecycleState.notRunning.name
        let before = event.type == .launch ? notRunning : nil
        let after = event.type == .exit ? notRunning : nil
        parts.append("system " + Self.change(system.before?.name ?? before, system.after?.name ?? after))
        parts.append("app " + Self.change(app.before?.name ?? before, app.after?.name ?? after))
        for scene in scenes {
            parts.append("scene \(scene.scene) \(scene.app?.name ?? "?")/\(scene.system?.name ?? "?")")
        }
        if omittedScenes > 0 { parts.append("\(omittedScenes) more scene\(omittedScenes == 1 ? "" : "s")") }
        let padding = String(repeating: " ", count: max(0, 12 - time.count))
        return padding + time + "  " + parts.joined(separator: "  |  ")
    }

    private static func change(_ before: String?, _ after: String?) -> String {
        before == after ? (after ?? "?") : "\(before ?? "?") -> \(after ?? "?")"
    }
}
