import Testing
@testable import LifetraceFormat

/// CRC-32C and varint encodings against known values.
struct CRC32CTests {
    @Test func knownCheckValues() {
        #expect(CRC32C.checksum("123456789".utf8) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8]()) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    @Test func incrementalEqualsWhole() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var crc = CRC32C()
        crc.update(bytes[0..<333])
        crc.update(bytes[333...])
        #expect(crc.value == CRC32C.checksum(bytes))
    }

    @Test func processorInstructionAgreesWithTables() {
        // On x86-64 every processor this runs on has SSE 4.2; elsewhere the tables are used.
        #if arch(x86_64)
        #expect(CRC32C.usesHardware)
        #endif
        var random = SeededGenerator(seed: 32)
        let bytes = (0..<4099).map { _ in UInt8.random(in: 0...255, using: &random) }
        bytes.withUnsafeBytes { all in
            // Every length around the 8-byte steps, from every alignment.
            for start in 0..<9 {
                for count in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, all.count - start] {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + count)])
                    var either = CRC32C()
                    either.update(slice)
                    var tables = CRC32C()
                    tables.updateWithTables(slice)
                    #expect(either.value == tables.value, "start \(start), count \(count)")
                }
            }
        }
    }

    @Test(arguments: [0, 1, -1, 63, -64, 64, Int64.max, Int64.min, 1_000_000_007] as [Int64])
    func varintsRoundTrip(value: Int64) {
        var bytes: [UInt8] = []
        Varint.append(Varint.zigzag(value), to: &bytes)
        #expect(bytes.count == Varint.length(Varint.zigzag(value)))
        let decoded: UInt64? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = ByteCursor(position: buffer.baseAddress!, end: buffer.baseAddress! + buffer.count)
            return cursor.varint()
        }
        #expect(decoded.map(Varint.unzigzag) == value)
    }
}

/// Division by the chunk's timestamp unit without hardware division.
struct ExactDivisorTests {
    @Test(arguments: [1, 2, 3, 7, 10, 100, 1000, 1024, 3000, 999_999_937, UInt64.max] as [UInt64])
    func agreesWithDivision(divisor: UInt64) {
        let exact = ExactDivisor(divisor)
        var random = SeededGenerator(seed: divisor)
        for _ in 0..<2000 {
            let value = UInt64.random(in: 0...UInt64.max, using: &random)
            #expect(exact.divides(value) == (value % divisor == 0))
            let multiple = (value / divisor) &* divisor
            #expect(exact.divides(multiple))
            #expect(exact.quotient(multiple) == value / divisor)
        }
    }

    @Test func onlyZeroDividesNothingElse() {
        #expect(ExactDivisor.onlyZero.divides(0))
        for value in [1, 2, 1000, 1 << 63, UInt64.max] as [UInt64] { #expect(!ExactDivisor.onlyZero.divides(value)) }
    }
}
