/// The sizes of a recorder's shared-memory region and where each part of it lies.
///
/// The region is the only channel between a recording process and whoever drains its events
/// (its own writer thread, or the `lifetrace record` supervisor that keeps the region mapped
/// after the process died). Its byte layout is described in `docs/RECORDING.md`:
///
/// | part | size |
/// | --- | --- |
/// | header | 4096 bytes |
/// | ring headers | `ringCount` x 128 bytes |
/// | event slots | `ringCount` x `ringCapacity` x 32 bytes |
/// | symbol slots | `symbolCapacity` x 128 bytes |
public struct RegionLayout: Sendable, Hashable {
    /// The number of per-thread rings: at most this many threads record at once.
    public var ringCount: Int
    /// The number of event slots in each ring, a power of two.
    public var ringCapacity: Int
    /// The number of distinct names the region can hold.
    public var symbolCapacity: Int

    /// A layout; `ringCapacity` is rounded up to a power of two. The default (16 rings of 64 Ki
    /// slots) maps 32.5 MiB, of which a thread touches the 2 MiB of its own ring.
    public init(ringCount: Int = 16, ringCapacity: Int = 65_536, symbolCapacity: Int = 4096) {
        precondition(ringCount > 0 && ringCount <= RegionLayout.maxRingCount, "ringCount out of range")
        precondition(ringCapacity > 0 && ringCapacity <= RegionLayout.maxRingCapacity, "ringCapacity out of range")
        precondition(symbolCapacity > 0 && symbolCapacity < RegionLayout.symbolCapacityBound, "symbolCapacity out of range")
        self.ringCount = ringCount
        var capacity = 1
        while capacity < ringCapacity { capacity <<= 1 }
        self.ringCapacity = capacity
        self.symbolCapacity = symbolCapacity
    }

    /// The most rings a layout has.
    public static let maxRingCount = 4096
    /// The most slots a ring has.
    public static let maxRingCapacity = 1 << 24
    /// One more than the most symbols a layout has.
    public static let symbolCapacityBound = 1 << 16

    /// Why a region's header does not describe a layout this library maps.
    public enum HeaderProblem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The magic number or the version is not this library's.
        case notARegion
        /// A size field is outside its limits: the field's name, its value and the limit.
        case outOfRange(field: String, value: UInt32, limit: String)
        /// The layout needs more bytes than the file holds.
        case largerThanFile(needed: Int, fileSize: Int)

