import LifetraceFormat

/// The short path for the events that make up almost all of a recording: the main run loop's
/// wakes and sleeps, frames after the first, and main-thread signposts, on the app stream of a
/// lifetime that is running (not silent) with timestamps in order.
///
/// For these events ``replayInFull(_:symbols:)`` would do exactly what this path does (the
/// tests replay every sample trace both ways and compare); this path only skips the checks that
/// cannot fire. Whatever it does not handle, it leaves untouched and returns false for.
extension LifecycleAnalyzer {
    @inline(__always)
    mutating func replayCommon(_ event: TraceEvent, symbols: SymbolTable) -> Bool {
        guard event.stream == .app, inLifetime, !current.silent,
            event.timestamp >= previousAppEvent.timestamp, event.timestamp >= current.lastTimestamp
        else { return false }
        let main = event.thread.isMain
        switch event.payload {
        case .runloopWake:
            guard !main || current.runLoopSeen else { return false }
            countCommon(event)
            if main { busy.open(event) }
        case .runloopSleep:
            guard !main || current.runLoopSeen else { return false }
            countCommon(event)
            if main { closeBusy(at: event.timestamp, unfinished: false, symbols: symbols) }
        case .frame:
            guard current.firstFrame != nil else { return false }
            countCommon(event)
        case .signpostBegin(let name, let id):
            guard main, stacks.slots[0].signposts.count < ThreadStacks.depthLimit else { return false }
            countCommon(event)
            stacks.slots[0].signposts.append(OpenInterval(begin: event, name: name, key: id ?? .min))
        case .signpostEnd(let name, let id):
            guard main, let top = stacks.slots[0].signposts.last, top.name == name, top.key == id ?? .min else { return false }
            countCommon(event)
            stacks.slots[0].signposts.removeLast()
            mainIntervalEnded(.signpost, top, at: event.timestamp, symbols: symbols)
        default:
            return false
        }
        return true
    }

    // What every app-side event in order does to the counters and clocks.
    @inline(__always)
    private mutating func countCommon(_ event: TraceEvent) {
        eventCount &+= 1
        previousAppEvent = event
        current.eventCount &+= 1
        current.lastTimestamp = event.timestamp
        current.lastAppActivity = event.timestamp
    }
}
