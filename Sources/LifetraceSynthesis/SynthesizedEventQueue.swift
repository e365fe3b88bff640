import LifetraceFormat
import HeapModule

/// Events generated but not yet handed out, in (timestamp, generation order) order.
///
/// Main-thread and system events are generated in time order; events on worker threads are
/// generated when their interval starts and may lie ahead. The queue merges them, and stays small:
/// only events later than the synthesizer's clock wait in it.
struct SynthesizedEventQueue {
    private struct Entry: Comparable {
        var event: TraceEvent
        var sequence: UInt64

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.event.timestamp != rhs.event.timestamp
                ? lhs.event.timestamp < rhs.event.timestamp : lhs.sequence < rhs.sequence
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.sequence == rhs.sequence }
    }

    private var heap = Heap<Entry>()
    private var nextSequence: UInt64 = 0

    /// The number of waiting events.
    var count: Int { heap.count }

    /// The timestamp of the earliest waiting event.
    var firstTimestamp: Int64? { heap.min?.event.timestamp }

    /// Adds an event.
    mutating func insert(_ event: TraceEvent) {
        heap.insert(Entry(event: event, sequence: nextSequence))
        nextSequence += 1
    }

    /// Removes and returns the earliest event.
    mutating func removeFirst() -> TraceEvent? { heap.popMin()?.event }
}
