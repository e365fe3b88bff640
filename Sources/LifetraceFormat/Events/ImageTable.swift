/// The images of a trace as disjoint address ranges, each owned by the image a reader resolves
/// its addresses against, so that finding an address's image is a binary search, whatever the
/// number of images (docs/FORMAT.md, "Stack samples").
///
/// Images may overlap (a library unloaded and another loaded at its place, or a hostile trace):
/// an address belongs to the **last-declared** image that contains it, the one loaded most
/// recently. The table is built once, from all the images, by a sweep over their bounds in
/// address order that keeps the images open at each bound by declaration order: `n` images
/// make at most `2n + 1` ranges, in `O(n log n)`.
public struct ImageTable: Sendable {
    /// The first address of each range, ascending; a range ends where the next one starts (the
    /// last one at 2^64).
    private var starts: [UInt64] = []
    /// The image (index in the images the table was built from) owning each range; -1 for none.
    private var owners: [Int32] = []

    /// The table of `images`, each index in it an index in `images`.
    public init(_ images: [LoadedImage]) {
        // Each image as its first and last address (`base + size` may be 2^64 itself).
        var spans: [(first: UInt64, last: UInt64, index: Int32)] = []
        spans.reserveCapacity(images.count)
        for (index, image) in images.enumerated() where image.size > 0 {
            spans.append((image.base, image.base &+ min(image.size - 1, UInt64.max - image.base), Int32(index)))
        }
        guard !spans.isEmpty else { return }
        spans.sort { $0.first != $1.first ? $0.first < $1.first : $0.index < $1.index }
        // The bounds where the owner may change: every first address and every address just
        // past a last one.
        var bounds: [UInt64] = []
        bounds.reserveCapacity(spans.count * 2)
        for span in spans {
            bounds.append(span.first)
            if span.last < UInt64.max { bounds.append(span.last + 1) }
        }
        bounds.sort()
        var open = OpenImages()
        var next = 0
        var previous: UInt64?
        for bound in bounds where bound != previous {
            previous = bound
            while next < spans.count, spans[next].first <= bound {
                open.push(index: spans[next].index, last: spans[next].last)
                next += 1
            }
            let owner = open.latest(containing: bound)
            if owners.last != owner {
                starts.append(bound)
                owners.append(owner)
            }
        }
    }

    /// The number of ranges (at most twice the images plus one).
    public var rangeCount: Int { starts.count }

    /// The index of the image holding `address`, if any (the last-declared of those that do).
    public func index(containing address: UInt64) -> Int? {
        lookup(address).index
    }

    /// ``index(containing:)`` and the ranges it compared `address` with, for tests that bound
    /// the work: at most `log2(rangeCount) + 1`.
    func lookup(_ address: UInt64) -> (index: Int?, probes: Int) {
        // The last range starting at or before `address`.
        var low = 0
        var high = starts.count
        var probes = 0
        while low < high {
            let middle = (low + high) / 2
            probes += 1
            if starts[middle] <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return (nil, probes) }
        let owner = owners[low - 1]
        return (owner < 0 ? nil : Int(owner), probes)
    }
}

/// The images open at a bound of the sweep, as a heap by declaration order (the latest on top);
/// an image found closed on top is dropped then, so each is pushed and popped once.
private struct OpenImages {
    private var heap: [(index: Int32, last: UInt64)] = []

    mutating func push(index: Int32, last: UInt64) {
        heap.append((index, last))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[parent].index < heap[child].index else { break }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    /// The latest-declared open image that contains `address` (-1: none), dropping those on
    /// top that end before it.
    mutating func latest(containing address: UInt64) -> Int32 {
        while let top = heap.first, top.last < address { pop() }
        return heap.first?.index ?? -1
    }

    private mutating func pop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = parent * 2 + 1
            let right = left + 1
            var largest = parent
            if left < heap.count, heap[left].index > heap[largest].index { largest = left }
            if right < heap.count, heap[right].index > heap[largest].index { largest = right }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
