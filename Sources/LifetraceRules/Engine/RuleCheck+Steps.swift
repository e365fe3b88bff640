import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// How a rule's scope and pattern take each step (docs/RULES.md, "How rules are judged").
extension RuleCheck {
    /// A step other than an occurrence (those come to ``apply(_:symbols:findings:)-occurrence``)
    /// and the launch moment's (``launchTimed(from:settled:by:findings:)``).
    mutating func apply(_ step: RuleStep, symbols: SymbolTable, findings: inout RuleFindings) {
        switch step {
        case .lifetimeBegan(let timestamp):
            lifetimeStart = timestamp
            launchStart = timestamp
            if traceStart == nil { traceStart = timestamp }
            open = nil
            previous = nil
            intervals.removeAll()
            spanBegin = nil
            inLaunch = true
            switch scope {
            case .lifetime, .launch: open = Stretch(start: timestamp)
            case .states, .between: break
            }
            if interval == .launch, open != nil { spanBegin = (timestamp, nil) }
        case .stateChanged(let state, let event):
            if scopeStates != 0 {
                if scopeStates & 1 << UInt32(state.rawValue) != 0 {
                    if open == nil { open = Stretch(start: event.timestamp, startEvent: event) }
                } else if open != nil {
                    close(at: event.timestamp, by: event, judged: true, symbols: symbols, findings: &findings)
                }
            }
            if let watchedState {
                if state == watchedState {
                    if spanBegin == nil, open != nil { spanBegin = (event.timestamp, event) }
                } else {
                    endSpan(at: event.timestamp, findings: &findings)
                }
            }
            if kinds & OccurrenceKind.state.bit != 0 {
                apply(Occurrence(kind: .state, timestamp: event.timestamp, event: event, state: state), symbols: symbols, findings: &findings)
            }
        case .launchTimed:
            break
        case .launchWindowEnded(let timestamp):
            inLaunch = false
            if interval == .launch { endSpan(at: timestamp, findings: &findings) }
            if scope == .launch, open != nil { close(at: timestamp, by: nil, judged: true, symbols: symbols, findings: &findings) }
        case .lifetimeEnded(let timestamp, let judged):
            endSpan(at: timestamp, findings: &findings)
            if pattern == .maxDuration {
                for open in intervals where timestamp - open.begin.timestamp > limit {
                    reportLong(begin: open.begin, ended: nil, findings: &findings)
                }
            }
            intervals.removeAll()
            if open != nil { close(at: timestamp, by: nil, judged: judged, symbols: symbols, findings: &findings) }
            previous = nil
        }
    }

    /// An interval that ended without an end event of its own: only `max-duration` takes it.
    mutating func applyIntervalEnd(_ occurrence: Occurrence, symbols: SymbolTable, findings: inout RuleFindings) {
        if pattern == .maxDuration, kinds & occurrence.kind.bit != 0 {
            follow(occurrence, symbols: symbols, findings: &findings)
        }
    }

    /// An occurrence: the scope's boundaries first, then the pattern.
    mutating func apply(_ occurrence: Occurrence, symbols: SymbolTable, findings: inout RuleFindings) {
        if scope == .between {
            if open != nil, let to, to.matches(occurrence) {
                close(at: occurrence.timestamp, by: occurrence.event, judged: true, symbols: symbols, findings: &findings)
                if from.matches(occurrence) {
                    open = Stretch(start: occurrence.timestamp, startEvent: occurrence.event)
                }
                return
            }
            if open == nil {
                if from.matches(occurrence) {
                    open = Stretch(start: occurrence.timestamp, startEvent: occurrence.event)
                    return
                }
            }
        }
        if pattern == .maxDuration {
            follow(occurrence, symbols: symbols, findings: &findings)
            return
        }
        // A stall is told when it ends: it belongs to the stretch in which it began. The stretch
        // is taken out while judged, so that its pending list is never copied.
        if open?.holds(occurrence.timestamp) == true, var stretch = open.take() {
            judge(occurrence, in: &stretch, symbols: symbols, findings: &findings)
            open = stretch
        } else if previous?.holds(occurrence.timestamp) == true, var stretch = previous.take() {
            judge(occurrence, in: &stretch, symbols: symbols, findings: &findings)
            previous = stretch
        }
    }

    /// The selector of the pattern in `slot`, in words (only for messages).
    private func selectorText(_ slot: Int) -> String { "\(rule.selectors[slot])" }

