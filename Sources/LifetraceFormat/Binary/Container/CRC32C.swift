import CCRC32C

/// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), as used by iSCSI and ext4.
///
/// With the processor's CRC-32C instruction where there is one (SSE 4.2 on x86-64, the ARMv8 CRC
/// extension), else table-driven, eight bytes per step ("slicing by 8"), so that checking a chunk
/// costs little next to decompressing it. `CRC32C.checksum("123456789".utf8)` is 0xE3069283.
struct CRC32C {
    /// Whether ``update(_:)`` uses the processor's instruction.
    static let usesHardware = lifetrace_crc32c_hardware_available() != 0

    /// The running value, already inverted: start from ``init()``, finish with ``value``.
    private var state: UInt32 = 0xFFFF_FFFF

    /// Starts a checksum.
    init() {}

    /// The checksum of everything added so far.
    var value: UInt32 { ~state }

    /// Adds `bytes`.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        if CRC32C.usesHardware {
            state = lifetrace_crc32c_hardware_update(state, base, bytes.count)
        } else {
            updateWithTables(bytes)
        }
    }

    /// Adds `bytes` with the tables, whatever the processor has (the tests compare both ways).
    mutating func updateWithTables(_ bytes: UnsafeRawBufferPointer) {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        var crc = state
        CRC32C.tables.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                let low = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: pointer.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
                crc = table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                pointer += 8
                remaining -= 8
            }
            while remaining > 0 {
                crc = table[Int((crc ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
                pointer += 1
                remaining -= 1
            }
        }
        state = crc
    }

    /// Adds `bytes`.
    mutating func update<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        let array = Array(bytes)
        array.withUnsafeBytes { update($0) }
    }

    /// The checksum of `bytes`.
    static func checksum<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// Eight tables of 256 entries: table k maps a byte to its CRC after k further zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            tables[byte] = crc
        }
        for byte in 0..<256 {
            var crc = tables[byte]
            for slice in 1..<8 {
                crc = tables[Int(crc & 0xFF)] ^ (crc >> 8)
                tables[slice * 256 + byte] = crc
            }
        }
        return tables
    }()
}
