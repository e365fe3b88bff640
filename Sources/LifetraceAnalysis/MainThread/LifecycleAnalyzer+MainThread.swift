import LifetraceFormat

extension LifecycleAnalyzer {
    /// The first main-thread run-loop event of a lifetime: from here busy intervals come from the
    /// run loop, and whatever the callbacks suggested before is dropped.
    mutating func switchToRunLoop() {
        current.runLoopSeen = true
        current.stalls.removeAll()
        current.busyToCallbackEnd = 0
        current.busyToFrame = 0
        busy.reset()
    }

    /// Closes the main thread's busy interval at `end`: adds it to the launch-window busy time
    /// and records a stall when it is at least the threshold.
    @inline(__always)
    mutating func closeBusy(at end: Int64, unfinished: Bool, symbols: SymbolTable) {
        guard let start = busy.start else { return }
        accountBusy(start: start, end: end)
        if end - start >= options.recordedStallThreshold {
            recordStall(at: end, unfinished: unfinished, symbols: symbols)
        } else {
            busy.reset()
        }
    }

    @inline(__always)
    private mutating func accountBusy(start: Int64, end: Int64) {
        let from = max(start, current.launchTime ?? start)
        guard end > from else { return }
        let toCallback = current.windowCallbackEnd.map { min($0, end) } ?? end
        if toCallback > from { current.busyToCallbackEnd += toCallback - from }
        let toFrame = current.firstFrame.map { min($0, end) } ?? end
        if toFrame > from { current.busyToFrame += toFrame - from }
    }

    private mutating func recordStall(at end: Int64, unfinished: Bool, symbols: SymbolTable) {
        let foreground = busy.startedInForeground
        guard let closed = busy.close(at: end, open: stacks.slots[0], symbols: symbols) else { return }
        let stall = Stall(
            start: closed.start, duration: end - closed.start,
            sinceLaunch: current.launchTime.map { closed.start - $0 }, unfinished: unfinished, blame: closed.blame,
            work: closed.work)
        current.stalls.append(
            RecordedStall(stall: stall, startEvent: closed.event, inForeground: foreground && current.inForeground))
    }
}
