/// Finds which of a set of byte strings (keys) occur in a text, in one pass over the text: an
/// Aho-Corasick automaton.
///
/// The rule engine keys each glob by a literal piece every name it matches must hold, so a name
/// is tried only against the globs whose piece it holds (``NameIndex``). A pass costs time linear
/// in the text (times at most 256 for the steps between a state's children) plus the keys found,
/// each reported once: the dictionary links are followed only up to a key already found, whose
/// own suffixes were found with it. Memory: about 17 bytes per byte of the keys, in seven flat
/// arrays.
struct PieceFinder {
    /// Per state: its first child and next sibling in the trie (-1: none), and the byte that
    /// leads to it.
    private var firstChild: [Int32] = [-1]
    private var nextSibling: [Int32] = [-1]
    private var label: [UInt8] = [0]
    /// Per state: the state of its longest proper suffix in the trie.
    private var failure: [Int32] = [0]
    /// Per state: the key that ends there (-1: none), and the nearest state along the failure
    /// links (itself left out) where a key ends (-1: none).
    private var key: [Int32] = [-1]
    private var dictionary: [Int32] = [-1]
    /// Per key: whether the current pass found it; and the keys found, to clear them after.
    private var found: [Bool] = []
    private var foundKeys: [Int32] = []
    /// Whether keys were added since the failure links were worked out.
    private var stale = false

    /// The number of keys.
    var count: Int { found.count }

    /// The id of `bytes` as a key (the same id for the same bytes), added when new.
    mutating func insert(_ bytes: [UInt8]) -> Int32 {
        var state: Int32 = 0
        for byte in bytes {
            if let next = child(of: state, byte) {
                state = next
                continue
            }
            let next = Int32(label.count)
            firstChild.append(-1)
            nextSibling.append(firstChild[Int(state)])
            firstChild[Int(state)] = next
            label.append(byte)
            failure.append(0)
            key.append(-1)
            dictionary.append(-1)
            state = next
        }
        if key[Int(state)] < 0 {
            key[Int(state)] = Int32(found.count)
            found.append(false)
            stale = true
        }
        return key[Int(state)]
    }

    @inline(__always)
    private func child(of state: Int32, _ byte: UInt8) -> Int32? {
        var next = firstChild[Int(state)]
        while next >= 0 {
            if label[Int(next)] == byte { return next }
            next = nextSibling[Int(next)]
        }
        return nil
    }

    /// Works out the failure and dictionary links, breadth first.
    private mutating func link() {
        var queue: [Int32] = []
        var next = firstChild[0]
        while next >= 0 {
            failure[Int(next)] = 0
            dictionary[Int(next)] = -1
            queue.append(next)
            next = nextSibling[Int(next)]
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            var child = firstChild[Int(state)]
            while child >= 0 {
                var fallback = failure[Int(state)]
                let byte = label[Int(child)]
                while fallback != 0 && self.child(of: fallback, byte) == nil { fallback = failure[Int(fallback)] }
                let target = self.child(of: fallback, byte) ?? 0
                failure[Int(child)] = target == child ? 0 : target
                let suffix = failure[Int(child)]
                dictionary[Int(child)] = key[Int(suffix)] >= 0 ? suffix : dictionary[Int(suffix)]
                queue.append(child)
                child = nextSibling[Int(child)]
            }
        }
        stale = false
    }

    /// Calls `body` once with each key that occurs in `text`.
    mutating func forEachKey(in text: UnsafeBufferPointer<UInt8>, _ body: (Int32) -> Void) {
        if found.isEmpty { return }
        if stale { link() }
        var state: Int32 = 0
        for byte in text {
            while true {
                if let next = child(of: state, byte) {
                    state = next
                    break
                }
                if state == 0 { break }
                state = failure[Int(state)]
            }
            var reported = key[Int(state)] >= 0 ? state : dictionary[Int(state)]
            while reported >= 0 {
                let id = key[Int(reported)]
                if found[Int(id)] { break }
                found[Int(id)] = true
                foundKeys.append(id)
                body(id)
                reported = dictionary[Int(reported)]
            }
        }
        for id in foundKeys { found[Int(id)] = false }
        foundKeys.removeAll(keepingCapacity: true)
    }
}
