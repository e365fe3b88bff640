import LifetraceFormat

extension LifecycleAnalyzer {
    /// The first main-thread run-loop event of a lifetime (at `time`): from here busy intervals
    /// come from the run loop, and whatever the callbacks suggested before is dropped (a busy
    /// interval still open from callbacks ends here).
    mutating func switchToRunLoop(at time: Int64) {
        current.runLoopSeen = true
        current.stalls.removeAll()
        current.stallsPastLimit.removeAll()
        current.busyToDidFinishEnd = 0
        current.busyToFirstActiveEnd = 0
        current.busyToFrame = 0
        if sinkListens, let start = busy.start { queue(.busyEnded(start: start, end: max(start, time))) }
        busy.reset()
    }

    /// Opens the main thread's busy interval at `event`, unless one is open.
    @inline(__always)
    mutating func openBusy<Edges: EdgeEmission>(_ event: TraceEvent, edges: Edges.Type = RuntimeEdgeEmission.self) {
        guard busy.start == nil else { return }
        busy.open(event, state: current.trustedState)
        if Edges.forSink(sinkListens) { queue(.busyBegan(at: event.timestamp)) }
    }

    /// Closes the main thread's busy interval at `end`: adds it to the launch-window busy time
    /// and records a stall when it is at least the threshold.
    ///
    /// Called for every sleep of the main run loop, from the analyzer's per-event loop. The
    /// common close (past the launch window's ends, shorter than a stall, the app still in the
    /// foreground), where it does nothing but reset, stays small enough to be inlined there: the
    /// optimizer inlines an always-inline function into a large caller only while the function
    /// has few blocks. Every other close is ``closeBusyInFull(start:end:unfinished:symbols:)``.
    @inline(__always)
    mutating func closeBusy<Edges: EdgeEmission>(
        at end: Int64, unfinished: Bool, symbols: SymbolTable, edges: Edges.Type = RuntimeEdgeEmission.self
    ) {
        guard let start = busy.start else { return }
        if Edges.forSink(sinkListens) { queue(.busyEnded(start: start, end: end)) }
        // Every window end at or before the start: accountBusy would add nothing.
        if busy.leftForeground == nil && end - start < options.recordedStallThreshold
            && (current.didFinishEnd ?? .max) <= start && (current.firstActiveEnd ?? .max) <= start
            && (current.firstFrame ?? .max) <= start
        {
            busy.reset()
        } else {
            closeBusyInFull(start: start, end: end, unfinished: unfinished, symbols: symbols)
        }
    }

    /// The rest of ``closeBusy(at:unfinished:symbols:edges:)`` for any busy interval but the
    /// common one: accounts it to the launch window, judges the move to the background, and
    /// records the stall or closes without one.
    @inline(never)
    private mutating func closeBusyInFull(start: Int64, end: Int64, unfinished: Bool, symbols: SymbolTable) {
        accountBusy(start: start, end: end)
        if let moved = busy.leftForeground, end &- moved > options.backgroundCallbackLimit {
            judgeMoveToBackground(from: moved, until: end, unfinished: unfinished, symbols: symbols)
        }
        if end - start >= options.recordedStallThreshold {
            recordStall(at: end, unfinished: unfinished, symbols: symbols)
        } else {
            busy.reset()
        }
    }

    @inline(__always)
    private mutating func accountBusy(start: Int64, end: Int64) {
        // Without a launch the lifetime's start stands in: the launch may still be inferred.
        let from = max(start, current.windowStart ?? current.start)
        guard end > from else { return }
        // Each window end is accounted apart: an inferred launch learns its kind (and so its
        // window's end) only later.
        let toDidFinish = current.didFinishEnd.map { min($0, end) } ?? end
        if toDidFinish > from { TraceTime.accumulate(&current.busyToDidFinishEnd, toDidFinish - from) }
        let toActive = current.firstActiveEnd.map { min($0, end) } ?? end
        if toActive > from { TraceTime.accumulate(&current.busyToFirstActiveEnd, toActive - from) }
        let toFrame = current.firstFrame.map { min($0, end) } ?? end
        if toFrame > from { TraceTime.accumulate(&current.busyToFrame, toFrame - from) }
    }

    private mutating func recordStall(at end: Int64, unfinished: Bool, symbols: SymbolTable) {
        let started = busy.startedIn
        let foreground = started == .inactive || started == .active
        guard let closed = busy.close(at: end, open: stacks.slots[0], symbols: symbols) else { return }
        let stall = Stall(
            start: closed.start, duration: end - closed.start,
            sinceLaunch: current.windowStart.map { closed.start - $0 }, unfinished: unfinished, blame: closed.blame,
            work: closed.work, opening: closed.event)
        let endsInForeground = current.inForeground
        // A stall that began on screen is a hang even when the user left during it (Apple,
        // *Understanding hangs*): judged by the part before the app left the foreground.
        let onScreen = (busy.leftForeground ?? end) &- closed.start
        let inForeground = foreground && (endsInForeground || onScreen >= options.hangThreshold)
        let resumed = (started == .background || started == .suspended) && endsInForeground
        if current.stalls.count < CappedCounts.lifetimeStallLimit {
            current.stalls.append(
                RecordedStall(stall: stall, startEvent: closed.event, inForeground: inForeground, resumed: resumed))
        } else {
            countStallPastLimit(stall, inForeground: inForeground, resumed: resumed)
        }
        // Final only once the lifetime follows its run loop: before, the first run-loop event
        // discards what the callbacks suggested, so those stalls go out when the lifetime ends.
        if emitsEdges && current.runLoopSeen && stall.duration >= options.stallThreshold {
            emit(.stall(stall, lifetime: current.index))
        }
    }
}
