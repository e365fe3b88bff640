import Foundation

/// The append-only strings behind one or more ``SymbolTable`` copies.
///
/// Strings live in chunks that never move: chunk `k` holds `firstChunk << k` entries, so 26
/// chunks cover every 32-bit symbol and the list of chunks is allocated once. A string, once
/// stored, stays at its place until the storage is freed, so a copy on another thread reads the
/// strings it sees without a lock while the newest copy appends; the hand-over of the copy
/// (through a lock or a queue) orders the two. Appending and the name index are behind a lock.
@usableFromInline
final class SymbolStorage: @unchecked Sendable {
    // Constants as inlinable computed properties: inlined into other modules, they fold away
    // (a `static let` there is a call to its lazy initialiser's accessor).
    @inlinable
    static var firstChunkShift: Int { 6 }
    @inlinable
    static var chunkSlots: Int { 32 - firstChunkShift + 1 }

    /// Per chunk, its strings and the callback code of each (0 = none, 1 = custom, 2... known).
    @usableFromInline
    let strings: UnsafeMutablePointer<UnsafeMutablePointer<String>?>
    @usableFromInline
    let codes: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>
    /// The number of strings stored (written under `lock`).
    private(set) var count = 0
    /// About how many bytes the strings and the index take (written under `lock`).
    private var stringBytes = 0
    private let lock = NSLock()
    // Open addressing by the UTF-8 bytes' hash: symbol numbers, 0 for an empty slot.
    private var slots: UnsafeMutablePointer<UInt32>
    private var slotMask: Int

    init() {
        strings = .allocate(capacity: Self.chunkSlots)
        strings.initialize(repeating: nil, count: Self.chunkSlots)
        codes = .allocate(capacity: Self.chunkSlots)
        codes.initialize(repeating: nil, count: Self.chunkSlots)
        slotMask = 15
        slots = .allocate(capacity: slotMask + 1)
        slots.initialize(repeating: 0, count: slotMask + 1)
        append("", code: 1)  // Symbol.none
    }

    deinit {
        var remaining = count
        for chunk in 0..<Self.chunkSlots {
            guard let block = strings[chunk] else { break }
            let size = Self.firstChunkSize << chunk
            block.deinitialize(count: min(remaining, size))
            block.deallocate()
            codes[chunk]!.deallocate()
            remaining -= min(remaining, size)
        }
        strings.deallocate()
        codes.deallocate()
        slots.deallocate()
    }

    @inlinable
    static var firstChunkSize: Int { 1 << firstChunkShift }

    /// The chunk and the place in it of entry `index`.
    @inlinable
    @inline(__always)
    static func place(_ index: Int) -> (chunk: Int, offset: Int) {
        let biased = UInt(index) &+ UInt(firstChunkSize)
        let chunk = (UInt.bitWidth &- 1 &- biased.leadingZeroBitCount) &- firstChunkShift
        return (chunk, Int(biased &- (UInt(firstChunkSize) &<< UInt(chunk))))
    }

    @inlinable
    func string(at index: Int) -> String {
        let (chunk, offset) = Self.place(index)
        return strings[chunk].unsafelyUnwrapped[offset]
    }

    @inlinable
    func code(at index: Int) -> UInt8 {
        let (chunk, offset) = Self.place(index)
        return codes[chunk].unsafelyUnwrapped[offset]
    }

    /// The symbol for `string` as a copy that sees `seen` entries finds it, appending it when that
    /// copy is the newest; nil when the copy would have to append but another appended since.
    func intern(_ string: String, seen: Int) -> Symbol? {
        lock.lock()
        defer { lock.unlock() }
        let (slot, found) = find(string)
        if let found, Int(found) < seen { return Symbol(rawValue: found) }
        guard count == seen, count < Int(UInt32.max) else {
            precondition(count != seen, "more than 2^32 - 1 distinct names")
            return nil
        }
        let symbol = UInt32(count)
        append(string, code: CallbackName(bytesOf: string).map { $0.symbolCode } ?? 1)
        if (count - 1) * 2 > slotMask {
            grow()
        } else {
            slots[slot] = symbol
        }
        return Symbol(rawValue: symbol)
    }

    /// About how many bytes the storage holds: per string its `String` and callback code, the
    /// UTF-8 bytes of one too long to be stored inline (more than 15), and the name index.
    var byteCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return stringBytes + (slotMask + 1) * MemoryLayout<UInt32>.stride
    }

    /// The symbol for `string` among the first `seen` entries.
    func lookup(_ string: String, seen: Int) -> Symbol? {
        lock.lock()
        defer { lock.unlock() }
        guard let found = find(string).found, Int(found) < seen else { return nil }
        return Symbol(rawValue: found)
    }

    /// A new storage holding this one's first `count` entries.
    func prefix(_ count: Int) -> SymbolStorage {
        let copy = SymbolStorage()
        for index in 1..<count {
            let string = self.string(at: index)
            _ = copy.intern(string, seen: index)
        }
        return copy
    }

    private func append(_ string: String, code: UInt8) {
        let (chunk, offset) = Self.place(count)
        if strings[chunk] == nil {
            let size = Self.firstChunkSize << chunk
            strings[chunk] = .allocate(capacity: size)
            codes[chunk] = .allocate(capacity: size)
        }
        let utf8 = string.utf8.count
        stringBytes += MemoryLayout<String>.stride + 1 + (utf8 > 15 ? utf8 : 0)
        (strings[chunk]! + offset).initialize(to: string)
        (codes[chunk]! + offset).initialize(to: code)
        count += 1
    }

    private static func hash(_ string: String) -> Int {
        var hasher = Hasher()
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }

    // The slot holding `string`'s symbol, or the empty slot where it would go.
    private func find(_ string: String) -> (slot: Int, found: UInt32?) {
        var slot = Self.hash(string) & slotMask
        let bytes = string.utf8
        while true {
            let symbol = slots[slot]
            if symbol == 0 { return (slot, nil) }
            let candidate = self.string(at: Int(symbol)).utf8
            if candidate.count == bytes.count, candidate.elementsEqual(bytes) { return (slot, symbol) }
            slot = (slot &+ 1) & slotMask
        }
    }

    private func insert(_ symbol: UInt32) {
        var slot = Self.hash(string(at: Int(symbol))) & slotMask
        while slots[slot] != 0 { slot = (slot &+ 1) & slotMask }
        slots[slot] = symbol
    }

    private func grow() {
        slots.deallocate()
        slotMask = slotMask * 2 + 1
        slots = .allocate(capacity: slotMask + 1)
        slots.initialize(repeating: 0, count: slotMask + 1)
        for symbol in 1..<UInt32(count) { insert(symbol) }
    }
}
