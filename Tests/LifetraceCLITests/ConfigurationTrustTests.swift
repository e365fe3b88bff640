import Foundation
import LifetraceTestSupport
import Testing

@testable import LifetraceCLI

/// Where the upward search for `.lifetrace.yml` stops (the repository's root, the home
/// directory, a directory others can write), a file others can write refused, and the
/// configuration a check used named, with what it changed, in every format.
@Suite struct ConfigurationTrustTests {
    static let watchdog = UsageMessagesTests.root + "/Samples/traces/launch-watchdog.fail.jsonl"
    static let relaxing = "only: [time-order]\n"

    /// Runs `lifetrace arguments` in `directory` with `HOME` set to `home`.
    static func run(in directory: String, home: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> LifetraceCommand.Result
    {
        try ChildProcess.run("/usr/bin/env", ["-C", directory, LifetraceCommand.path] + arguments, environment: ["HOME": home].merging(environment) { $1 })
    }

    /// A scratch directory with `job/` inside, the working directory of the runs.
    static func layout(_ label: String) throws -> String {
        let directory = try ScratchDirectory.make(label)
        chmod(directory, 0o755)
        try FileManager.default.createDirectory(atPath: directory + "/job", withIntermediateDirectories: true)
        chmod(directory + "/job", 0o755)
        return directory
    }

    @Test("a configuration planted in a directory every user can write is never read: the watchdog kill still fails")
    func plantedInSharedDirectory() throws {
        let directory = try Self.layout("config-planted")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.relaxing.write(toFile: directory + "/.lifetrace.yml", atomically: true, encoding: .utf8)
        // Readable and used while the directory is the user's own.
        let trusted = try Self.run(in: directory + "/job", home: "/nonexistent", ["check", Self.watchdog])
        #expect(trusted.status == 0, "\(trusted.error)")
        #expect(trusted.output.contains("configuration \(directory)/.lifetrace.yml: rules turned off: "))
        // A temporary directory shared by every user (sticky, as /tmp is): neither it nor above.
        #expect(chmod(directory, 0o1777) == 0)
        #expect(ProjectConfiguration.find(from: directory + "/job", home: nil) == nil)
        let planted = try Self.run(in: directory + "/job", home: "/nonexistent", ["check", Self.watchdog])
        #expect(planted.status == 1, "\(planted.output)")
        #expect(planted.output.contains(": 1 error, 0 warnings\n"))
        #expect(!planted.output.contains("configuration"))
        // The working directory itself, when every user can write it.
        try Self.relaxing.write(toFile: directory + "/job/.lifetrace.yml", atomically: true, encoding: .utf8)
        #expect(chmod(directory + "/job", 0o777) == 0)
        #expect(ProjectConfiguration.find(from: directory + "/job", home: nil) == nil)
        #expect(try Self.run(in: directory + "/job", home: "/nonexistent", ["check", Self.watchdog]).status == 1)
    }

    @Test("the search stops at the repository's root and at the home directory, each searched itself")
    func stopsAtRepositoryAndHome() throws {
        let directory = try Self.layout("config-stops")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.relaxing.write(toFile: directory + "/.lifetrace.yml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/job/src", withIntermediateDirectories: true)
        #expect(ProjectConfiguration.find(from: directory + "/job/src", home: nil) == directory + "/.lifetrace.yml")
        // The repository's root: a `.git` directory, or the `.git` file of a worktree.
        try FileManager.default.createDirectory(atPath: directory + "/job/.git", withIntermediateDirectories: true)
        #expect(ProjectConfiguration.find(from: directory + "/job/src", home: nil) == nil)
        #expect(try Self.run(in: directory + "/job/src", home: "/nonexistent", ["check", Self.watchdog]).status == 1)
        try FileManager.default.removeItem(atPath: directory + "/job/.git")
        try "gitdir: /elsewhere\n".write(toFile: directory + "/job/.git", atomically: true, encoding: .utf8)
        #expect(ProjectConfiguration.find(from: directory + "/job/src", home: nil) == nil)
        try "hang-threshold: 1s\n".write(toFile: directory + "/job/.lifetrace.yml", atomically: true, encoding: .utf8)
        #expect(ProjectConfiguration.find(from: directory + "/job/src", home: nil) == directory + "/job/.lifetrace.yml")
        try FileManager.default.removeItem(atPath: directory + "/job/.git")
        try FileManager.default.removeItem(atPath: directory + "/job/.lifetrace.yml")
        // The home directory, found through $HOME.
        #expect(ProjectConfiguration.find(from: directory + "/job/src", home: directory + "/job") == nil)
        #expect(try Self.run(in: directory + "/job/src", home: directory + "/job", ["check", Self.watchdog]).status == 1)
        #expect(try Self.run(in: directory + "/job/src", home: "/nonexistent", ["check", Self.watchdog]).status == 0)
    }

    @Test("a configuration file others can write is refused in one line, exit 2; --config still reads it")
    func writableFileRefused() throws {
        let directory = try Self.layout("config-writable")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/job/.lifetrace.yml"
        try Self.relaxing.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(chmod(file, 0o666) == 0)
        let result = try Self.run(in: directory + "/job", home: "/nonexistent", ["check", Self.watchdog])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(UsageMessagesTests.message(result) == ".lifetrace.yml: is not used: every user can write it, so it may not be the "
            + "project's (make it the project's own, writable by its owner only, or give --config FILE or --no-config)")
        let named = try Self.run(in: directory + "/job", home: "/nonexistent", ["check", "--config", file, Self.watchdog])
        #expect(named.status == 0)
    }

    @Test("every format names the configuration used and each rule, limit and allowance it changed", arguments: [
        "text", "json", "junit", "sarif", "markdown", "github",
    ])
    func everyFormatNamesIt(_ format: String) throws {
        let directory = try Self.layout("config-named")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "disable: [launch-watchdog, hang]\nhang-threshold: 1s\ntextbook: true\nstrict: true\n"
            .write(toFile: directory + "/job/.lifetrace.yml", atomically: true, encoding: .utf8)
        let result = try Self.run(
            in: directory + "/job", home: "/nonexistent", ["check", "--format", format, Self.watchdog],
            environment: ["GITHUB_STEP_SUMMARY": ""])
        #expect(result.status == 0, "\(result.error)")
        let changes = [
            "rules turned off: launch-watchdog, hang", "hang-threshold 1 s instead of 250 ms",
            "textbook: the allowances for the sequences real iOS produces are not applied", "strict: warnings fail, and an unclosed trace",
        ]
        switch format {
        case "json":
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let summary = try #require(document["summary"] as? [String: Any])
            let configuration = try #require(summary["configuration"] as? [String: Any])
            #expect(configuration["file"] as? String == ".lifetrace.yml")
            #expect(configuration["changes"] as? [String] == changes)
        case "sarif":
            let log = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
            let run = try #require((log["runs"] as? [[String: Any]])?.first)
            let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
            let properties = try #require(invocation["properties"] as? [String: Any])
            #expect(properties["configuration"] as? String == ".lifetrace.yml")
            #expect(properties["configurationChanges"] as? [String] == changes)
        case "junit":
            #expect(result.output.contains("<property name=\"configuration\" value=\".lifetrace.yml\"/>"))
            for change in changes {
                #expect(result.output.contains("<property name=\"configuration.change\" value=\"\(change)\"/>"), "\(change)")
            }
        case "github":
            #expect(result.output.contains(
                "::notice title=lifetrace configuration .lifetrace.yml::configuration .lifetrace.yml: " + changes.joined(separator: "; ") + "\n"))
        case "markdown":
            #expect(result.output.contains("_Checked with the configuration `.lifetrace.yml`_: " + changes.joined(separator: "; ") + "."))
        default:
            #expect(result.output.contains("\nconfiguration .lifetrace.yml: " + changes.joined(separator: "; ") + "\n"))
        }
        // Without a configuration file, no format names one.
        let plain = try Self.run(in: directory, home: "/nonexistent", ["check", "--no-config", "--format", format, Self.watchdog])
        #expect(!plain.output.contains("configuration"))
    }
}
