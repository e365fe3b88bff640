import Foundation

/// What the app was launched for.
public struct LaunchOptions: Sendable, Hashable {
    /// Why the app was launched (`user`, `location`, `url`, `fetch`, ...).
    public var reason: String
    /// Whether the app was launched straight into the background.
    public var background: Bool
    /// The URL the app was launched to open, if any.
    public var url: URL?

    /// Options for a launch.
    public init(reason: String = "user", background: Bool = false, url: URL? = nil) {
        self.reason = reason
        self.background = background
        self.url = url
    }
}
