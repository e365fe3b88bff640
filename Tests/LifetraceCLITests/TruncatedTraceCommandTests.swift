import Foundation
import LifetraceTestSupport
import Testing

/// A binary trace cut short through the commands: `check` judges nothing past the loss and does
/// not pass it; an unclosed trace cut at a frame boundary (a killed app's) is still judged.
@Suite("truncated binary traces")
struct TruncatedTraceCommandTests {
    static func run(_ arguments: [String]) throws -> LifetraceCommand.Result { try LifetraceCommand.run(arguments) }

    /// The reference workload of 20,000 events, seed 3 (43 KB, several flush groups).
    static func synthesized() throws -> (directory: String, trace: Data) {
        let directory = try ScratchDirectory.make("truncated")
        let result = try Self.run(["synth", "--events", "20000", "--seed", "3", "-o", directory + "/s3.ltrace"])
        #expect(result.status == 0, "\(result.error)")
        return (directory, try Data(contentsOf: URL(fileURLWithPath: directory + "/s3.ltrace")))
    }

    @Test("check of a trace cut inside a chunk exits 2 naming the byte, with no verdict past the cut", arguments: [400, 9000, 20000, 40000, 43000])
    func cutInsideAChunk(at cut: Int) throws {
        let (directory, whole) = try Self.synthesized()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/cut.ltrace"
        try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
        let check = try Self.run(["check", path])
        #expect(check.status == 2, "cut at \(cut): \(check.output)")
        #expect(check.output.contains("not read whole"), "cut at \(cut): \(check.output)")
        #expect(check.output.contains("truncated at byte \(cut): the file ends inside"), "cut at \(cut): \(check.output)")
        // The whole trace has no error; the part read has none either: no launch that "never
        // ends" because the app's chunk was lost while the system's went on.
        #expect(!check.output.contains("launch-watchdog"), "cut at \(cut): \(check.output)")
        #expect(!check.output.contains("error["), "cut at \(cut): \(check.output)")
        let json = try Self.run(["check", path, "--format", "json"])
        #expect(json.status == 2)
        #expect(json.output.contains("\"complete\": false"), "\(json.output.prefix(400))")
        // What was read is still reported, and the trace is bad input all the same.
        let report = try Self.run(["report", path])
        #expect(report.status == 2, "\(report.error)")
        #expect(report.output.contains("truncated at byte \(cut)"))
        if cut > 700 { #expect(report.output.contains("Lifetime 1"), "\(report.output.prefix(400))") }
    }

    @Test("import of a trace cut inside a chunk marks its output as missing data; of an unclosed one, does not")
    func importKeepsTheLoss() throws {
        let (directory, whole) = try Self.synthesized()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cut = directory + "/cut.ltrace"
        try whole.prefix(20000).write(to: URL(fileURLWithPath: cut))
        let imported = try Self.run(["import", cut, "-o", directory + "/imported.ltrace"])
        // Written all the same, marked; the loss is an error line, not a warning, and exit status 2.
        #expect(imported.status == 2, "\(imported.error)")
        #expect(imported.error.contains("lifetrace: \(cut): byte 633 (chunk 0 of stream app): truncated at byte 20000"))
        let check = try Self.run(["check", directory + "/imported.ltrace"])
        #expect(check.status == 2, "\(check.output)")
        #expect(check.output.contains("sealed with data missing"), "\(check.output)")
        // A closed trace imported stays whole.
        let closed = try Self.run(["import", directory + "/s3.ltrace", "-o", directory + "/closed.ltrace"])
        #expect(closed.status == 0)
        #expect(try Self.run(["check", directory + "/closed.ltrace"]).status == 0)
    }

    @Test("check of a trace that ends unclosed at a frame boundary is judged, with a note; --strict fails it")
    func unclosedAtAFrameBoundary() throws {
        let (directory, whole) = try Self.synthesized()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let info = try Self.run(["info", directory + "/s3.ltrace", "--chunks"])
        // The end of the app chunk: its group's end (app is the last stream), before the group
        // order frame.
        let ends = info.output.split(separator: "\n").compactMap { line -> Int? in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count == 9, fields[0] == "app", let offset = Int(fields[3]), let stored = Int(fields[8]) else { return nil }
            return offset + stored
        }
        let cut = try #require(ends.last, "\(info.output)")
        let path = directory + "/unclosed.ltrace"
        try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
        let check = try Self.run(["check", path])
        #expect(check.status == 0, "\(check.output)")
        #expect(check.output.contains("not closed: no end-of-trace record (truncated at byte \(cut))"), "\(check.output)")
        #expect(try Self.run(["check", "--strict", path]).status == 2)
    }
}
