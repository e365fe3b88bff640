import Atomics

extension RecorderRegion {
    /// The identity of the trace this region was made for, written into both at their creation
    /// (the region's header, the trace's `traceIdentity` metadata field): 128 random bits, as 32
    /// lowercase hexadecimal digits; nil for a region made before identities were written (zero
    /// there, as a new region's header is). Recovery writes nothing unless the file beside the
    /// region carries the same identity (docs/FORMAT.md, "Recorder region").
    public var traceIdentity: String? {
        let high = atomic(at: RegionField.traceIdentity).load(ordering: .acquiring)
        let low = atomic(at: RegionField.traceIdentity + 8).load(ordering: .acquiring)
        guard high != 0 || low != 0 else { return nil }
        return Self.hex(high) + Self.hex(low)
    }

    /// Writes a new random identity into the header and returns it.
    func makeTraceIdentity() -> String {
        var random = SystemRandomNumberGenerator()
        var high: UInt64 = 0
        var low: UInt64 = 0
        // Zero is the mark of a region without an identity: never drawn.
        while high == 0 && low == 0 { (high, low) = (random.next(), random.next()) }
        atomic(at: RegionField.traceIdentity + 8).store(low, ordering: .relaxed)
        atomic(at: RegionField.traceIdentity).store(high, ordering: .releasing)
        return Self.hex(high) + Self.hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The metadata key of the identity in the trace.
    public static let traceIdentityKey = "traceIdentity"
}
