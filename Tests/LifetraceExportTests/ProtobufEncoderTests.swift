import LifetraceAnalysis
import LifetraceExport
import Testing

/// The wire encoding against the examples of the protobuf encoding guide and hand-computed bytes.
@Suite("Protobuf wire encoding")
struct ProtobufEncoderTests {
    static func varint(_ value: UInt64) -> [UInt8] {
        var encoder = ProtobufEncoder()
        encoder.appendVarint(value)
        return encoder.bytes
    }

    @Test("Varints: 7 bits per byte, least significant group first")
    func varints() {
        #expect(Self.varint(0) == [0x00])
        #expect(Self.varint(1) == [0x01])
        #expect(Self.varint(127) == [0x7F])
        #expect(Self.varint(128) == [0x80, 0x01])
        #expect(Self.varint(150) == [0x96, 0x01])
        #expect(Self.varint(300) == [0xAC, 0x02])
        #expect(Self.varint(UInt64.max) == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
        for value: UInt64 in [0, 1, 127, 128, 16_383, 16_384, 1 << 35, UInt64.max] {
            #expect(ProtobufEncoder.varintSize(value) == Self.varint(value).count)
        }
    }

    @Test("Fields: tag is field << 3 | wire type; int64 negatives take ten bytes")
    func fields() {
        var encoder = ProtobufEncoder()
        encoder.appendUInt(1, 150)
        #expect(encoder.bytes == [0x08, 0x96, 0x01])
        encoder.reset()
        encoder.appendInt(4, -1)
        #expect(encoder.bytes == [0x20] + [UInt8](repeating: 0xFF, count: 9) + [0x01])
        encoder.reset()
        encoder.appendString(2, "testing")
        #expect(encoder.bytes == [0x12, 0x07, 0x74, 0x65, 0x73, 0x74, 0x69, 0x6E, 0x67])
        encoder.reset()
        encoder.appendBool(7, true)
        #expect(encoder.bytes == [0x38, 0x01])
        encoder.reset()
        encoder.appendUInt(60, 1)
        #expect(encoder.bytes == [0xE0, 0x03, 0x01], "field 60 needs a two-byte tag")
    }

    @Test("Embedded messages are length-delimited copies of their encoding")
    func embedded() {
        var inner = ProtobufEncoder()
        inner.appendUInt(1, 150)
        var outer = ProtobufEncoder()
        outer.appendMessage(3, inner)
        #expect(outer.bytes == [0x1A, 0x03, 0x08, 0x96, 0x01])
        var long = ProtobufEncoder()
        long.appendString(2, String(repeating: "x", count: 200))
        outer.reset()
        outer.appendMessage(11, long)
        #expect(Array(outer.bytes.prefix(3)) == [0x5A, 0xCB, 0x01], "203-byte body: two-byte length")
        #expect(outer.count == 3 + 203)
    }

    @Test("Non-ASCII strings are written as UTF-8 with their byte length")
    func utf8() {
        var encoder = ProtobufEncoder()
        encoder.appendString(1, "é👍")
        #expect(encoder.bytes == [0x0A, 0x06, 0xC3, 0xA9, 0xF0, 0x9F, 0x91, 0x8D])
    }
}