    /// The pattern's verdict on one occurrence inside `stretch`.
    private mutating func judge(_ occurrence: Occurrence, in stretch: inout Stretch, symbols: SymbolTable, findings: inout RuleFindings) {
        switch pattern {
        case .never:
            guard !stretch.reported, first.matches(occurrence) else { return }
            stretch.reported = true
            let stretch = stretch
            findings.add(rule.rule, at: occurrence.timestamp, witnesses: witnesses(stretch.startEvent, occurrence.event)) {
                "\(message): \(describe(occurrence, symbols: symbols)) in \(stretchText(stretch)); expected no \(selectorText(0)) there."
            }
        case .require:
            if first.matches(occurrence) { stretch.matches += 1 }
        case .maxCount:
            guard first.matches(occurrence) else { return }
            stretch.matches += 1
            // `matches - 1` rather than `limit + 1`: the count is at least 1 here, while the
            // limit may be as large as the file allows.
            let limit = countLimit
            guard stretch.matches - 1 == limit else { return }
            let stretch = stretch
            findings.add(rule.rule, at: occurrence.timestamp, witnesses: witnesses(stretch.startEvent, occurrence.event)) {
                "\(message): \(describe(occurrence, symbols: symbols)) is match \(stretch.matches) of \(selectorText(0)) in \(stretchText(stretch)); "
                    + "expected at most \(limit)."
            }
        case .precedence:
            if !stretch.sawFirst, !stretch.reported, second.matches(occurrence) {
                stretch.reported = true
                let stretch = stretch
                findings.add(rule.rule, at: occurrence.timestamp, witnesses: witnesses(stretch.startEvent, occurrence.event)) {
                    "\(message): \(describe(occurrence, symbols: symbols)) in \(stretchText(stretch)) with no \(selectorText(0)) before it; "
                        + "expected \(selectorText(0)) first."
                }
            }
            if first.matches(occurrence) { stretch.sawFirst = true }
        case .response:
            if second.matches(occurrence) {
                if let within { reportLate(in: &stretch, within: within, answer: occurrence, symbols: symbols, findings: &findings) }
                stretch.pending.removeAll(keepingCapacity: true)
                stretch.pendingOverflow = 0
            }
            if first.matches(occurrence) {
                if stretch.pending.count < Stretch.pendingLimit {
                    stretch.pending.append(occurrence.event)
                } else {
                    stretch.pendingOverflow += 1
                }
            }
        case .maxDuration:
            break
        }
    }

    /// `response` with `within`: the pending `after`s whose deadline passed before `answer`.
    private func reportLate(
        in stretch: inout Stretch, within: Int64, answer: Occurrence, symbols: SymbolTable, findings: inout RuleFindings
    ) {
        for event in stretch.pending where answer.timestamp - event.timestamp > within {
            let at = event.timestamp + within
            findings.add(rule.rule, at: at, witnesses: [event, answer.event]) {
                "\(message): \(describe(event, symbols: symbols)) at \(when(event.timestamp)) was answered by "
                    + "\(selectorText(1)) only at \(when(answer.timestamp)); expected it within \(DurationFormat.fixed.string(within))."
            }
        }
        if stretch.pendingOverflow > 0, let last = stretch.pending.last, answer.timestamp - last.timestamp > within {
            for _ in 0..<stretch.pendingOverflow { findings.add(rule.rule, at: last.timestamp + within, witnesses: [last]) { message } }
        }
    }

    /// Closes the open stretch at `timestamp`; `judged` false leaves `require` and `response`
    /// unjudged (the trace stopped), except answers already late by then.
    private mutating func close(
        at timestamp: Int64, by event: TraceEvent?, judged: Bool, symbols: SymbolTable, findings: inout RuleFindings
    ) {
        guard var stretch = open.take() else { return }
        stretch.end = timestamp
        // Only the messages of violations kept in full are built: the words are made on demand.
        func stretchText() -> String { self.stretchText(stretch) }
        func ending() -> String { judged ? "ended at \(when(timestamp))" : "was cut at \(when(timestamp)) (the trace ends)" }
        switch pattern {
        case .require where judged && stretch.matches == 0:
            findings.add(rule.rule, at: timestamp, witnesses: witnesses(stretch.startEvent, event)) {
                "\(message): no \(selectorText(0)) in \(stretchText()), which \(ending()); expected at least one."
            }
        case .response:
            let within = self.within
            for pending in stretch.pending + Array(repeating: stretch.pending.last, count: stretch.pendingOverflow).compactMap({ $0 }) {
                let deadline = within.map { pending.timestamp + $0 }
                if let deadline, deadline <= timestamp {
                    findings.add(rule.rule, at: deadline, witnesses: [pending]) {
                        "\(message): \(describe(pending, symbols: symbols)) at \(when(pending.timestamp)) had no \(selectorText(1)) within "
                            + "\(DurationFormat.fixed.string(within ?? 0)) in \(stretchText()); expected one by \(when(deadline))."
                    }
                } else if judged {
                    findings.add(rule.rule, at: timestamp, witnesses: witnesses(pending, event)) {
                        "\(message): \(describe(pending, symbols: symbols)) at \(when(pending.timestamp)) had no \(selectorText(1)) after it in "
                            + "\(stretchText()), which \(ending())."
                    }
                }
            }
            stretch.pending = []
        default:
            break
        }
        previous = stretch
    }

