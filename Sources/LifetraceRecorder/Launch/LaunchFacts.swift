import Foundation

/// What only the device knows about a launch, read once when the recorder starts: whether the
/// system prewarmed the process, whether it launched it straight into the background, and which
/// background modes the app declares. A standalone recorder writes them into its trace (the
/// `launch` event's `prewarm` and `background`, the metadata key ``backgroundModesKey``).
///
/// The decisions are here, platform-neutral and tested on Linux; the platform calls that feed
/// them are thin (``TaskRole/current()``, ``BackgroundModes/declared()``), see docs/RECORDING.md,
/// "The facts only the device knows".
public struct LaunchFacts: Sendable, Hashable {
    /// The metadata key of the declared background modes (comma-separated, in declared order).
    public static let backgroundModesKey = "backgroundModes"
    /// The metadata key of the moment recording started (decimal nanoseconds on the trace's clock).
    public static let recordingStartKey = "recordingStart"
    /// The environment variable Apple platforms set to `1` in a prewarmed process.
    public static let prewarmEnvironmentKey = "ActivePrewarm"

    /// The system started the process ahead of the user's launch (`ActivePrewarm=1`).
    public var prewarm: Bool
    /// The process was launched straight into the background; nil when the platform does not say
    /// (the launch is then written as a foreground launch, and the analyzer infers it).
    public var background: Bool?
    /// The app's declared `UIBackgroundModes`, in declared order; nil when unknown.
    public var backgroundModes: [String]?

    /// Facts as given (the Linux app host passes its launch options this way).
    public init(prewarm: Bool = false, background: Bool? = nil, backgroundModes: [String]? = nil) {
        self.prewarm = prewarm
        self.background = background
        self.backgroundModes = backgroundModes
    }

    /// The facts of the calling process, as its platform reports them: `ActivePrewarm` from the
    /// environment (every platform), the task role at process start and `UIBackgroundModes` from
    /// the main bundle's Info.plist (Apple platforms; unknown elsewhere).
    public static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> LaunchFacts {
        let prewarm = isPrewarmed(environment: environment)
        let role = TaskRole.current()
        return LaunchFacts(
            prewarm: prewarm,
            background: role.flatMap { TaskRole.isBackgroundLaunch(role: $0.role, defaulted: $0.defaulted, prewarmed: prewarm) },
            backgroundModes: BackgroundModes.declared())
    }

    /// Whether `environment` marks a prewarmed process: Apple sets `ActivePrewarm` to `1` (the
    /// variable sentry-cocoa and dd-sdk-ios read at process start).
    public static func isPrewarmed(environment: [String: String]) -> Bool {
        environment[prewarmEnvironmentKey] == "1"
    }

    /// Whether the `launch` event says `background: true`: only when the platform said so.
    public var launchesInBackground: Bool { background == true }

    /// The metadata fields these facts add to a trace whose recording started at `recordingStart`
    /// (ns, the trace's clock): `recordingStart` always, `backgroundModes` when known.
    public func metadataFields(recordingStart: Int64) -> [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = [(LaunchFacts.recordingStartKey, String(recordingStart))]
        if let backgroundModes {
            fields.append((LaunchFacts.backgroundModesKey, BackgroundModes.metadataValue(backgroundModes)))
        }
        return fields
    }
}
