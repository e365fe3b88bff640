import Foundation
import LifetraceTestSupport
import Testing

/// Every output of `check` names what it could not read and what it left out: the Markdown job
/// summary names each problem of a trace not read whole (file, byte, cause), and SARIF carries
/// the notes the other outputs print (the stack samples' notes among them).
@Suite struct CheckReadingNotesTests {
    typealias Workspace = HostileInputTests.Workspace

    /// The reference workload of 20,000 events, seed 3, cut at byte 20,000 (inside a frame).
    static func cutTrace(in workspace: Workspace) throws -> String {
        let whole = workspace.path + "/s3.ltrace"
        let made = try LifetraceCommand.run(["synth", "--events", "20000", "--seed", "3", "-o", whole])
        #expect(made.status == 0, "\(made.error)")
        let cut = workspace.path + "/cut.ltrace"
        try Data(contentsOf: URL(fileURLWithPath: whole)).prefix(20000).write(to: URL(fileURLWithPath: cut))
        return cut
    }

    @Test("markdown and the GitHub job summary name what a trace not read whole lost: byte and cause")
    func markdownNamesTheLoss() throws {
        let workspace = try Workspace()
        let cut = try Self.cutTrace(in: workspace)
        let text = try LifetraceCommand.run(["check", cut])
        #expect(text.status == 2)
        let problem = try #require(
            text.output.split(separator: "\n").first { $0.contains("truncated at byte 20000") }, "\(text.output)")
        // `  error: <file>: byte N (chunk C of stream S): truncated at byte 20000: the file ends inside this frame`
        let placed = try #require(problem.range(of: cut + ": ").map { String(problem[$0.upperBound...]) })
        #expect(placed.hasPrefix("byte "), "\(placed)")
        let markdown = try LifetraceCommand.run(["check", "--format", "markdown", cut])
        #expect(markdown.status == 2)
        #expect(markdown.output.contains("### Traces not read whole"), "\(markdown.output)")
        #expect(markdown.output.contains("`\(cut)`: \(placed)."), "\(markdown.output)")
        let summary = workspace.path + "/summary.md"
        let github = try ChildProcess.run(
            LifetraceCommand.path, ["check", "--format", "github", cut], environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(github.status == 2)
        let written = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(written.contains("`\(cut)`: \(placed)."), "\(written)")
    }

    /// The `message.text` of the SARIF log's notifications of `level`.
    static func notifications(_ sarif: String, level: String) throws -> [String] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        return notifications.filter { $0["level"] as? String == level }.compactMap { ($0["message"] as? [String: Any])?["text"] as? String }
    }

    /// Checks that each `note:` line of the text output is a note notification of the SARIF log.
    static func expectSARIFCarriesTheNotes(_ arguments: [String], trace: String) throws -> [String] {
        let text = try LifetraceCommand.run(["check"] + arguments + [trace])
        let notes = text.output.split(separator: "\n").filter { $0.hasPrefix("  note: ") }.map { String($0.dropFirst(8)) }
        let sarif = try LifetraceCommand.run(["check", "--format", "sarif"] + arguments + [trace])
        #expect(sarif.status == text.status)
        let carried = try Self.notifications(sarif.output, level: "note")
        for note in notes {
            #expect(carried.contains("\(trace): \(note)"), "\(note) not in \(carried)")
        }
        return notes
    }

    @Test("sarif carries the note on stack samples past the reader's limits")
    func sarifCarriesSamplesPastTheLimits() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/frames.ltrace"
        try HostileStackTraces.distinctFrames(path: trace)
        let notes = try Self.expectSARIFCarriesTheNotes([], trace: trace)
        #expect(notes.contains { $0.contains("were past the reader's limits") }, "\(notes)")
    }

    @Test("sarif carries the note on images not symbolicated")
    func sarifCarriesImagesNotSymbolicated() throws {
        let workspace = try Workspace()
        let trace = workspace.path + "/missing-image.jsonl"
        try """
            {"type":"meta","app":"X"}
            {"ts":1000000000,"type":"launch","reason":"user","pid":1}
            {"ts":1010000000,"type":"runloop.wake"}
            {"ts":1900000000,"type":"runloop.sleep"}
            {"ts":1000000000,"type":"image","path":"/nonexistent/SampleApp","base":"0x10000000","size":"0x4000000"}
            {"type":"stack","id":1,"frames":["0x10100000"]}
            {"ts":1100000000,"type":"sample","stack":1}

            """.write(toFile: trace, atomically: true, encoding: .utf8)
        let notes = try Self.expectSARIFCarriesTheNotes(["--symbolicate"], trace: trace)
        // Without a symbolizer on the machine, there is nothing to say about the image.
        if notes.contains(where: { $0.contains("file missing") }) {
            #expect(notes.contains { $0.contains("/nonexistent/SampleApp (file missing)") }, "\(notes)")
        }
    }
}
