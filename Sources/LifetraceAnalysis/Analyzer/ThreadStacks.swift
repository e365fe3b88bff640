import LifetraceFormat

/// A callback or signpost that has begun and not yet ended.
struct OpenInterval {
    /// The begin event (a witness when the interval is reported).
    var begin: TraceEvent
    /// The callback or signpost name.
    var name: Symbol
    /// How many intervals of its kind were open on its thread when it began (set when pushed);
    /// 16 bits (at most ``ThreadStacks/depthLimit``), so that it and the lane fit beside the name
    /// and the interval stays as small as before.
    var depth: Int16 = 0
    /// The lane it is drawn on (``EdgeInterval/lane``): the lowest lane of its kind and thread with
    /// nothing open when it began; its depth while the thread's intervals nest.
    var lane: Int16 = 0
    /// The scene (callbacks) or the id (signposts) that an end must match.
    var key: Int64

    /// The interval as edges carry it.
    func edge(_ kind: EdgeInterval.Kind) -> EdgeInterval {
        EdgeInterval(
            kind: kind, thread: begin.thread, depth: Int(depth), lane: Int(lane), name: name, key: key,
            begin: begin.timestamp)
    }
}

/// The open callbacks and signposts of one thread.
struct ThreadIntervals {
    var thread: ThreadID
    var callbacks: [OpenInterval] = []
    var signposts: [OpenInterval] = []
    /// Whether a signpost ended while one that began after it was still open (signposts may
    /// overlap without nesting): the signposts' lanes are then no longer their positions in the
    /// stack, and a new one looks for the lowest free lane. Cleared once none is open.
    var signpostsOverlap = false
    /// How many intervals of each kind the thread may hold: ``ThreadStacks/depthLimit``, or 0 for
    /// the slot that takes the begins of threads not followed.
    var limit: Int

    init(thread: ThreadID, limit: Int = ThreadStacks.depthLimit) {
        self.thread = thread
        self.limit = limit
        // The main thread's stacks are used all the time; another thread's grow when used, so
        // that following many threads costs little each.
        if thread.isMain {
            callbacks.reserveCapacity(16)
            signposts.reserveCapacity(16)
        }
    }

    /// The lowest lane no open signpost of the thread holds.
    func freeSignpostLane() -> Int16 {
        guard signpostsOverlap else { return Int16(truncatingIfNeeded: signposts.count) }
        return Self.lowestFreeLane(signposts.lazy.map { Int($0.lane) })
    }

    /// The lowest lane (0 and up) not among `taken` (distinct lanes).
    static func lowestFreeLane(_ taken: some Sequence<Int>) -> Int16 {
        // At most depthLimit lanes are open: a bit per lane.
        var used = [Bool](repeating: false, count: ThreadStacks.depthLimit + 1)
        for lane in taken where lane >= 0 && lane < used.count { used[lane] = true }
        return Int16(truncatingIfNeeded: used.firstIndex(of: false) ?? used.count)
    }

    /// Removes the open signpost at `index`, which need not be the innermost.
    mutating func removeSignpost(at index: Int) -> OpenInterval {
        if index != signposts.count - 1 { signpostsOverlap = true }
        let interval = signposts.remove(at: index)
        if signposts.isEmpty { signpostsOverlap = false }
        return interval
    }

    /// The index of the innermost open interval named `name` with `key`, searching from the top.
    static func innermost(_ stack: [OpenInterval], name: Symbol, key: Int64) -> Int? {
        var index = stack.count - 1
        while index >= 0 {
            if stack[index].name == name && stack[index].key == key { return index }
            index -= 1
        }
        return nil
    }
}

/// Open intervals per thread. The main thread is slot 0 and needs no look-up; other threads are
/// found through a dictionary behind a one-entry cache, so that runs of events on one thread
/// cost a comparison. A thread's slot is given back once nothing is open on it, so the number of
/// slots is bounded by the threads that have something open, not by the threads ever seen, and
/// at most ``CappedCounts/threadLimit``: a begin on a further thread goes to slot 1, which keeps
/// nothing, and is counted. The cached thread's slot is the one exception: it is given back when
/// the cache moves to another thread, so that a worker thread that begins and ends one interval
/// after another keeps its slot rather than giving it back and taking it again each time.
struct ThreadStacks {
    /// How deep a stack may grow; deeper begins are counted, not kept, so memory stays bounded
    /// even for a trace that never ends what it begins.
    static let depthLimit = 512

    /// Slot 0 is the main thread's, slot 1 the one for threads not followed, which keeps nothing.
    var slots: [ThreadIntervals] = [ThreadIntervals(thread: .main), ThreadIntervals(thread: .main, limit: 0)]
    /// The first slot of a thread other than the main one.
    static let firstThreadSlot = 2
    private var index: [UInt64: Int] = [:]
    private var free: [Int] = []
    private var cachedThread: UInt64 = 0
    private var cachedSlot = 0
    /// Begins not kept because a stack was full, over the whole trace.
    var overflow = 0
    /// Begins not kept because ``CappedCounts/threadLimit`` threads were followed, over the whole trace.
    var threadOverflow = 0

