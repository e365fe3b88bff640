import Foundation
import LifetraceTestSupport
import Testing

/// Every export carries the stall's stack-sample blame that `check` prints, written once the
/// samples are read (`Samples/stacks/unmarked-heavy-launch.jsonl`: one stall in
/// didFinishLaunching that breaks launch-stall, whose samples blame the app's function).
@Suite struct StackBlameExportTests {
    static let sample = StackSampleTextFormTests.sample
    static let blame = StackSampleTextFormTests.blame

    /// The launch-stall message `check --format json` gives, which ends with the blame.
    static func checkMessage() throws -> String {
        let check = try LifetraceCommand.run(["check", sample, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any])
        let trace = try #require((document["traces"] as? [[String: Any]])?.first)
        let violations = try #require(trace["violations"] as? [[String: Any]])
        let stall = try #require(violations.first { $0["rule"] as? String == "launch-stall" })
        return try #require(stall["message"] as? String)
    }

    @Test func checksMessageEndsWithTheBlame() throws {
        #expect(try Self.checkMessage().hasSuffix(" Stack samples: \(Self.blame)."))
    }

    @Test func chromeJSONsStallAndViolationSayWhatCheckSays() throws {
        let export = try LifetraceCommand.run(["export", Self.sample, "--format", "chrome-json", "-o", "-"])
        #expect(export.status == 0, "\(export.error)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.output.utf8)) as? [String: Any])
        let events = try #require(document["traceEvents"] as? [[String: Any]])
        let stalls = events.filter { $0["name"] as? String == "stall" }
        #expect(stalls.count == 1)
        #expect((stalls.first?["args"] as? [String: Any])?["stack_samples"] as? String == Self.blame, "\(stalls)")
        let violation = events.first { $0["name"] as? String == "launch-stall" }
        #expect((violation?["args"] as? [String: Any])?["message"] as? String == (try Self.checkMessage()), "\(String(describing: violation))")
    }

    @Test func perfettoAndCTFCarryTheBlame() throws {
        let directory = try FormatCommandsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let perfetto = directory + "/run.perfetto-trace"
        #expect(try LifetraceCommand.run(["export", Self.sample, "--format", "perfetto", "-o", perfetto]).status == 0)
        let ctf = directory + "/ctf"
        #expect(try LifetraceCommand.run(["export", Self.sample, "--format", "ctf", "-o", ctf]).status == 0)
        let message = Array(try Self.checkMessage().utf8)
        for file in [perfetto, ctf + "/stream_0"] {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            // Strings are written whole, as UTF-8: the stall's blame, and the violation's message.
            #expect(Self.occurrences(of: Array(Self.blame.utf8), in: bytes) >= 2, "\(file)")
            #expect(Self.occurrences(of: message, in: bytes) == 1, "\(file)")
        }
        #expect(try String(contentsOfFile: ctf + "/metadata", encoding: .utf8).contains("string stack_samples;"))
    }

    static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> Int {
        guard !needle.isEmpty, haystack.count >= needle.count else { return 0 }
        var count = 0
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { count += 1 }
        }
        return count
    }
}
