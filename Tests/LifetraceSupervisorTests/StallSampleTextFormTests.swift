import Foundation
import LifetraceTestSupport
import Testing

/// The sample app's unmarked heavy launch, recorded on its own, through the text form and back:
/// `dump`, then `import`, gives the same analysis (`check --format json`, byte for byte) and the
/// same folded stacks as the recorded trace.
@Suite struct StallSampleTextFormTests {
    @Test func theLabTraceSurvivesDumpAndImport() throws {
        let directory = try StallSampleTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, recorded) = try StandaloneHostTests.runAndTerminate(["--unmarked-heavy-launch"], in: directory)
        let text = directory.appendingPathComponent("lab.jsonl").path
        let imported = directory.appendingPathComponent("imported.ltrace").path
        #expect(try LifetraceCommand.run(["dump", recorded, "-o", text]).status == 0)
        #expect(try LifetraceCommand.run(["import", text, "-o", imported]).status == 0)
        let lines = try String(contentsOfFile: text, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(#""type":"sample""#) })
        #expect(lines.contains { $0.contains(#""type":"image""#) && $0.contains("SampleApp") })
        func analysis(_ path: String) throws -> String {
            let check = try LifetraceCommand.run(["check", path, "--format", "json", "--no-symbolicate"])
            #expect(check.status == 1, "\(check.error)")
            return check.output.replacingOccurrences(of: path, with: "TRACE")
        }
        let original = try analysis(recorded)
        #expect(original.contains("stack samples in SampleApp+0x"))
        #expect(try analysis(text) == original)
        #expect(try analysis(imported) == original)
        var folded: [String] = []
        for (index, path) in [recorded, text, imported].enumerated() {
            let output = directory.appendingPathComponent("\(index).folded").path
            #expect(try LifetraceCommand.run(["export", path, "--format", "folded", "-o", output]).status == 0)
            folded.append(try String(contentsOfFile: output, encoding: .utf8))
        }
        #expect(!folded[0].isEmpty)
        #expect(folded[1] == folded[0])
        #expect(folded[2] == folded[0])
    }
}
