import LifetraceFormat

/// An iOS version as the trace's `os` metadata names it (`iOS 12.1.4`): major, minor, patch.
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The major version (`12` of `12.1.4`).
    public var major: Int
    /// The minor version; 0 when not written.
    public var minor: Int
    /// The patch version; 0 when not written.
    public var patch: Int

    /// A version.
    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// The iOS version named by an `os` metadata value such as `iOS 17.5.1` or `iPadOS 16.0`; nil
    /// for any other platform or a value that is not a version (at most three parts of at most six
    /// digits each, so a hostile value is refused rather than overflowing).
    public init?(iOSMetadata value: String) {
        var text = Substring(value)
        var matched = false
        for prefix in ["iOS ", "iPadOS "] where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            matched = true
            break
        }
        guard matched else { return nil }
        // Build details after the version (`17.5.1 (21F90)`) are ignored.
        if let space = text.firstIndex(of: " ") { text = text[..<space] }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard (1...6).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        self.init(numbers[0], numbers.count > 1 ? numbers[1] : 0, numbers.count > 2 ? numbers[2] : 0)
    }

    /// `12.1.4`.
    public var description: String { "\(major).\(minor).\(patch)" }

    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}

/// What a trace's metadata says about the device and the recording, as the allowances read it
/// (the keys are specified in docs/JSONL.md and docs/RECORDING.md).
public struct PlatformFacts: Sendable, Hashable {
    /// The iOS version, from `os`; nil when the key is absent or names another platform.
    public var iOSVersion: OSVersion?
    /// The declared `UIBackgroundModes`, from `backgroundModes`; nil when unknown (key absent).
    public var backgroundModes: [String]?
    /// When the in-app recorder started recording (ns on the trace's clock), from
    /// `recordingStart`; nil when unknown (read as: the recording covered the whole process).
    public var recordingStart: Int64?

    /// Facts with nothing known.
    public init(iOSVersion: OSVersion? = nil, backgroundModes: [String]? = nil, recordingStart: Int64? = nil) {
        self.iOSVersion = iOSVersion
        self.backgroundModes = backgroundModes
        self.recordingStart = recordingStart
    }

    /// The facts in `metadata`. A value that cannot be read counts as absent: the textbook rule
    /// then stands, which is the safe side for a gate.
    public init(metadata: TraceMetadata) {
        iOSVersion = metadata["os"].flatMap { OSVersion(iOSMetadata: $0) }
        backgroundModes = metadata["backgroundModes"].map { value in
            value.split(separator: ",").map(String.init)
        }
        recordingStart = metadata["recordingStart"].flatMap { value in
            value.count <= 20 && value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) ? Int64(value) : nil
        }
    }

    /// The declared background modes that keep a running app running in Background for as long as
    /// the mode's work lasts, with no background task: audio, location, voip, external-accessory,
    /// bluetooth-central, bluetooth-peripheral. (`fetch`, `remote-notification` and `processing`
    /// wake or launch the app for a bounded time; their runs are `bgtask` events.)
    public var continuousBackgroundModes: [String] {
        (backgroundModes ?? []).filter { PlatformFacts.continuousModes.contains($0) }
    }

    /// The `UIBackgroundModes` values that let an app run on in Background.
    public static let continuousModes: Set<String> = [
        "audio", "location", "voip", "external-accessory", "bluetooth-central", "bluetooth-peripheral",
    ]
}
