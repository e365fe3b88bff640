import LifecycleModel
import LifetraceFormat

/// The stalls of a lifetime past the first ``CappedCounts/lifetimeStallLimit``, kept as counts of
/// what `launch-stall` and `hang` need to judge them at the lifetime's end: whether each began
/// at or after the launch (and before a prewarmed launch's resume), before each possible end of the
/// launch window, in the foreground or as the app returned to it, and whether it reached each
/// threshold. 2,048 counters, whatever the number of stalls, and the same verdicts as judging each
/// stall (for events in time order: a window end not yet seen when a stall is recorded comes after
/// it, and a resume not yet found when a stall is recorded comes after it).
struct StallsPastLimit {
    /// How many stalls per key (the bits below); allocated at the first stall past the limit.
    private var counts: [Int] = []

    static let afterLaunch = 1
    static let beforeDidFinishEnd = 2
    static let beforeFirstFrame = 4
    static let beforeFirstActiveEnd = 8
    static let inForeground = 16
    static let atStallThreshold = 32
    static let atHangThreshold = 64
    static let atLaunchStallThreshold = 128
    static let resumed = 256
    static let beforeResume = 512
    static let beforeAbandoned = 1024
    private static let keys = 2048

    /// Whether no stall was counted.
    var isEmpty: Bool { counts.isEmpty }

    /// Counts a stall with `key` (a union of the bits above).
    mutating func add(key: Int) {
        if counts.isEmpty { counts = [Int](repeating: 0, count: Self.keys) }
        counts[key] &+= 1
    }

    /// How many stalls have every bit of `all` set and none of `none`.
    func count(all: Int, none: Int = 0) -> Int {
        var total = 0
        for key in counts.indices where key & all == all && key & none == 0 { total &+= counts[key] }
        return total
    }

    /// How many stalls a `hang` may report: with every bit of `all` and none of `none`, begun in the
    /// foreground or ending there after beginning in Background (a resume hang).
    func hangCandidates(all: Int, none: Int) -> Int {
        count(all: all | Self.inForeground, none: none)
            &+ count(all: all | Self.resumed, none: none | Self.inForeground)
    }

    mutating func removeAll() { counts = [] }
}

extension LifecycleAnalyzer {
    /// Counts a stall past the lifetime's kept ones under what `launch-stall` and `hang` will ask
    /// of it at the lifetime's end. A window end or a resume not seen yet will come after the stall
    /// began.
    mutating func countStallPastLimit(_ stall: Stall, inForeground: Bool, resumed: Bool) {
        typealias Bits = StallsPastLimit
        let start = stall.start
        var key = 0
        if start >= current.launchTime ?? current.start { key |= Bits.afterLaunch }
        if current.didFinishEnd.map({ start <= $0 }) ?? true { key |= Bits.beforeDidFinishEnd }
        if current.firstFrame.map({ start <= $0 }) ?? true { key |= Bits.beforeFirstFrame }
        if current.firstActiveEnd.map({ start <= $0 }) ?? true { key |= Bits.beforeFirstActiveEnd }
        if current.abandonedAt.map({ start <= $0 }) ?? true { key |= Bits.beforeAbandoned }
        if current.resumeTime.map({ start < $0 }) ?? true { key |= Bits.beforeResume }
        if inForeground { key |= Bits.inForeground }
        if resumed { key |= Bits.resumed }
        if stall.duration >= options.stallThreshold { key |= Bits.atStallThreshold }
        if stall.duration >= options.launchStallThreshold { key |= Bits.atLaunchStallThreshold }
        if stall.duration >= options.hangThreshold { key |= Bits.atHangThreshold }
        current.stallsPastLimit.add(key: key)
    }

    /// `launch-stall` and `hang` for the stalls past the lifetime's kept ones, as counts: the same
    /// verdicts as ``checkLaunch(end:exit:symbols:)`` gives the kept stalls, without messages.
    mutating func judgeStallsPastLimit(hasLaunch: Bool) {
        typealias Bits = StallsPastLimit
        let past = current.stallsPastLimit
        guard !past.isEmpty else { return }
        // Before a prewarmed launch's resume the main thread did the prewarm's work, off screen:
        // neither a launch stall nor a hang. Without a resume found, every stall counts.
        let prewarm = current.resumeTime == nil ? 0 : Bits.beforeResume
        // The launch window ends as checkLaunch says: where the user left an abandoned launch,
        // didFinishLaunching for a background launch, else the first frame, else the first
        // activation (or the lifetime's end, when the milestone never came: every bit is then set).
        let window: Int
        if current.abandonedAt != nil {
            window = Bits.beforeAbandoned
        } else if current.kind == .background {
            window = Bits.beforeDidFinishEnd
        } else {
            window = current.firstFrame != nil ? Bits.beforeFirstFrame : Bits.beforeFirstActiveEnd
        }
        let hangs = past.hangCandidates(all: Bits.atHangThreshold, none: prewarm)
        if hasLaunch {
            let inWindow = Bits.afterLaunch | window
            if options.rules.contains(Rule(.launchStall)) {
                found.count(Rule(.launchStall), times: past.count(all: inWindow | Bits.atLaunchStallThreshold, none: prewarm))
            }
            if options.rules.contains(Rule(.hang)) {
                found.count(Rule(.hang), times: hangs - past.hangCandidates(all: inWindow | Bits.atHangThreshold, none: prewarm))
            }
        } else if options.rules.contains(Rule(.hang)) {
            found.count(Rule(.hang), times: hangs)
        }
    }

    /// The stalls a lifetime's report lists, and how many it leaves out: those past the
    /// lifetime's kept ones, and those past the trace's ``CappedCounts/traceStallLimit``.
    mutating func listedStalls() -> (stalls: [Stall], omitted: Int) {
        // Timed from the launch window's start as the lifetime ends: a prewarm's resume may be
        // found after a stall closed.
        let launch = current.windowStart
        var stalls = current.stalls.map(\.stall).filter { $0.duration >= options.stallThreshold }.map {
            var stall = $0
            stall.sinceLaunch = launch.map { stall.start - $0 }
            return stall
        }
        var omitted = current.stallsPastLimit.count(all: StallsPastLimit.atStallThreshold)
        let room = max(0, CappedCounts.traceStallLimit - stallsListed)
        if stalls.count > room {
            omitted += stalls.count - room
            stalls.removeLast(stalls.count - room)
        }
        stallsListed += stalls.count
        capped.stalls &+= omitted
        return (stalls, omitted)
    }
}
