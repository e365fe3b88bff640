/// The thread an event happened on: the main thread, or a numbered thread.
///
/// The raw value is the binary encoding: 0 for the main thread, `n + 1` for thread `n`.
public struct ThreadID: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 0 for the main thread, `n + 1` for thread number `n`.
    public var rawValue: UInt64

    /// Creates a thread from its binary encoding.
    @inlinable
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The main thread, which runs the main run loop and every lifecycle callback.
    public static let main = ThreadID(rawValue: 0)

    /// The largest thread number the format can hold.
    public static let maxNumber: UInt64 = UInt64.max - 1

    /// A numbered thread, `number` at most ``maxNumber``.
    @inlinable
    public static func numbered(_ number: UInt64) -> ThreadID {
        precondition(number <= maxNumber, "thread number out of range")
        return ThreadID(rawValue: number &+ 1)
    }

    /// Whether this is the main thread.
    @inlinable
    public var isMain: Bool { rawValue == 0 }

    /// The thread's number, or nil for the main thread.
    @inlinable
    public var number: UInt64? { rawValue == 0 ? nil : rawValue &- 1 }

    public static func < (lhs: ThreadID, rhs: ThreadID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `main`, or the thread's number.
    public var description: String { number.map(String.init) ?? "main" }
}
