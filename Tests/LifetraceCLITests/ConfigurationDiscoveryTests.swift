import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceTestSupport
import Testing

@testable import LifetraceCLI

/// What the upward search for `.lifetrace.yml` finds, `--symbolicate` as a key of the file, and
/// a duration out of range said as one.
@Suite struct ConfigurationDiscoveryTests {
    @Test("a directory named .lifetrace.yml found upward is a one-line error naming it, exit 2")
    func directoryFoundUpward() throws {
        let directory = try ScratchDirectory.make("config-upward")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A usable file further up must not be read in its place.
        try "hang-threshold: 1s\n".write(toFile: directory + "/.lifetrace.yml", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: directory + "/app/.lifetrace.yml/x", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/app/src", withIntermediateDirectories: true)
        #expect(ProjectConfiguration.find(from: directory + "/app/src") == directory + "/app/.lifetrace.yml")
        let result = try UsageMessagesTests.run(in: directory + "/app/src", ["check", UsageMessagesTests.pass])
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(UsageMessagesTests.message(result) == "\(directory)/app/.lifetrace.yml: is a directory, not a configuration file; it stands where "
            + ".lifetrace.yml is looked for, from the working directory upward (rename or remove it, or give --config FILE or --no-config)")
        // In the working directory itself it is named as found there.
        let here = try UsageMessagesTests.run(in: directory + "/app", ["report", UsageMessagesTests.pass])
        #expect(here.status == 2)
        #expect(UsageMessagesTests.message(here).hasPrefix(".lifetrace.yml: is a directory, not a configuration file;"))
        // --no-config still reads none, and --config another file.
        #expect(try UsageMessagesTests.run(in: directory + "/app/src", ["check", "--no-config", UsageMessagesTests.pass]).status == 0)
        #expect(try UsageMessagesTests.run(in: directory + "/app/src", ["check", "--config", directory + "/.lifetrace.yml", UsageMessagesTests.pass]).status == 0)
    }

    @Test("a symbolic link to nothing named .lifetrace.yml is refused the same way")
    func danglingLink() throws {
        let directory = try ScratchDirectory.make("config-link")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createSymbolicLink(atPath: directory + "/.lifetrace.yml", withDestinationPath: directory + "/missing.yml")
        let result = try UsageMessagesTests.run(in: directory, ["check", UsageMessagesTests.pass])
        #expect(result.status == 2)
        #expect(UsageMessagesTests.message(result).hasPrefix(".lifetrace.yml: is a symbolic link to nothing"))
    }

    @Test("in-app, not-in-app and symbols are keys of the configuration file; the command line wins")
    func inAppKeys() throws {
        let file = try ProjectConfiguration.parse(
            yaml: "in-app: [\"MyKit*\"]\nnot-in-app: [\"*\"]\nsymbols: [dsyms]\n", file: "project/.lifetrace.yml")
        #expect(file.symbols == ["project/dsyms"])
        let plain = try CheckCommand.parse(["--no-config", "a.jsonl"]).analysis.options(configuration: file)
        #expect(plain.inAppImages == InAppImages(included: ["MyKit*"], excluded: ["*"]))
        #expect(plain.inAppImages.isInApp("/app/MyKit.framework/MyKit") && !plain.inAppImages.isInApp("/app/App"))
        let given = try CheckCommand.parse(["--no-config", "--in-app", "App", "a.jsonl"]).analysis.options(configuration: file)
        #expect(given.inAppImages == InAppImages(included: ["App"], excluded: ["*"]))
    }

    @Test("symbolicate is a key of the configuration file, on by default; the command line wins")
    func symbolicateKey() throws {
        let on = try ProjectConfiguration.parse(yaml: "symbolicate: true\n", file: ".lifetrace.yml")
        #expect(on.symbolicate == true)
        let disabled = try ProjectConfiguration.parse(yaml: "symbolicate: false\n", file: ".lifetrace.yml")
        let plain = try CheckCommand.parse(["--no-config", "a.jsonl"])
        #expect(try plain.analysis.options(configuration: nil).symbolicates == true)
        #expect(try plain.analysis.options(configuration: disabled).symbolicates == false)
        #expect(try plain.analysis.options(configuration: on).symbolicates == true)
        let off = try CheckCommand.parse(["--no-config", "--no-symbolicate", "a.jsonl"])
        #expect(try off.analysis.options(configuration: on).symbolicates == false)
        let given = try CheckCommand.parse(["--no-config", "--symbolicate", "a.jsonl"])
        let offInFile = try ProjectConfiguration.parse(yaml: "symbolicate: false\n", file: ".lifetrace.yml")
        #expect(try given.analysis.options(configuration: offInFile).symbolicates == true)
        #expect(try ReportCommand.parse(["--no-config", "a.jsonl"]).analysis.options(configuration: on).symbolicates == true)
        #expect(throws: ConfigurationError(file: ".lifetrace.yml", line: 1, column: 14, "`symbolicate` must be true or false, not \"yes please\"")) {
            try ProjectConfiguration.parse(yaml: "symbolicate: yes please\n", file: ".lifetrace.yml")
        }
    }

    @Test("a duration past 2^60 ns says so, written with an exponent too")
    func durationOutOfRange() throws {
        let result = try UsageMessagesTests.run(["check", "--no-config", "--hang-threshold", "1e308ms", UsageMessagesTests.pass])
        #expect(result.status == 2)
        #expect(UsageMessagesTests.message(result).hasSuffix("'1e308ms' is invalid for '--hang-threshold <duration>': it is longer than 2^60 ns (about 36 years) (write a number and a unit: 250ms, 1.5s, 20s)"), "\(result.error)")
        let budget = try UsageMessagesTests.run(["diff", "--no-config", "--budget", "launch.cold.p50=1e308ms", UsageMessagesTests.baseline, "--", UsageMessagesTests.candidate])
        #expect(budget.status == 2)
        #expect(budget.error.contains("invalid duration \"1e308ms\": it is longer than 2^60 ns"), "\(budget.error)")
        #expect(!budget.error.contains("no unit"))
        #expect(try CheckCommand.parse(["--no-config", "--hang-threshold", "0.25e3ms", "a.jsonl"]).analysis.options().hangThreshold == 250_000_000)
    }
}
