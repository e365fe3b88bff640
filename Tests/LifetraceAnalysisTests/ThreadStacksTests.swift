import LifetraceFormat
import Testing

@testable import LifetraceAnalysis

/// The slots of the threads other than the main one: bounded by the threads with something
/// open, and kept by a thread that begins and ends one interval after another.
@Suite struct ThreadStacksTests {
    static func interval(on thread: ThreadID, at timestamp: Int64) -> OpenInterval {
        OpenInterval(begin: TraceEvent(timestamp: timestamp, payload: .runloopWake, thread: thread), name: .none, key: 0)
    }

    /// Begins and ends one signpost on `thread`, as the analyzer does.
    static func beginAndEnd(_ stacks: inout ThreadStacks, on thread: ThreadID, at timestamp: Int64) -> Int {
        let slot = stacks.slot(for: thread)
        let pushed = stacks.pushSignpost(interval(on: thread, at: timestamp), slot: slot)
        #expect(pushed)
        let found = stacks.existingSlot(for: thread)
        #expect(found == slot)
        stacks.slots[slot].signposts.removeLast()
        stacks.release(slot)
        return slot
    }

    @Test func aWorkerThreadKeepsItsSlotAcrossIntervals() {
        var stacks = ThreadStacks()
        let worker = ThreadID(rawValue: 7)
        let slots = (0..<100).map { Self.beginAndEnd(&stacks, on: worker, at: Int64($0)) }
        #expect(Set(slots) == [ThreadStacks.firstThreadSlot])
        #expect(stacks.slots.count == ThreadStacks.firstThreadSlot + 1)
        // Nothing open is reported for it: the kept slot is empty.
        #expect(stacks.allOpen.isEmpty)
    }

    @Test func theIdleSlotIsGivenBackWhenAnotherThreadComes() {
        var stacks = ThreadStacks()
        // A thousand threads one after another, each beginning and ending one interval: the
        // slots stay bounded by the threads with something open, plus the cached one.
        for number in 1...1_000 {
            _ = Self.beginAndEnd(&stacks, on: ThreadID(rawValue: UInt64(number)), at: Int64(number))
        }
        #expect(stacks.slots.count <= ThreadStacks.firstThreadSlot + 2)
        // An interval left open keeps its thread's slot while others come and go.
        let holder = ThreadID(rawValue: 5_000)
        let held = stacks.slot(for: holder)
        let pushed = stacks.pushSignpost(Self.interval(on: holder, at: 1), slot: held)
        #expect(pushed)
        for number in 1...50 { _ = Self.beginAndEnd(&stacks, on: ThreadID(rawValue: UInt64(6_000 + number)), at: 2) }
        let found = stacks.existingSlot(for: holder)
        #expect(found == held)
        #expect(stacks.slots[held].signposts.count == 1)
        #expect(stacks.allOpen.map(\.begin.thread) == [holder])
    }

    @Test func theThreadLimitCountsOnlyThreadsWithSomethingOpen() {
        var stacks = ThreadStacks()
        // Every followed thread holds an interval: the next thread's begin is refused and counted.
        for number in 1...CappedCounts.threadLimit {
            let thread = ThreadID(rawValue: UInt64(number))
            let slot = stacks.slot(for: thread)
            let pushed = stacks.pushSignpost(Self.interval(on: thread, at: 0), slot: slot)
            #expect(pushed)
        }
        let extra = ThreadID(rawValue: UInt64(CappedCounts.threadLimit + 1))
        let refusedSlot = stacks.slot(for: extra)
        let refused = !stacks.pushSignpost(Self.interval(on: extra, at: 0), slot: refusedSlot)
        #expect(refused)
        #expect(stacks.threadOverflow == 1)
        // One of them ends its interval while cached: once the cache moves, its slot is free.
        let last = ThreadID(rawValue: UInt64(CappedCounts.threadLimit))
        let slot = stacks.slot(for: last)
        stacks.slots[slot].signposts.removeLast()
        stacks.release(slot)
        let takenSlot = stacks.slot(for: extra)
        let taken = stacks.pushSignpost(Self.interval(on: extra, at: 1), slot: takenSlot)
        #expect(taken)
        #expect(stacks.threadOverflow == 1)
        let gone = stacks.existingSlot(for: last)
        #expect(gone == nil)
    }
}
