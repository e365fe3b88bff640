import ArgumentParser
import LifetraceHistory

/// The build a command adds to the history (`history add`, `check --history`): each field as
/// given; the rest come from the CI's environment and the traces' metadata (``BuildIdentity``).
struct BuildArguments: ParsableArguments {
    @Option(name: .customLong("build"), help: ArgumentHelp("The build's id.", valueName: "id")) var buildID: String?
    @Option(help: ArgumentHelp("The commit it was built from.", valueName: "sha")) var commit: String?
    @Option(help: ArgumentHelp("The branch.", valueName: "name")) var branch: String?
    @Option(name: .customLong("app-version"), help: ArgumentHelp("The app's version.", valueName: "version")) var appVersion: String?
    @Option(name: .customLong("build-number"), help: ArgumentHelp("The app's build number.", valueName: "number")) var buildNumber: String?
    @Option(help: ArgumentHelp("The device the runs were recorded on.", valueName: "model")) var device: String?
    @Option(help: ArgumentHelp("The OS version.", valueName: "version")) var os: String?
    @Option(help: ArgumentHelp("The build's date (ISO 8601; default now).", valueName: "date")) var date: String?

    /// The fields given.
    var fields: BuildRecord.Fields {
        BuildRecord.Fields(
            buildID: buildID, commit: commit, branch: branch, appVersion: appVersion, buildNumber: buildNumber, device: device,
            os: os, date: date)
    }

    /// The options given, as written on the command line (a command that adds nothing refuses them).
    var given: [String] {
        let options: [(String, String?)] = [
            ("--build", buildID), ("--commit", commit), ("--branch", branch), ("--app-version", appVersion),
            ("--build-number", buildNumber), ("--device", device), ("--os", os), ("--date", date),
        ]
        return options.compactMap { $0.1 == nil ? nil : $0.0 }
    }
}
