/// The record layout of format v1's event stream (see `docs/FORMAT.md`, "Records").
///
/// A record starts with a tag byte: bits 0-4 are the type code (0x00 is a string definition,
/// 0x01...0x0F the event types of ``EventType``, 0x10...0x1F reserved for future types),
/// bit 5 says a thread varint follows (absent: the main thread), bit 6 says the body is
/// length-delimited (a varint length, then the body), bit 7 says the timestamp delta is negative
/// (the varint holds its magnitude).
enum EventRecord {
    /// The type code of a string definition record.
    static let stringDefinition: UInt8 = 0x00
    /// The mask of the type code in the tag.
    static let typeMask: UInt8 = 0x1F
    /// The tag bit saying a thread varint follows.
    static let threadFlag: UInt8 = 0x20
    /// The tag bit saying the body is length-delimited.
    static let delimitedFlag: UInt8 = 0x40
    /// The tag bit saying the timestamp delta is negative.
    static let negativeDeltaFlag: UInt8 = 0x80
    /// The most bytes one v1 event record takes, string definitions excluded: tag, thread,
    /// timestamp delta and the widest payload (launch: flags, reason, pid).
    static let maxEventLength = 1 + 3 * Varint.maxLength + 1 + 5

    /// The type code of an `image` record: a loaded image (docs/FORMAT.md, "Stack samples").
    static let image: UInt8 = 0x10
    /// The type code of a `stack` record: a chunk-local stack definition.
    static let stack: UInt8 = 0x11
    /// The type code of a `sample` record: a thread's stack at an instant.
    static let sample: UInt8 = 0x12
    /// The type code of a `symbol` record: the function, file and line of an address.
    static let symbol: UInt8 = 0x14
    /// The longest build id an `image` record may hold, in bytes.
    static let maxBuildIDLength = 64
    /// The longest path an `image` record may hold, in bytes.
    static let maxImagePathLength = 4096

    /// `launch` flags byte: `background`.
    static let launchBackground: UInt8 = 0x01
    /// `launch` flags byte: `prewarm`.
    static let launchPrewarm: UInt8 = 0x02
    /// `launch` flags byte: a `pid` follows.
    static let launchPID: UInt8 = 0x04
    /// `exit` flags byte: a `code` follows.
    static let exitCode: UInt8 = 0x01
    /// `exit` flags byte: a `signal` follows.
    static let exitSignal: UInt8 = 0x02
}
