import HeapModule

/// The `callback.end` events that `callback` shorthands have promised but not yet delivered,
/// ordered by when they are due.
///
/// A min-heap on (timestamp, latest begin first): when two callbacks end at the same instant,
/// the one that began later ends first, so that nested callbacks stay properly nested.
struct PendingCallbackEnds {
    /// How many ends may be pending at once; more means the input is hostile or broken.
    static let limit = 1 << 16

    private struct Entry: Comparable {
        var event: TraceEvent
        var sequence: Int

        /// Due first: earlier, or at the same instant begun later.
        static func < (lhs: Entry, rhs: Entry) -> Bool {
            if lhs.event.timestamp != rhs.event.timestamp { return lhs.event.timestamp < rhs.event.timestamp }
            return lhs.sequence > rhs.sequence
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool { lhs.sequence == rhs.sequence }
    }

    private var heap = Heap<Entry>()
    private var nextSequence = 0

    /// Whether nothing is pending.
    var isEmpty: Bool { heap.isEmpty }

    /// The number of pending ends.
    var count: Int { heap.count }

    /// The end due first.
    var first: TraceEvent? { heap.min?.event }

    /// Adds an end.
    mutating func insert(_ event: TraceEvent) {
        heap.insert(Entry(event: event, sequence: nextSequence))
        nextSequence += 1
    }

    /// Removes and returns the end due first.
    mutating func removeFirst() -> TraceEvent? { heap.popMin()?.event }
}