        /// One clause saying what is wrong.
        public var description: String {
            switch self {
            case .notARegion: "no region magic number or an unknown version"
            case .outOfRange(let field, let value, let limit): "\(field) \(value) is outside \(limit)"
            case .largerThanFile(let needed, let fileSize):
                "the header's layout needs \(needed) bytes and the file holds \(fileSize)"
            }
        }
    }

    /// The layout a region's header (at `header`, the first ``headerSize`` bytes of the mapping)
    /// describes, checked field by field against the limits of ``init(ringCount:ringCapacity:symbolCapacity:)``
    /// and as a whole against `fileSize`, so that a header written by another process can never
    /// make a layout trap or lie past the file's end.
    init(header: UnsafeRawPointer, fileSize: Int) throws(HeaderProblem) {
        guard header.loadUnaligned(fromByteOffset: RegionField.magic, as: UInt64.self) == RegionField.magicValue,
            header.loadUnaligned(fromByteOffset: RegionField.version, as: UInt32.self) == RegionField.versionValue
        else { throw .notARegion }
        let rings = header.loadUnaligned(fromByteOffset: RegionField.ringCount, as: UInt32.self)
        let capacity = header.loadUnaligned(fromByteOffset: RegionField.ringCapacity, as: UInt32.self)
        let symbols = header.loadUnaligned(fromByteOffset: RegionField.symbolCapacity, as: UInt32.self)
        guard rings > 0, rings <= RegionLayout.maxRingCount else {
            throw .outOfRange(field: "ringCount", value: rings, limit: "1...\(RegionLayout.maxRingCount)")
        }
        guard capacity > 0, capacity <= RegionLayout.maxRingCapacity, capacity & (capacity - 1) == 0 else {
            throw .outOfRange(field: "ringCapacity", value: capacity, limit: "the powers of two up to 2^24")
        }
        guard symbols > 0, symbols < RegionLayout.symbolCapacityBound else {
            throw .outOfRange(field: "symbolCapacity", value: symbols, limit: "1...\(RegionLayout.symbolCapacityBound - 1)")
        }
        // Within these limits the size is at most about 2^41 bytes: no overflow on 64 bits.
        self.init(ringCount: Int(rings), ringCapacity: Int(capacity), symbolCapacity: Int(symbols))
        guard byteCount <= fileSize else { throw .largerThanFile(needed: byteCount, fileSize: fileSize) }
    }

    /// Bytes of the region header.
    static let headerSize = 4096
    /// Bytes of one ring header: the producer's line, then the consumer's line.
    static let ringHeaderSize = 128
    /// Bytes of one event slot.
    static let slotSize = 32
    /// Bytes of one symbol slot: an 8-byte committed length, then the UTF-8 bytes.
    static let symbolSlotSize = 128
    /// The longest name, in UTF-8 bytes; longer names are cut at a character boundary.
    public static let maxNameBytes = symbolSlotSize - 8

    var ringHeadersOffset: Int { RegionLayout.headerSize }
    var slotsOffset: Int { ringHeadersOffset + ringCount * RegionLayout.ringHeaderSize }
    var symbolsOffset: Int { slotsOffset + ringCount * ringCapacity * RegionLayout.slotSize }

    /// The size of the region in bytes, rounded up to whole pages.
    public var byteCount: Int {
        let raw = symbolsOffset + symbolCapacity * RegionLayout.symbolSlotSize
        return (raw + 4095) & ~4095
    }

    func ringHeaderOffset(_ ring: Int) -> Int { ringHeadersOffset + ring * RegionLayout.ringHeaderSize }
    func slotsOffset(ring: Int) -> Int { slotsOffset + ring * ringCapacity * RegionLayout.slotSize }
    func symbolOffset(_ id: Int) -> Int { symbolsOffset + (id - 1) * RegionLayout.symbolSlotSize }
}

/// Byte offsets of the fields in the region header and in each ring header.
enum RegionField {
    // Region header.
    static let magic = 0
    static let version = 8
    static let ringCount = 12
    static let ringCapacity = 16
    static let symbolCapacity = 20
    static let nextThreadNumber = 24
    static let nextSymbol = 32
    static let droppedWithoutRing = 40
    static let producerPID = 48
    /// How the process ended, written by the recorder's exit and crash handlers: 0 not yet,
    /// 1 an exit code, 2 a signal (``RegionExitFact``); stored after the two fields below.
    static let exitKind = 56
    static let exitValue = 64
    static let exitTimestamp = 72
    /// Non-zero once the writer has sealed the trace (a crash handler waits for it).
    static let sealed = 80
    /// The process's start time on the monotonic clock, as the kernel reports it.
    static let launchTimestamp = 88
    /// The trace file's length after the last flush whose events were handed back (a standalone
    /// recorder's writer): anything past it is still in the rings, and recovery cuts it off.
    static let committedLength = 96
    /// The count of events dropped without a ring, as of that flush.
    static let committedWithoutRing = 104
    /// The identity of the trace the region was made for, 16 bytes (``RecorderRegion/traceIdentity``);
    /// zero in a region made before identities were written.
    static let traceIdentity = 112

    // Ring header: the producer's cache line.
    static let ringHead = 0
    static let ringState = 8
    static let ringThread = 16
    static let ringDropped = 24
    // Ring header: the consumer's cache line.
    static let ringTail = 64
    /// The ring's drop count as of the last commit (its `dropped` events are in the trace file).
    static let ringCommittedDropped = 72

    // Event slot.
    static let slotTimestamp = 0
    static let slotValue = 8
    static let slotName = 16
    static let slotScene = 20
    static let slotType = 24
    static let slotFlags = 25

    /// "LTRCRGN1" read as a little-endian integer.
    static let magicValue: UInt64 = 0x314E_4752_4352_544C
    static let versionValue: UInt32 = 1
}

/// The life of a ring, in its header's state word.
enum RingState: UInt64 {
    /// No thread owns the ring.
    case free = 0
    /// A live thread records into the ring.
    case owned = 1
    /// The owning thread exited; the ring is free again once drained.
    case retired = 2
}