    /// The slot of `thread`, creating it on first use.
    @inline(__always)
    mutating func slot(for thread: ThreadID) -> Int {
        if thread.rawValue == cachedThread { return cachedSlot }
        return lookUp(thread)
    }

    /// The slot of `thread` if it has one; nothing is created.
    @inline(__always)
    mutating func existingSlot(for thread: ThreadID) -> Int? {
        if thread.rawValue == cachedThread { return cachedSlot }
        if thread.isMain { return 0 }
        return index[thread.rawValue]
    }

    private mutating func lookUp(_ thread: ThreadID) -> Int {
        giveBackIdleCachedSlot()
        let slot: Int
        if thread.isMain {
            slot = 0
        } else if let known = index[thread.rawValue] {
            slot = known
        } else if index.count >= CappedCounts.threadLimit {
            // Not cached: once a followed thread is released, this one may be followed.
            return 1
        } else if let reused = free.popLast() {
            slot = reused
            slots[slot].thread = thread
            index[thread.rawValue] = slot
        } else {
            slot = slots.count
            slots.append(ThreadIntervals(thread: thread))
            index[thread.rawValue] = slot
        }
        cachedThread = thread.rawValue
        cachedSlot = slot
        return slot
    }

    /// Gives a non-main thread's slot back when nothing is open on it any more; the cached
    /// thread's slot stays its thread's until the cache moves (``giveBackIdleCachedSlot()``).
    @inline(__always)
    mutating func release(_ slot: Int) {
        guard slot >= Self.firstThreadSlot, slot != cachedSlot, slots[slot].callbacks.isEmpty, slots[slot].signposts.isEmpty
        else { return }
        index[slots[slot].thread.rawValue] = nil
        free.append(slot)
    }

    /// Gives the cached slot back if it is another thread's than the main one and nothing is
    /// open on it, before the cache moves to another thread.
    private mutating func giveBackIdleCachedSlot() {
        let slot = cachedSlot
        guard slot >= Self.firstThreadSlot, slots[slot].callbacks.isEmpty, slots[slot].signposts.isEmpty else { return }
        cachedThread = 0
        cachedSlot = 0
        index[slots[slot].thread.rawValue] = nil
        free.append(slot)
    }

    /// Pushes a callback; false when the stack is full.
    @inline(__always)
    mutating func pushCallback(_ interval: OpenInterval, slot: Int) -> Bool {
        guard slots[slot].callbacks.count < slots[slot].limit else {
            refused(slot)
            return false
        }
        var interval = interval
        // Callbacks always nest (an end closes those open inside it): the lane is the depth.
        interval.depth = Int16(truncatingIfNeeded: slots[slot].callbacks.count)
        interval.lane = interval.depth
        slots[slot].callbacks.append(interval)
        return true
    }

    /// Pushes a signpost; false when the stack is full.
    @inline(__always)
    mutating func pushSignpost(_ interval: OpenInterval, slot: Int) -> Bool {
        guard slots[slot].signposts.count < slots[slot].limit else {
            refused(slot)
            return false
        }
        var interval = interval
        interval.depth = Int16(truncatingIfNeeded: slots[slot].signposts.count)
        interval.lane = slots[slot].freeSignpostLane()
        slots[slot].signposts.append(interval)
        return true
    }

    @inline(never)
    private mutating func refused(_ slot: Int) {
        if slots[slot].limit == 0 { threadOverflow &+= 1 } else { overflow &+= 1 }
    }

    /// Every interval still open, oldest first.
    var allOpen: [OpenInterval] {
        var open: [OpenInterval] = []
        for slot in slots where !slot.callbacks.isEmpty || !slot.signposts.isEmpty {
            open += slot.callbacks
            open += slot.signposts
        }
        return open.sorted { $0.begin.timestamp < $1.begin.timestamp }
    }

    /// Forgets every open interval and every thread but the main one, keeping the storage.
    mutating func removeAll() {
        for slot in slots.indices where !slots[slot].callbacks.isEmpty || !slots[slot].signposts.isEmpty {
            slots[slot].callbacks.removeAll(keepingCapacity: true)
            slots[slot].signposts.removeAll(keepingCapacity: true)
            slots[slot].signpostsOverlap = false
        }
        if slots.count > Self.firstThreadSlot {
            free = Array((Self.firstThreadSlot..<slots.count).reversed())
            index.removeAll(keepingCapacity: true)
        }
        cachedThread = 0
        cachedSlot = 0
    }
}