    /// `max-duration`: follows the intervals that begin in a stretch.
    private mutating func follow(_ occurrence: Occurrence, symbols: SymbolTable, findings: inout RuleFindings) {
        let begins: OccurrenceKind
        let limit = self.limit
        switch interval {
        case .stall?:
            guard occurrence.duration > limit,
                (open?.holds(occurrence.timestamp) ?? false) || (previous?.holds(occurrence.timestamp) ?? false)
            else { return }
            let stall = occurrence
            findings.add(rule.rule, at: stall.timestamp + limit, witnesses: [stall.event]) {
                "\(message): the main thread was busy for \(DurationFormat.fixed.string(stall.duration)) from "
                    + "\(when(stall.timestamp)); expected no stall longer than \(DurationFormat.fixed.string(limit))."
            }
            return
        case .callback?: begins = .callback
        case .signpost?: begins = .signpost
        case .bgtask?: begins = .bgtaskBegin
        case .launch?, .state?, nil: return
        }
        // Only the analyzer's intervals count: an end that matched nothing open has none.
        guard let followed = occurrence.interval, occurrence.names.contains(intervalName) else { return }
        if occurrence.kind == begins {
            if open != nil, intervals.count < Self.intervalLimit {
                intervals.append(OpenInterval(begin: occurrence.event, interval: followed))
            }
            return
        }
        guard let index = intervals.lastIndex(where: { $0.interval == followed }) else { return }
        let begun = intervals.remove(at: index)
        if occurrence.timestamp - begun.begin.timestamp > limit {
            reportLong(begin: begun.begin, ended: occurrence.event, findings: &findings)
        }
    }

    /// `max-duration` of `launch` or `state`: the interval ends at `timestamp`.
    private mutating func endSpan(at timestamp: Int64, findings: inout RuleFindings) {
        // Set only by a `max-duration` of `launch` or `state`.
        guard let begin = spanBegin else { return }
        spanBegin = nil
        let limit = self.limit
        guard timestamp - begin.timestamp > limit else { return }
        let start = when(begin.timestamp)
        findings.add(rule.rule, at: begin.timestamp + limit, witnesses: begin.event.map { [$0] } ?? []) {
            "\(message): \(intervalText) from \(start) lasted \(DurationFormat.fixed.string(timestamp - begin.timestamp)); "
                + "expected at most \(DurationFormat.fixed.string(limit))."
        }
    }

    private func reportLong(begin: TraceEvent, ended: TraceEvent?, findings: inout RuleFindings) {
        let limit = self.limit
        findings.add(rule.rule, at: begin.timestamp + limit, witnesses: witnesses(begin, ended)) {
            let how = ended.map { "lasted \(DurationFormat.fixed.string($0.timestamp - begin.timestamp))" } ?? "had not ended when the lifetime did"
            return "\(message): \(intervalText) from \(when(begin.timestamp)) \(how); expected at most \(DurationFormat.fixed.string(limit))."
        }
    }

    /// What `max-duration` measures, in words (only for messages).
    private var intervalText: String {
        guard case .maxDuration(let interval, _) = rule.pattern else { return "" }
        return interval.text
    }

    private func witnesses(_ first: TraceEvent?, _ second: TraceEvent?) -> [TraceEvent] {
        [first, second].compactMap { $0 }
    }

    /// An occurrence in words: `signpost "network" at +12.000 s`.
    private func describe(_ occurrence: Occurrence, symbols: SymbolTable) -> String {
        if occurrence.kind == .stall {
            return "a stall of \(DurationFormat.fixed.string(occurrence.duration)) at \(when(occurrence.timestamp))"
        }
        if occurrence.kind == .firstFrame { return "the first frame at \(when(occurrence.timestamp))" }
        if occurrence.kind == .state, let state = occurrence.state {
            return "state \(state.ruleWord) at \(when(occurrence.timestamp))"
        }
        return "\(describe(occurrence.event, symbols: symbols)) at \(when(occurrence.timestamp))"
    }

    /// An event in words: `callback didEnterBackground`, `signpost "network"`, `exit`.
    func describe(_ event: TraceEvent, symbols: SymbolTable) -> String {
        switch event.payload {
        case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
            let sceneText = symbols.shown(scene).map { " (scene \"\($0)\")" } ?? ""
            return "\(event.type.name) \(symbols.shown(name) ?? "(unnamed)")\(sceneText)"
        case .signpostBegin(let name, _), .signpostEnd(let name, _), .mark(let name):
            return "\(event.type.name) \"\(symbols.shown(name) ?? "")\""
        case .bgtaskBegin(let id, let name), .bgtaskEnd(let id, let name), .bgtaskExpire(let id, let name):
            return "\(event.type.name) \"\(symbols.shown(name) ?? "")\" (task \(id))"
        case .state(let to, _):
            return "state \(to.ruleWord)"
        case .launch, .runloopWake, .runloopSleep, .frame, .exit, .dropped:
            return event.type.name
        }
    }
}
