import Foundation
import LifetraceFormat
import LifetraceOutput

/// Where a build's record comes from, first found first: the command's options, the CI's
/// environment variables (GitHub Actions, GitLab CI, Jenkins), then the traces' metadata
/// (docs/HISTORY.md, "Builds").
public struct BuildIdentity: Sendable {
    /// The fields the command was given (nil: not given).
    public var options: BuildRecord.Fields
    /// The process's environment.
    public var environment: [String: String]

    /// The identity from `options` and `environment`.
    public init(options: BuildRecord.Fields, environment: [String: String]) {
        self.options = options
        self.environment = environment
    }

    /// The CI variables read for the id, the commit and the branch, in order (GitHub Actions,
    /// GitLab CI, Jenkins).
    static let buildIDVariables = ["GITHUB_RUN_NUMBER", "CI_PIPELINE_IID", "BUILD_NUMBER"]
    static let commitVariables = ["GITHUB_SHA", "CI_COMMIT_SHA", "GIT_COMMIT"]
    static let branchVariables = ["GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME", "BRANCH_NAME", "GIT_BRANCH"]

    /// The first of the variables `names` that is set and not blank.
    private func variable(_ names: [String]) -> String? {
        names.lazy.compactMap { environment[$0].flatMap(Self.nonEmpty) }.first
    }

    /// The build's record: each field from the options, else the environment, else the runs'
    /// metadata (where every run agrees), else the MetricKit payloads' (where every payload
    /// agrees); the id falls back to the commit, then to the date.
    public func record(runs: [HistoryRun], payloads: [MetricKitPayload] = [], now: Date = Date()) -> BuildRecord {
        var fields = options
        fields.buildID = fields.buildID ?? variable(Self.buildIDVariables)
        fields.commit = fields.commit ?? variable(Self.commitVariables)
        fields.branch = fields.branch ?? variable(Self.branchVariables)
        // Jenkins names the branch with its remote (`origin/main`).
        if options.branch == nil, environment["GIT_BRANCH"] == fields.branch, let branch = fields.branch,
            branch.hasPrefix("origin/")
        {
            fields.branch = String(branch.dropFirst("origin/".count))
        }
        let metadata = { (key: String) -> String? in
            let values = Set(runs.map { $0.metadata[key] })
            guard values.count == 1, let value = values.first else { return nil }
            return value.flatMap(Self.nonEmpty)
        }
        // `appVersion` is written "4.2 (1187)" by the recorder: the version, then the build number.
        let version = metadata("appVersion").map(Self.splitVersion)
        fields.appVersion = fields.appVersion ?? version?.version
        fields.buildNumber = fields.buildNumber ?? version?.build ?? metadata("buildNumber") ?? metadata("build")
        fields.device = fields.device ?? metadata("device")
        fields.os = fields.os ?? metadata("os")
        let payloadField = { (value: (MetricKitPayload) -> String?) -> String? in
            let values = Set(payloads.map(value))
            guard values.count == 1, let value = values.first else { return nil }
            return value.flatMap(Self.nonEmpty)
        }
        fields.appVersion = fields.appVersion ?? payloadField { $0.appVersion ?? $0.diagnostics.first?.appVersion }
        fields.buildNumber = fields.buildNumber ?? payloadField { $0.buildNumber ?? $0.diagnostics.first?.buildNumber }
        fields.device = fields.device ?? payloadField { $0.device ?? $0.diagnostics.first?.device }
        fields.os = fields.os ?? payloadField { $0.os ?? $0.diagnostics.first?.os }
        fields.commit = fields.commit ?? metadata("commit")
        fields.branch = fields.branch ?? metadata("branch")
        let date = fields.date ?? UTCTimestamp.text(now)
        let id = fields.buildID ?? fields.commit.map { String($0.prefix(12)) } ?? date
        return BuildRecord(
            buildID: id, commit: fields.commit, branch: fields.branch, appVersion: fields.appVersion,
            buildNumber: fields.buildNumber, device: fields.device, os: fields.os, date: date)
    }

    private static func nonEmpty(_ value: String) -> String? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// "4.2 (1187)" as version 4.2, build 1187; any other text as a version alone.
    static func splitVersion(_ text: String) -> (version: String, build: String?) {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return (text, nil) }
        let version = text[..<open].trimmingCharacters(in: .whitespaces)
        let build = text[text.index(after: open)..<text.index(before: text.endIndex)].trimmingCharacters(in: .whitespaces)
        guard !version.isEmpty, !build.isEmpty else { return (text, nil) }
        return (version, build)
    }
}
