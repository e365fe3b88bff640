import LifecycleModel
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
        withUnsafePointer(to: event) { replayCommon(at: $0, symbols: symbols, edges: RuntimeEdgeEmission.self) }
    }

    @inline(__always)
    mutating func replayCommon<Edges: EdgeEmission>(
        at pointer: UnsafePointer<TraceEvent>, symbols: SymbolTable, edges: Edges.Type
    ) -> Bool {
        let timestamp = pointer.pointee.timestamp
        guard pointer.pointee.stream == .app, inLifetime, !current.silent,
            timestamp >= previousAppEvent.timestamp, timestamp >= current.lastTimestamp
        else { return false }
        // A long silence of the app (a pause before the launch goes on, a suspension): the full path.
        guard timestamp &- current.lastAppActivity < background.silenceThreshold else { return false }
        let main = pointer.pointee.thread.isMain
        switch pointer.pointee.payload {
        case .runloopWake:
            guard !main || current.runLoopSeen else { return false }
            countCommon(pointer)
            if main { openBusy(pointer.pointee, edges: edges) }
        case .runloopSleep:
            guard !main || current.runLoopSeen else { return false }
            countCommon(pointer)
            if main { closeBusy(at: timestamp, unfinished: false, symbols: symbols, edges: edges) }
        case .frame:
            guard current.firstFrame != nil else { return false }
            countCommon(pointer)
            if Edges.forSink(sinkListens) || Edges.isOn(emitsEdges) && monitorLooksAtFrames {
                queuePoint(.frame, pointer.pointee, name: .none)
            }
        case .signpostBegin(let name, let id):
            // Signposts that overlap without nesting look for a free lane: the full path.
            guard main, stacks.slots[0].signposts.count < ThreadStacks.depthLimit, !stacks.slots[0].signpostsOverlap
            else { return false }
            countCommon(pointer)
            let depth = Int16(truncatingIfNeeded: stacks.slots[0].signposts.count)
            let interval = OpenInterval(begin: pointer.pointee, name: name, depth: depth, lane: depth, key: id ?? .min)
            stacks.slots[0].signposts.append(interval)
            if Edges.isOn(emitsEdges), signpostEdges(name, symbols: symbols) {
                edgeCause = pointer.pointee
                queue(.intervalBegan(interval.edge(.signpost)))
            }
        case .signpostEnd(let name, let id):
            guard main, let top = stacks.slots[0].signposts.last, top.name == name, top.key == id ?? .min else { return false }
            countCommon(pointer)
            stacks.slots[0].signposts.removeLast()
            if Edges.isOn(emitsEdges), signpostEdges(name, symbols: symbols) {
                edgeCause = pointer.pointee
                queue(.intervalEnded(top.edge(.signpost), at: timestamp, how: .ended))
            }
            mainIntervalEnded(.signpost, top, at: timestamp, symbols: symbols, edges: edges)
        case .launch, .state, .callbackBegin, .callbackEnd, .mark, .bgtaskBegin, .bgtaskEnd, .bgtaskExpire, .exit, .dropped:
            // The full path, which handles every kind.
            return false
        }
        return true
    }

    // What every app-side event in order does to the counters and clocks.
    @inline(__always)
    private mutating func countCommon(_ event: UnsafePointer<TraceEvent>) {
        eventCount &+= 1
        previousAppEvent = event.pointee
        current.eventCount &+= 1
        current.lastTimestamp = event.pointee.timestamp
        current.lastAppActivity = event.pointee.timestamp
        current.firstAppActivity = min(current.firstAppActivity, event.pointee.timestamp)
    }
}
