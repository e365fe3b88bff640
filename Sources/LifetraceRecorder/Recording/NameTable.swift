import Atomics
import Foundation
import LifetraceFormat

/// The names a process has interned in its region.
///
/// Interning a `String` takes a lock (a name is written to the region once). Names given as
/// `StaticString` are found by the address of their bytes in a lock-free open-addressing table,
/// so a call site that records `recorder.mark("Tapped")` pays a hash and a load, nothing more,
/// after its first call.
final class NameTable: @unchecked Sendable {
    private let region: RecorderRegion
    private let lock = NSLock()
    // Keyed by UTF-8 bytes: canonically equivalent names are distinct names.
    private var interned: [NameBytes: UInt32] = [:]
    /// Words of `address << 16 | id`; 0 is an empty entry.
    private let words: UnsafeMutablePointer<UInt64.AtomicRepresentation>
    private static let bits = 12
    private static let capacity = 1 << bits

    init(region: RecorderRegion) {
        self.region = region
        words = .allocate(capacity: NameTable.capacity)
        words.initialize(repeating: UInt64.AtomicRepresentation(0), count: NameTable.capacity)
    }

    deinit {
        words.deinitialize(count: NameTable.capacity)
        words.deallocate()
    }

    /// The id of `name`, writing it to the region the first time. 0 if the region is full.
    func intern(_ name: String) -> UInt32 {
        lock.withLock {
            if let id = interned[NameBytes(name)] { return id }
            let id = region.writeSymbol(name)
            if id != 0 { interned[NameBytes(name)] = id }
            return id
        }
    }

    /// The id of a static name, by the address of its bytes.
    @inline(__always)
    func id(for name: StaticString) -> UInt32 {
        guard name.hasPointerRepresentation else { return intern(name.description) }
        let address = UInt64(UInt(bitPattern: name.utf8Start))
        var index = NameTable.slot(for: address)
        for _ in 0..<NameTable.capacity {
            let word = UnsafeAtomic<UInt64>(at: words + index).load(ordering: .acquiring)
            if word == 0 { break }
            if word >> 16 == address { return UInt32(truncatingIfNeeded: word & 0xFFFF) }
            index = (index + 1) & (NameTable.capacity - 1)
        }
        return insert(name, address: address)
    }

    @inline(__always)
    private static func slot(for address: UInt64) -> Int {
        Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The slow path of ``id(for:)``: interns under the lock, then publishes the address.
    private func insert(_ name: StaticString, address: UInt64) -> UInt32 {
        lock.withLock {
            let string = name.description
            var id = interned[NameBytes(string)] ?? 0
            if id == 0 {
                id = region.writeSymbol(string)
                if id == 0 { return 0 }
                interned[NameBytes(string)] = id
            }
            // Addresses above 48 bits or a full table: answer without caching.
            guard address >> 48 == 0 else { return id }
            var index = NameTable.slot(for: address)
            for _ in 0..<NameTable.capacity {
                let atomic = UnsafeAtomic<UInt64>(at: words + index)
                let word = atomic.load(ordering: .acquiring)
                if word >> 16 == address { return id }
                if word == 0 {
                    atomic.store(address << 16 | UInt64(id), ordering: .releasing)
                    return id
                }
                index = (index + 1) & (NameTable.capacity - 1)
            }
            return id
        }
    }
}
