/// What identifies a build in the history: its id, and the commit, branch, version, device and
/// OS it was built and run with (docs/HISTORY.md, "Builds"). Each field is taken from the
/// command's options first, then the CI's environment, then the traces' metadata.
public struct BuildRecord: Sendable, Hashable, Codable {
    /// The build's id, unique in the store (`--build`, the CI's run number, or the commit).
    public var buildID: String
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
    public var date: String

    /// A build record from its fields.
    public init(
        buildID: String, commit: String? = nil, branch: String? = nil, appVersion: String? = nil, buildNumber: String? = nil,
        device: String? = nil, os: String? = nil, date: String
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

    /// The build as people name it: its id, with its version and commit when known.
    public var label: String {
        var parts = ["build \(buildID)"]
        if let appVersion { parts.append("version \(appVersion)" + (buildNumber.map { " (\($0))" } ?? "")) }
        if let commit { parts.append("commit \(commit.prefix(12))") }
        return parts.joined(separator: ", ")
    }
}
