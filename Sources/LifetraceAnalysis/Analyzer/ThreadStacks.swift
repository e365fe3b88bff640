import LifetraceFormat

/// A callback or signpost that has begun and not yet ended.
struct OpenInterval {
    /// The begin event (a witness when the interval is reported).
    var begin: TraceEvent
    /// The callback or signpost name.
    var name: Symbol
    /// The scene (callbacks) or the id (signposts) that an end must match.
    var key: Int64
}

/// The open callbacks and signposts of one thread.
struct ThreadIntervals {
    var thread: ThreadID
    var callbacks: [OpenInterval] = []
    var signposts: [OpenInterval] = []

    init(thread: ThreadID) {
        self.thread = thread
        callbacks.reserveCapacity(16)
        signposts.reserveCapacity(16)
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
/// cost a comparison.
struct ThreadStacks {
    /// How deep a stack may grow; deeper begins are counted, not kept, so memory stays bounded
    /// even for a trace that never ends what it begins.
    static let depthLimit = 512

    var slots: [ThreadIntervals] = [ThreadIntervals(thread: .main)]
    private var index: [UInt64: Int] = [:]
    private var cachedThread: UInt64 = 0
    private var cachedSlot = 0
    /// Begins not kept because a stack was full.
    var overflow = 0

    /// The slot of `thread`, creating it on first use.
    @inline(__always)
    mutating func slot(for thread: ThreadID) -> Int {
        if thread.rawValue == cachedThread { return cachedSlot }
        return lookUp(thread)
    }

    private mutating func lookUp(_ thread: ThreadID) -> Int {
        let slot: Int
        if thread.isMain {
            slot = 0
        } else if let known = index[thread.rawValue] {
            slot = known
        } else {
            slot = slots.count
            slots.append(ThreadIntervals(thread: thread))
            index[thread.rawValue] = slot
        }
        cachedThread = thread.rawValue
        cachedSlot = slot
        return slot
    }

    /// Pushes a callback; false when the stack is full.
    @inline(__always)
    mutating func pushCallback(_ interval: OpenInterval, slot: Int) -> Bool {
        guard slots[slot].callbacks.count < Self.depthLimit else {
            overflow += 1
            return false
        }
        slots[slot].callbacks.append(interval)
        return true
    }

    /// Pushes a signpost; false when the stack is full.
    @inline(__always)
    mutating func pushSignpost(_ interval: OpenInterval, slot: Int) -> Bool {
        guard slots[slot].signposts.count < Self.depthLimit else {
            overflow += 1
            return false
        }
        slots[slot].signposts.append(interval)
        return true
    }

    /// Every interval still open, callbacks first, oldest first within a thread.
    var allOpen: [OpenInterval] {
        slots.flatMap { $0.callbacks + $0.signposts }.sorted { $0.begin.timestamp < $1.begin.timestamp }
    }

    /// Whether nothing is open.
    var isEmpty: Bool { slots.allSatisfy { $0.callbacks.isEmpty && $0.signposts.isEmpty } }

    /// Forgets every open interval, keeping the storage.
    mutating func removeAll() {
        for slot in slots.indices {
            slots[slot].callbacks.removeAll(keepingCapacity: true)
            slots[slot].signposts.removeAll(keepingCapacity: true)
        }
        overflow = 0
    }
}
