/// What identifies a build in the history: its id, and the commit, branch, version, device and
/// OS it was built and run with (docs/HISTORY.md, "Builds"). Each field is taken from the
/// command's options first, then the CI's environment, then the traces' metadata.
public typealias BuildRecord = BuildFields<String>

/// A build's fields, listed once: as stored (``BuildRecord``, whose id and date are always
/// known) and as a command gives them (``BuildRecord/Fields``, each optional).
public struct BuildFields<Required: Sendable & Hashable>: Sendable, Hashable {
    /// The build's id, unique in the store (`--build`, the CI's run number, or the commit).
    public var buildID: Required
    /// The commit it was built from.
    public var commit: String?
    /// The branch.
    public var branch: String?
    /// The app's version (`appVersion` in the traces' metadata).
    public var appVersion: String?
    /// The app's build number.
    public var buildNumber: String?
    /// The device the runs were recorded on.
    public var device: String?
    /// The OS version.
    public var os: String?
    /// When it was added or built (ISO 8601).
    public var date: Required

    /// A build's fields from their values.
    public init(
        buildID: Required, commit: String? = nil, branch: String? = nil, appVersion: String? = nil, buildNumber: String? = nil,
        device: String? = nil, os: String? = nil, date: Required
    ) {
        self.buildID = buildID
        self.commit = commit
        self.branch = branch
        self.appVersion = appVersion
        self.buildNumber = buildNumber
        self.device = device
        self.os = os
        self.date = date
    }
}

extension BuildFields: Codable where Required: Codable {}

extension BuildRecord {
    /// A build's fields as a command gives them, each optional (nil: not given).
    public typealias Fields = BuildFields<String?>

    /// The build as people name it: its id, with its version and commit when known.
    public var label: String {
        var parts = ["build \(buildID)"]
        if let appVersion { parts.append("version \(appVersion)" + (buildNumber.map { " (\($0))" } ?? "")) }
        if let commit { parts.append("commit \(commit.prefix(12))") }
        return parts.joined(separator: ", ")
    }
}
