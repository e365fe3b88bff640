/// Events generated but not yet handed out, in (timestamp, generation order) order.
///
/// Main-thread and system events are generated in time order; events on worker threads are
/// generated when their interval starts and may lie ahead. The queue merges them, and stays small:
/// only events later than the synthesizer's clock wait in it.
struct SynthesizedEventQueue {
    private struct Entry {
        var event: TraceEvent
        var sequence: UInt64

        func precedes(_ other: Entry) -> Bool {
            event.timestamp != other.event.timestamp
                ? event.timestamp < other.event.timestamp : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    /// The number of waiting events.
    var count: Int { heap.count }

    /// The timestamp of the earliest waiting event.
    var firstTimestamp: Int64? { heap.first?.event.timestamp }

    /// Adds an event.
    mutating func insert(_ event: TraceEvent) {
        heap.append(Entry(event: event, sequence: nextSequence))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest event.
    mutating func removeFirst() -> TraceEvent? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var earliest = parent
            if left < heap.count && heap[left].precedes(heap[earliest]) { earliest = left }
            if right < heap.count && heap[right].precedes(heap[earliest]) { earliest = right }
            if earliest == parent { break }
            heap.swapAt(parent, earliest)
            parent = earliest
        }
        return first.event
    }
}
