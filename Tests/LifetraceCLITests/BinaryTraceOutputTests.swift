import Foundation
import LifetraceTestSupport
import Testing

/// The commands that write a binary trace (`import`, `symbolicate`, `synth`): an output that
/// cannot be written exits 7 with one line naming it, and standard output is refused when it is
/// a terminal.
@Suite("binary trace outputs")
struct BinaryTraceOutputTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    static let golden = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("golden/v1-golden.ltrace").path

    @Test("import and symbolicate exit 7 when -o cannot be written: a missing directory, a full disk",
          arguments: ["/nonexistent/dir/x.ltrace", "/dev/full"])
    func unwritableOutput(_ output: String) throws {
        for command in [["import", Self.golden, "-o", output], ["symbolicate", Self.golden, "-o", output]] {
            let result = try Self.run(command)
            #expect(result.status == 7, "\(command): \(result.error)")
            #expect(result.error.hasPrefix("lifetrace: \(output): "), "\(command): \(result.error)")
            #expect(result.error.split(separator: "\n").count == 1, "\(command): \(result.error)")
        }
        // Bad input stays 2.
        #expect(try Self.run(["symbolicate", "/nonexistent/in.ltrace", "-o", try ScratchDirectory.make("sym") + "/x"]).status == 2)
    }

    @Test("import and symbolicate refuse to write a binary trace to a terminal, as synth does")
    func binaryTraceToTerminal() throws {
        // `script` runs the command with a pseudo-terminal as its standard output.
        let script = try #require(ChildProcess.onPath("script"))
        for command in ["import '\(Self.golden)' -o -", "symbolicate '\(Self.golden)' -o -"] {
            let result = try ChildProcess.run(script, ["-qec", "'\(LifetraceCommand.path)' \(command)", "/dev/null"])
            #expect(result.status == 2, "\(command): \(result.output)")
            #expect(result.output.contains(
                "lifetrace: standard output is a terminal, and a binary trace is not text: give a file with -o or pipe the output"),
                "\(command): \(result.output)")
        }
        // In a pipe, standard output takes the trace.
        let piped = try Self.run(["import", Self.golden, "-o", "-"])
        #expect(piped.status == 0)
        #expect(piped.output.utf8.prefix(4).elementsEqual([0x5A, 0x2A, 0x4D, 0x18]))
    }
}
