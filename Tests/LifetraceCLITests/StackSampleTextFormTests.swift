import Foundation
import LifetraceTestSupport
import Testing

/// The stack samples of a text trace end to end (`Samples/stacks/unmarked-heavy-launch.jsonl`, the
/// sample app's unmarked heavy launch, symbolicated and dumped): `check` blames the function,
/// `import` and `dump` carry the samples both ways, and the rows of `report --format ndjson`
/// carry each stall's stack-sample blame.
@Suite struct StackSampleTextFormTests {
    static let sample = FormatCommandsTests.samples + "stacks/unmarked-heavy-launch.jsonl"
    static let function = "static SpellingDictionary.warm(notes:minimumDuration:)"
    /// Every sample's innermost in-app frame is the function (the protocol witness the compiler
    /// made for the loop is not the app's source), and most were in the iterator it ran.
    static let blame = "31 of 31 stack samples in \(function) (SpellingDictionary.swift:18), most in IndexingIterator.next()"

    @Test func checkOfTheTextTraceNamesTheFunction() throws {
        let check = try LifetraceCommand.run(["check", Self.sample])
        #expect(check.status == 1)
        #expect(check.output.contains("Stack samples: \(Self.blame)."), "\(check.output)")
    }

    @Test func importAndDumpCarryTheSamplesBothWays() throws {
        let directory = try FormatCommandsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let binary = directory + "/lab.ltrace"
        #expect(try LifetraceCommand.run(["import", Self.sample, "-o", binary]).status == 0)
        let dumped = try LifetraceCommand.run(["dump", binary])
        #expect(dumped.status == 0)
        #expect(dumped.output == (try String(contentsOfFile: Self.sample, encoding: .utf8)))
        // The same analysis and the same folded stacks from either form.
        func check(_ path: String) throws -> String {
            try LifetraceCommand.run(["check", path, "--format", "json"]).output.replacingOccurrences(of: path, with: "TRACE")
        }
        let text = try check(Self.sample)
        #expect(text.contains("\"stallSamples\""))
        #expect(try check(binary) == text)
        for (path, name) in [(Self.sample, "text"), (binary, "binary")] {
            #expect(try LifetraceCommand.run(["export", path, "--format", "folded", "-o", "\(directory)/\(name).folded"]).status == 0)
        }
        let folded = try String(contentsOfFile: directory + "/text.folded", encoding: .utf8)
        #expect(folded.contains(Self.function))
        #expect(try String(contentsOfFile: directory + "/binary.folded", encoding: .utf8) == folded)
    }

    @Test func theTraceRowCarriesEachStallsStackSampleBlame() throws {
        let report = try LifetraceCommand.run(["report", "--format", "ndjson", Self.sample])
        #expect(report.status == 0)
        let rows = try report.output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let trace = try #require(rows.last)
        #expect(trace["row"] as? String == "trace")
        #expect(trace["schema"] as? Int == 1)
        let stalls = try #require(trace["stallSamples"] as? [[String: Any]])
        #expect(stalls.count == 1)
        let stall = try #require(stalls.first)
        #expect(Array(stall.keys).sorted() == ["blame", "blameSamples", "dur", "function", "leaf", "location", "samples", "ts"])
        #expect(stall["function"] as? String == Self.function)
        #expect(stall["location"] as? String == "SpellingDictionary.swift:18")
        #expect(stall["samples"] as? Int == 31)
        #expect(stall["blameSamples"] as? Int == 31)
        #expect(stall["leaf"] as? String == "IndexingIterator.next()")
        #expect(stall["blame"] as? String == Self.blame)
        // The launch-stall violation and the lifetime's stall are the ones the samples blame.
        let lifetime = try #require(rows.first { $0["row"] as? String == "lifetime" })
        let longest = (lifetime["stalls"] as? [String: Any])?["longest"] as? Int
        #expect(longest == stall["dur"] as? Int)
    }

    @Test func aTraceWithoutSamplesHasNoStallSamplesInItsRows() throws {
        let report = try LifetraceCommand.run(["report", "--format", "ndjson", FormatCommandsTests.samples + "traces/launch-stall.fail.jsonl"])
        #expect(report.status == 0)
        #expect(report.output.contains("\"row\":\"trace\""))
        #expect(!report.output.contains("stallSamples"))
    }
}
