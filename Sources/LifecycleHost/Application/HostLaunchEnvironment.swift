import Foundation
import LifetraceRecorder

/// What the system tells the host about a launch through the environment: the launch options of
/// a run without a supervisor (``launchKey``) and the app's declared background modes
/// (``backgroundModesKey``), which stand in on Linux for what iOS says at process start (the task
/// role, the Info.plist's `UIBackgroundModes`).
public struct HostLaunchEnvironment: Sendable, Hashable {
    /// `foreground` or `background`, optionally followed by a one-word reason:
    /// `background remote-notification`. Read by a run without a supervisor; default `foreground`.
    public static let launchKey = "LIFETRACE_LAUNCH"
    /// The declared background modes, comma-separated (`audio,location,processing`); empty for
    /// none. Unset: unknown.
    public static let backgroundModesKey = "LIFETRACE_BACKGROUND_MODES"

    /// How a run without a supervisor launches the app.
    public var launch: LaunchOptions
    /// The declared background modes; nil when not given.
    public var backgroundModes: [String]?

    /// Reads `environment`; throws a one-line message naming the variable when a value is wrong.
    public init(environment: [String: String]) throws(HostLaunchEnvironmentError) {
        launch = LaunchOptions()
        if let text = environment[Self.launchKey], !text.isEmpty {
            let words = text.split(separator: " ").map(String.init)
            guard (1...2).contains(words.count), words[0] == "foreground" || words[0] == "background" else {
                throw HostLaunchEnvironmentError(
                    message: "\(Self.launchKey): expected `foreground` or `background`, "
                        + "then optionally a one-word reason, not `\(text)`")
            }
            let background = words[0] == "background"
            launch = LaunchOptions(reason: words.count > 1 ? words[1] : (background ? "fetch" : "user"), background: background)
        }
        backgroundModes = environment[Self.backgroundModesKey].map { BackgroundModes.parse(metadataValue: $0) }
    }

    /// The launch facts the host's recorder writes: the launch as the host will play it, the
    /// declared modes, and `ActivePrewarm` from the environment.
    public func launchFacts(environment: [String: String], supervised: Bool) -> LaunchFacts {
        LaunchFacts(
            prewarm: LaunchFacts.isPrewarmed(environment: environment),
            background: supervised ? nil : launch.background, backgroundModes: backgroundModes)
    }
}

/// A wrong launch variable in the host's environment.
public struct HostLaunchEnvironmentError: Error, CustomStringConvertible, Sendable {
    /// One line naming the variable and what is wrong.
    public var message: String
    public var description: String { message }
}
