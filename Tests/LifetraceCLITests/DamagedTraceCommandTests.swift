import Foundation
import LifetraceTestSupport
import Testing

/// A damaged binary trace through every command that reads one (docs/CLI.md, "Damaged traces"):
/// what was read before the loss is written, each problem is one line on standard error naming
/// the file and the byte, and a trace that lost data exits 2, as `check` does; an unclosed trace
/// (an app killed before `recover`) is a warning and exits 0, and every format of `check` says so.
@Suite("damaged traces through every command")
struct DamagedTraceCommandTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    /// The reference workload of 20,000 events, seed 3, in chunks of 4 KiB (about 55 KB, 20 flush
    /// groups), whole, cut inside a chunk at byte 30,000, without its end record (unclosed at a
    /// frame boundary), and with a second end record after the first.
    struct Traces {
        var directory: String
        var whole: String { directory + "/whole.ltrace" }
        var cut: String { directory + "/cut.ltrace" }
        var unclosed: String { directory + "/unclosed.ltrace" }
        var trailing: String { directory + "/trailing.ltrace" }
        var size = 0

        init() throws {
            directory = try ScratchDirectory.make("damaged")
            let made = try DamagedTraceCommandTests.run(["synth", "--events", "20000", "--seed", "3", "-o", directory + "/s3.ltrace"])
            #expect(made.status == 0, "\(made.error)")
            let grouped = try DamagedTraceCommandTests.run(["import", directory + "/s3.ltrace", "--chunk-size", "4096", "-o", whole])
            #expect(grouped.status == 0, "\(grouped.error)")
            let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
            size = bytes.count
            try bytes.prefix(30000).write(to: URL(fileURLWithPath: cut))
            try bytes.dropLast(36).write(to: URL(fileURLWithPath: unclosed))
            try (bytes + bytes.suffix(36)).write(to: URL(fileURLWithPath: trailing))
        }
    }

    /// The commands that read a trace and write what they read, each writing into `directory`.
    static func commands(_ trace: String, _ directory: String) -> [[String]] {
        ["perfetto", "chrome-json", "ctf", "folded"].map { ["export", trace, "--format", $0, "-o", directory + "/out-\($0)"] } + [
            ["replay", trace], ["dump", trace], ["dump", trace, "--format", "text"],
            ["import", trace, "-o", directory + "/imported.ltrace"],
            ["report", trace], ["report", trace, "--format", "json"], ["report", trace, "--format", "html", "-o", directory + "/r.html"],
            ["report", trace, "--format", "ndjson"], ["report", trace, trace], ["diff", trace, "--", trace],
        ]
    }

    @Test("a trace cut inside a frame: every command writes what was read, names the byte, exits 2")
    func cutInsideAFrame() throws {
        let traces = try Traces()
        defer { try? FileManager.default.removeItem(atPath: traces.directory) }
        for command in Self.commands(traces.cut, traces.directory) {
            let result = try Self.run(command)
            // Before, export and replay exited 0 without a word; dump, import, report and diff exited 0.
            #expect(result.status == 2, "\(command): \(result.error)")
            let lines = result.error.split(separator: "\n").filter { $0.contains("truncated") }
            #expect(!lines.isEmpty, "\(command): \(result.error)")
            for line in lines {
                #expect(line.hasPrefix("lifetrace: \(traces.cut): byte "), "\(command): \(line)")
                #expect(line.contains("truncated at byte 30000: the file ends inside this frame"), "\(command): \(line)")
            }
            #expect(!result.error.contains("warning: \(traces.cut)"), "\(command): \(result.error)")
        }
        // Everything read before the loss was written.
        let perfetto = try FileManager.default.attributesOfItem(atPath: traces.directory + "/out-chrome-json")
        #expect((perfetto[.size] as? Int ?? 0) > 100_000)
        let replay = try Self.run(["replay", traces.cut])
        #expect(replay.output.split(separator: "\n").count > 5_000)
    }

    @Test("a trace unclosed at a frame boundary: written whole, a warning naming the byte, exit 0")
    func unclosedAtAFrameBoundary() throws {
        let traces = try Traces()
        defer { try? FileManager.default.removeItem(atPath: traces.directory) }
        for command in Self.commands(traces.unclosed, traces.directory) {
            let result = try Self.run(command)
            #expect(result.status == 0, "\(command): \(result.error)")
            #expect(result.error.contains(
                "lifetrace: warning: \(traces.unclosed): byte \(traces.size - 36): not closed: no end-of-trace record"),
                "\(command): \(result.error)")
        }
        // The whole trace says nothing.
        for command in Self.commands(traces.whole, traces.directory) {
            let result = try Self.run(command)
            #expect(result.status == 0, "\(command): \(result.error)")
            #expect(!result.error.contains("warning"), "\(command): \(result.error)")
        }
    }

    @Test("data after the end-of-trace record: every command, check too, names it and exits 2")
    func dataAfterTheEnd() throws {
        let traces = try Traces()
        defer { try? FileManager.default.removeItem(atPath: traces.directory) }
        let message = "\(traces.trailing): byte \(traces.size): 36 bytes after the end-of-trace record, which closes the trace, "
            + "were not read; they start with a second end-of-trace record"
        for command in Self.commands(traces.trailing, traces.directory) {
            let result = try Self.run(command)
            #expect(result.status == 2, "\(command): \(result.error)")
            #expect(result.error.contains("lifetrace: " + message), "\(command): \(result.error)")
        }
        // Before, a second end record passed with no note.
        let check = try Self.run(["check", traces.trailing])
        #expect(check.status == 2, "\(check.output)")
        #expect(check.output.contains("error: " + message), "\(check.output)")
        let info = try Self.run(["info", traces.trailing])
        #expect(info.status == 0)
        #expect(info.output.contains("integrity:  1 problem, closed"), "\(info.output)")
    }

    @Test("every format of check carries the unclosed trace's note in its own grammar")
    func unclosedNoteInEveryCheckFormat() throws {
        let traces = try Traces()
        defer { try? FileManager.default.removeItem(atPath: traces.directory) }
        let path = traces.unclosed
        let note = "byte \(traces.size - 36): not closed: no end-of-trace record (truncated at byte \(traces.size - 36))"
        var outputs: [String: String] = [:]
        for format in ["text", "json", "junit", "github", "markdown", "sarif"] {
            let result = try Self.run(["check", path, "--format", format])
            // The synthesized run has warnings only: the check passes, unclosed or not.
            #expect(result.status == 0, "\(format): \(result.output)")
            outputs[format] = result.output
        }
        #expect(outputs["text"]?.contains("  note: \(path): \(note)") == true)
        #expect(outputs["json"]?.contains("\"complete\": true") == true)
        #expect(outputs["json"]?.contains(note) == true)
        // JUnit: the suite's system-out, as a note (Before: not mentioned).
        let junit = try #require(outputs["junit"])
        #expect(junit.contains("<system-out>warnings, not failures: hang.&#10;note: \(path): \(note)&#10;warning hang (does not fail"), "\(junit)")
        #expect(!junit.contains("<error"))
        // GitHub: a notice annotation titled with the trace.
        let github = try #require(outputs["github"])
        #expect(github.contains("::notice title=trace not closed%3A \(path)::\(path): \(note)\n"), "\(github)")
        #expect(!github.contains("::error"))
        // Markdown: a line of the notes, with the trace in a code span.
        let markdown = try #require(outputs["markdown"])
        #expect(markdown.contains("### Notes\n\n- `\(path)`: \(note)."), "\(markdown)")
        #expect(markdown.contains("## Lifetrace check: passed, with warnings"))
        // SARIF: a note notification of the invocation at the trace's location; still successful.
        let sarif = try #require(outputs["sarif"])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == true)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.count == 1)
        let notification = try #require(notifications.first)
        #expect(notification["level"] as? String == "note")
        #expect((notification["message"] as? [String: Any])?["text"] as? String == "\(path): \(note)")
        let location = (notification["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        let uri = (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
        #expect(uri?.hasSuffix("/unclosed.ltrace") == true, "\(String(describing: location))")
        // With --strict the same trace is not read whole: an error in every format, no note.
        let strict = try Self.run(["check", path, "--strict", "--format", "github"])
        #expect(strict.status == 2)
        #expect(strict.output.contains("::error title=trace not read whole"))
        #expect(!strict.output.contains("::notice title=trace not closed"))
    }
}
