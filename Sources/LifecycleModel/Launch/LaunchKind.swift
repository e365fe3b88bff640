/// How a process lifetime started.
public enum LaunchKind: String, Sendable, CaseIterable, Hashable {
    /// A foreground launch of a process that was not running.
    case cold
    /// A foreground launch that the system had prepared ahead of time (`prewarm: true`).
    case prewarmed
    /// A launch straight into Background (`background: true`).
    case background
    /// No `launch` event: the trace starts in the middle of a lifetime.
    case unknown

    /// The kind of a launch with these `launch` event fields.
    public init(background: Bool, prewarm: Bool) {
        if background {
            self = .background
        } else {
            self = prewarm ? .prewarmed : .cold
        }
    }
}
