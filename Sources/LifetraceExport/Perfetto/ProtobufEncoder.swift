import LifetraceFormat

/// Protocol Buffers wire encoding, for the few messages the Perfetto export writes.
///
/// Hand-written rather than generated: swift-protobuf's code generator takes minutes to build on
/// this project's machines and the export needs only four wire operations (varint fields,
/// length-delimited strings and embedded messages). The encoding follows
/// https://protobuf.dev/programming-guides/encoding/ and is checked against the official
/// Perfetto protos in the tests (`PerfettoExportTests`).
///
/// An encoder is a growable byte buffer meant to be reused: ``reset()`` keeps its capacity, so
/// encoding a packet per trace event allocates nothing once the buffers have grown.
public struct ProtobufEncoder: Sendable {
    /// The protobuf wire types the export uses.
    public enum WireType: UInt8, Sendable {
        /// int32, int64, uint32, uint64, bool, enum.
        case varint = 0
        /// string, bytes, embedded messages.
        case lengthDelimited = 2
    }

    /// The encoded bytes.
    public private(set) var bytes: [UInt8] = []

    /// An empty encoder with room for `capacity` bytes.
    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// The number of bytes encoded so far.
    @inlinable
    public var count: Int { bytes.count }

    /// Forgets the bytes, keeping the storage.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// Appends `value` as a base-128 varint (7 bits per byte, least significant group first),
    /// with the trace format's varint writer: protobuf's varints are the same LEB128.
    public mutating func appendVarint(_ value: UInt64) {
        Varint.append(value, to: &bytes)
    }

    /// Appends a field's tag: `(field << 3) | wireType`.
    public mutating func appendTag(_ field: UInt32, _ wireType: WireType) {
        appendVarint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// A `uint32`/`uint64`/`enum` field.
    public mutating func appendUInt(_ field: UInt32, _ value: UInt64) {
        appendTag(field, .varint)
        appendVarint(value)
    }

    /// An `int32`/`int64` field: two's complement, so a negative value takes ten bytes (the
    /// protobuf rule for `int32` too, which is sign-extended to 64 bits).
    public mutating func appendInt(_ field: UInt32, _ value: Int64) {
        appendTag(field, .varint)
        appendVarint(UInt64(bitPattern: value))
    }

    /// A `bool` field.
    public mutating func appendBool(_ field: UInt32, _ value: Bool) {
        appendTag(field, .varint)
        bytes.append(value ? 1 : 0)
    }

    /// A `string` field (UTF-8).
    public mutating func appendString(_ field: UInt32, _ value: String) {
        var value = value
        value.withUTF8 { appendBytes(field, $0) }
    }

    /// A `bytes` field, or a `string` field given as UTF-8.
    public mutating func appendBytes(_ field: UInt32, _ value: UnsafeBufferPointer<UInt8>) {
        appendTag(field, .lengthDelimited)
        appendVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A `bytes` field, or a `string` field given as UTF-8.
    public mutating func appendBytes(_ field: UInt32, _ value: [UInt8]) {
        value.withUnsafeBufferPointer { appendBytes(field, $0) }
    }

    /// An embedded message field whose encoding is `message`'s bytes.
    public mutating func appendMessage(_ field: UInt32, _ message: ProtobufEncoder) {
        appendBytes(field, message.bytes)
    }

    /// The number of bytes the varint encoding of `value` takes.
    public static func varintSize(_ value: UInt64) -> Int { Varint.length(value) }
}
