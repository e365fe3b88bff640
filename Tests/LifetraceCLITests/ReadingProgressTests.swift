import Foundation
import LifetraceTestSupport
import Testing

/// The progress line for one large input: shown on a terminal, never in a pipe or a file.
@Suite("progress line for one large input")
struct ReadingProgressTests {
    /// A text trace of a little over 32 MB (the size from which the line is shown): a launch and a
    /// mark, with blank lines between them (which the reader skips, so that the test stays quick).
    static func largeTrace(in directory: String) throws -> String {
        let path = directory + "/large.jsonl"
        var blankLine = Data(repeating: 0x20, count: 4096)
        blankLine[4095] = 0x0A
        var text = Data("{\"ts\":0,\"type\":\"launch\"}\n".utf8)
        text.reserveCapacity(34 << 20)
        for _ in 0..<((33 << 20) / 4096) { text.append(blankLine) }
        text.append(Data("{\"ts\":1000,\"type\":\"mark\",\"name\":\"end\"}\n".utf8))
        try text.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func shownOnATerminalAndNowhereElse() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("util-linux's script is needed to give the command a terminal")
            return
        }
        let directory = NSTemporaryDirectory() + "lifetrace-progress-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let trace = try Self.largeTrace(in: directory)

        // On a terminal (script gives the command one): the line appears and is cleared at the end.
        let typescript = directory + "/typescript"
        let terminal = try ChildProcess.run("/usr/bin/script", ["-qec", "'\(LifetraceCommand.path)' check '\(trace)'", typescript])
        #expect(terminal.status == 0)
        let screen = try String(contentsOfFile: typescript, encoding: .utf8)
        #expect(screen.contains("reading \(trace): "), "\(screen.prefix(400))")
        #expect(screen.contains("% of 33 MB"))
        #expect(screen.contains("\r\u{1B}[K"))
        #expect(screen.contains("1 trace checked, 0 failed"))

        // In a file: nothing but the result.
        let result = try LifetraceCommand.run(["check", trace])
        #expect(result.status == 0)
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(!result.output.contains("reading "))
    }
}
