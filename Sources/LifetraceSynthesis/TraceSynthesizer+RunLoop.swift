import LifetraceFormat
/// The main run loop between transitions: 60 Hz frames while the user interacts, sparse timer
/// wakes while the app idles or runs in the background, and work on worker threads.
extension TraceSynthesizer {
    /// One activity of an Active app: a frame, or an idle wake.
    mutating func activeRunLoopActivity() {
        var startsInteraction = false
        if now >= life.modeUntil {
            life.interactive.toggle()
            startsInteraction = life.interactive
            let seconds = life.interactive
                ? random.longTail(minimum: 0.4, maximum: 25) : random.longTail(minimum: 0.3, maximum: 40)
            life.modeUntil = now + Self.microseconds(seconds * 1e9)
        }
        if random.chance(0.0003) {
            advance(milliseconds: random.uniform(1, 30))
            busy {
                $0.callback(.didReceiveMemoryWarning, milliseconds: $0.random.uniform(2, 30))
            }
        }
        if life.interactive {
            frame(startsInteraction: startsInteraction)
        } else {
            idleWake(until: life.modeUntil, frames: true)
        }
    }

    /// Waits for the next vsync and wakes a little after it, as the display link fires.
    mutating func nextVsyncWake() {
        let period = life.vsyncPeriod
        let vsync = life.vsyncOrigin + ((now - life.vsyncOrigin) / period + 1) * period
        var latency = 0.04 + 0.45 * random.unit() * random.unit()
        if random.chance(0.03) { latency += random.uniform(0.5, 3) }
        now = Self.microseconds(Double(vsync) + latency * 1e6)
    }

    /// One frame: wake at vsync, run layout and rendering work, present the frame, sleep. Now and
    /// then the frame takes long (a hitch), and rarely the main thread blocks for a quarter of a
    /// second or more: a stall, with the blocking work in a signpost.
    private mutating func frame(startsInteraction: Bool) {
        nextVsyncWake()
        let start = now
        let stall = random.chance(0.0008)
        let total = stall ? random.longTail(minimum: 260, maximum: 2_600) : frameMilliseconds()
        busy {
            if startsInteraction && $0.random.chance(0.7) {
                $0.advance(milliseconds: $0.random.uniform(0.01, 0.1))
                $0.emit(.mark(name: $0.random.element(of: $0.names.interactionMarks)))
            }
            if stall {
                let name = $0.random.element(of: $0.names.stallSignposts)
                $0.signpost(name, milliseconds: total * $0.random.uniform(0.7, 0.95))
            } else if total > 1.2 && $0.random.chance(0.45) {
                let outer = total * $0.random.uniform(0.3, 0.75)
                $0.signpost($0.random.element(of: $0.names.mainSignposts), milliseconds: outer) {
                    if $0.random.chance(0.35) {
                        $0.signpost($0.random.element(of: $0.names.nestedSignposts), milliseconds: outer * $0.random.uniform(0.2, 0.6))
                    }
                }
            }
            if $0.random.chance(0.04) {
                let worker = $0.random.element(of: $0.names.workerSignposts)
                $0.spawnWorker(worker.name, milliseconds: $0.random.longTail(minimum: worker.minimumMilliseconds, maximum: worker.minimumMilliseconds * 60))
            }
            $0.now = max($0.now, start + Self.microseconds(total * 1e6) - 60_000)
            $0.emit(.frame(first: nil))
        }
    }

    /// How long the main thread works for one frame: mostly a few milliseconds, sometimes more
    /// than a frame's time (a dropped frame), rarely a long hitch.
    private mutating func frameMilliseconds() -> Double {
        let roll = random.unit()
        if roll < 0.62 { return max(0.3, random.bell(mean: 2.6, deviation: 0.8)) }
        if roll < 0.92 { return random.uniform(4, 11) }
        if roll < 0.99 { return random.uniform(11, 22) }
        return random.longTail(minimum: 25, maximum: 200)
    }

    /// A timer or notification wake of an idle foreground app, if one comes before `until`.
    mutating func idleWake(until: Int64, frames: Bool) {
        let wake = now + Self.microseconds(random.longTail(minimum: 25, maximum: 2_500) * 1e6)
        guard wake < until else {
            now = max(now, until)
            return
        }
        now = wake
        let work = max(0.1, random.bell(mean: 0.9, deviation: 0.4))
        busy {
            if $0.random.chance(0.3) {
                $0.signpost($0.random.element(of: $0.names.mainSignposts), milliseconds: work * 0.6)
            } else {
                $0.advance(milliseconds: work)
            }
            if frames && $0.random.chance(0.25) { $0.emit(.frame(first: nil)) }
        }
    }

    /// A wake of an app running in the background, or the end of its background task.
    mutating func backgroundWake(until: Int64) {
        let wake = now + Self.microseconds(random.longTail(minimum: 40, maximum: 3_000) * 1e6)
        if let task = life.task, task.end <= min(wake, until) {
            now = max(now, task.end)
            busy { $0.emit(.bgtaskEnd(id: task.id, name: task.name)) }
            life.task = nil
            return
        }
        guard wake < until else {
            now = max(now, until)
            return
        }
        now = wake
        busy {
            if $0.random.chance(0.25) {
                $0.signpost($0.random.element(of: $0.names.backgroundSignposts), milliseconds: $0.random.uniform(0.3, 12))
            } else {
                $0.advance(milliseconds: $0.random.uniform(0.1, 3))
            }
            if $0.random.chance(0.08) {
                $0.spawnWorker(
                    $0.random.element(of: $0.names.backgroundSignposts),
                    milliseconds: $0.random.longTail(minimum: 90, maximum: 2_500))
            }
            if $0.random.chance(0.0015) {
                $0.callback(.didReceiveMemoryWarning, milliseconds: $0.random.uniform(2, 25))
            }
            if !$0.life.protectedDataLocked && $0.random.chance(0.004) {
                $0.callback(.protectedDataWillBecomeUnavailable, milliseconds: $0.random.uniform(0.2, 3))
                $0.life.protectedDataLocked = true
            }
        }
    }

    /// An interval of `milliseconds` on a free worker thread, starting now; nothing if all the
    /// worker threads are busy.
    mutating func spawnWorker(_ name: Symbol, milliseconds: Double) {
        guard let index = life.workerFreeAt.firstIndex(where: { $0 <= now }) else { return }
        let thread = life.workerThreads[index]
        let start = now + Self.microseconds(random.uniform(0.02, 0.4) * 1e6)
        let end = start + max(1000, Self.microseconds(milliseconds * 1e6))
        let id = nextSignpostID
        nextSignpostID += 1
        schedule(.signpostBegin(name: name, id: id), at: start, thread: thread)
        schedule(.signpostEnd(name: name, id: id), at: end, thread: thread)
        life.workerFreeAt[index] = end + 1000
        workersQuietAt = max(workersQuietAt, end)
    }
}
