/// A name interned in a recorder's region: what events carry instead of strings.
///
/// Get one with ``Recorder/name(_:)`` once (a lock and a copy), then record with it as often as
/// needed (nothing but an integer store).
public struct RecordedName: RawRepresentable, Hashable, Sendable {
    /// The symbol's id in the region; 0 means no name.
    public var rawValue: UInt32

    /// A name from its id in the region.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// No name (an app-level callback has no scene).
    public static let none = RecordedName(rawValue: 0)
}
