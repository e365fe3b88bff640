import Foundation
import LifetraceTestSupport
import Testing

/// The pages `report DIR --format html -o FILE` writes beside the summary never replace a trace
/// being read, and nothing is written when one would.
@Suite struct RunPageInputTests {
    @Test("a run page that would replace an input trace is refused before any page is written")
    func runPageNeverReplacesAnInput() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-runpage-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/in", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/out/summary-runs", withIntermediateDirectories: true)
        let first = directory + "/in/q", second = directory + "/out/summary-runs/q.html"
        #expect(try LifetraceCommand.run(["synth", "--events", "2000", "--seed", "1", "-o", first]).status == 0)
        #expect(try LifetraceCommand.run(["synth", "--events", "2000", "--seed", "2", "-o", second]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: second))
        let result = try LifetraceCommand.run(
            ["report", "--no-config", first, second, "--format", "html", "-o", directory + "/out/summary.html"])
        #expect(result.status == 2, "\(result.error)")
        #expect(result.error.contains("the output is also an input"), "\(result.error)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: second)) == before)
        #expect(!FileManager.default.fileExists(atPath: directory + "/out/summary.html"))
    }

    @Test("a page that cannot be written leaves none of the run pages behind")
    func aPageThatCannotBeWrittenLeavesNoPages() throws {
        let directory = NSTemporaryDirectory() + "lifetrace-runpage-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/in", withIntermediateDirectories: true)
        // A legal trace name whose page name (`NAME.html`) is past the file system's 255 bytes.
        let long = String(repeating: "z", count: 240) + ".ltrace"
        for (seed, name) in [("1", "a.ltrace"), ("2", long)] {
            #expect(try LifetraceCommand.run(["synth", "--events", "2000", "--seed", seed, "-o", "\(directory)/in/\(name)"]).status == 0)
        }
        let result = try LifetraceCommand.run(
            ["report", "--no-config", directory + "/in", "--format", "html", "-o", directory + "/out/summary.html"])
        #expect(result.status == 7, "\(result.error)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/out/summary-runs")) ?? []
        #expect(left.filter { $0.hasSuffix(".html") }.isEmpty, "\(left)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/out/summary.html"))
    }
}
