/// The `callback.end` events that `callback` shorthands have promised but not yet delivered,
/// ordered by when they are due.
///
/// A min-heap on (timestamp, latest begin first): when two callbacks end at the same instant,
/// the one that began later ends first, so that nested callbacks stay properly nested.
struct PendingCallbackEnds {
    /// How many ends may be pending at once; more means the input is hostile or broken.
    static let limit = 1 << 16

    private struct Entry {
        var event: TraceEvent
        var sequence: Int

        func isDue(before other: Entry) -> Bool {
            if event.timestamp != other.event.timestamp { return event.timestamp < other.event.timestamp }
            return sequence > other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence = 0

    /// Whether nothing is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// The number of pending ends.
    var count: Int { heap.count }

    /// The end due first.
    var first: TraceEvent? { heap.first?.event }

    /// Adds an end.
    mutating func insert(_ event: TraceEvent) {
        heap.append(Entry(event: event, sequence: nextSequence))
        nextSequence += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].isDue(before: heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the end due first.
    mutating func removeFirst() -> TraceEvent? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let first = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].isDue(before: heap[smallest]) { smallest = left }
            if right < heap.count && heap[right].isDue(before: heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first.event
    }
}
