import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceReports
import LifetraceTestSupport
import Testing

/// The page ranks launches within their kind: a background launch, timed to the end of
/// didFinishLaunching, is never ranked against cold launches, which Xcode Organizer's launch
/// time is about.
@Suite struct LaunchKindRankingTests {
    /// A cold launch of 300 ms, a background launch of 1.515 s, a cold launch of 500 ms.
    static let trace = """
        {"ts":0,"type":"launch","reason":"user"}
        {"ts":1000000,"type":"callback","name":"willFinishLaunching","dur":5000000}
        {"ts":10000000,"type":"callback","name":"didFinishLaunching","dur":200000000}
        {"ts":220000000,"type":"callback","name":"didBecomeActive","dur":2000000}
        {"ts":300000000,"type":"frame","first":true}
        {"ts":1000000000,"type":"exit","code":0}
        {"ts":2000000000,"type":"launch","reason":"fetch","background":true}
        {"ts":2001000000,"type":"callback","name":"willFinishLaunching","dur":5000000}
        {"ts":2010000000,"type":"callback","name":"didFinishLaunching","dur":1500000000}
        {"ts":4000000000,"type":"exit","code":0}
        {"ts":5000000000,"type":"launch","reason":"user"}
        {"ts":5001000000,"type":"callback","name":"willFinishLaunching","dur":5000000}
        {"ts":5010000000,"type":"callback","name":"didFinishLaunching","dur":400000000}
        {"ts":5420000000,"type":"callback","name":"didBecomeActive","dur":2000000}
        {"ts":5500000000,"type":"frame","first":true}
        {"ts":6000000000,"type":"exit","code":0}

        """

    static func report() throws -> TraceHTMLReport {
        let path = try ScratchDirectory.make("kinds") + "/kinds.jsonl"
        try trace.write(toFile: path, atomically: true, encoding: .utf8)
        return try TraceHTMLReport.make(path: path, options: AnalysisOptions())
    }

    @Test func launchesAreRankedWithinTheirKind() throws {
        let report = try Self.report()
        let analysis = report.analysis
        #expect(analysis.lifetimes.map(\.launch.kind) == [.cold, .background, .cold])
        #expect(WorstFirst.launchKinds(analysis) == [.cold, .background])
        #expect(WorstFirst.slowestLaunches(analysis, kind: .cold, limit: 10).map(\.index) == [2, 0])
        #expect(WorstFirst.slowestLaunches(analysis, kind: .background, limit: 10).map(\.index) == [1])
        // The slowest of each kind first, listed by kind: the 1.5 s background launch does not
        // push the cold ones down.
        #expect(WorstFirst.zoomedLaunches(analysis, limit: 8).map(\.index) == [2, 0, 1])
        #expect(WorstFirst.zoomedLaunches(analysis, limit: 2).map(\.index) == [2, 1])
        let html = report.html
        let cold = try #require(html.range(of: "<h3 id=\"slowest-launches\">Slowest cold launches (2 of 2)</h3>"))
        let background = try #require(html.range(of: "<h3 id=\"slowest-background-launches\">Slowest background launches (1 of 1)</h3>"))
        #expect(cold.upperBound < background.lowerBound)
        // Rank 1 of the cold table is lifetime 3 (500 ms), not the background launch.
        let coldTable = html[cold.upperBound..<background.lowerBound]
        #expect(coldTable.contains("<tr><td class=\"num\">1</td><td data-v=\"3\">"), "\(coldTable)")
        #expect(coldTable.contains("<tr><td class=\"num\">2</td><td data-v=\"1\">"), "\(coldTable)")
        #expect(!coldTable.contains("<td data-v=\"2\">"), "\(coldTable)")
        let views = report.canvas.windows.filter { $0.anchor.hasPrefix("launch-") }.map(\.title)
        #expect(views == ["Launch of lifetime 3 (cold)", "Launch of lifetime 1 (cold)", "Launch of lifetime 2 (background)"])
    }
}
