import ArgumentParser
import Foundation
import Testing

@testable import LifetraceCLI

/// The whole `--help` of the commands that take no analysis options, 80 columns wide, against the
/// files in `Samples/golden/help/`: a change of what a command says about itself is made on
/// purpose. Set `LIFETRACE_UPDATE_GOLDEN=1` to rewrite the files (and review the diff).
@Suite("golden help texts")
struct GoldenHelpTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    static let commands: [(name: String, command: any ParsableCommand.Type)] = [
        ("import", ImportCommand.self), ("dump", DumpCommand.self), ("info", InfoCommand.self), ("synth", SynthCommand.self),
        ("record", RecordCommand.self), ("recover", RecoverCommand.self), ("symbolicate", SymbolicateCommand.self),
    ]

    @Test("each command's help is its golden file", arguments: commands.map(\.name))
    func help(name: String) throws {
        let command = try #require(Self.commands.first { $0.name == name }?.command)
        let actual = Lifetrace.helpMessage(for: command, columns: 80) + "\n"
        let path = Self.root + "/Samples/golden/help/\(name).txt"
        if ProcessInfo.processInfo.environment["LIFETRACE_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOfFile: path, encoding: .utf8)
        #expect(actual == expected, "differs from Samples/golden/help/\(name).txt")
    }
}
