import Foundation
import LifetraceAnalysis
import LifetraceReports
import Testing

/// What the page draws comes from the analysis: a trace recorded in the app has no system view
/// (no `state` events), and a resume hang long after the launch is not one of the launch's stalls.
@Suite struct InAppPageTests {
    /// The label of the system view's row in a timeline.
    static let systemRow = ">system view</text>"

    @Test("an in-app recording's timelines have no system-view row; a recording with state events keeps it")
    func systemRowOnlyWithStateEvents() throws {
        let inApp = try TraceHTMLReportTests.html("Samples/real/home-and-back-in-app.jsonl")
        #expect(inApp.contains(">app view</text>"))
        #expect(!inApp.contains(Self.systemRow))
        let recorded = try TraceHTMLReportTests.html("Samples/real/home-and-back-state-events.jsonl")
        #expect(recorded.contains(Self.systemRow))
    }

    @Test("the lifetimes without a system view are those whose states come from the app's view")
    func lifetimesWithoutSystemView() throws {
        let root = TraceHTMLReportTests.root + "/Samples/real/"
        let inApp = try TraceHTMLReport.make(path: root + "home-and-back-in-app.jsonl", options: AnalysisOptions())
        #expect(inApp.analysis.lifetimes.map(\.hasSystemView) == [false])
        #expect(!inApp.canvas.windows.contains { $0.isUsed(TimelineRow.system) })
        let recorded = try TraceHTMLReport.make(path: root + "home-and-back-state-events.jsonl", options: AnalysisOptions())
        #expect(recorded.analysis.lifetimes.map(\.hasSystemView) == [true])
        #expect(recorded.canvas.windows.allSatisfy { $0.isUsed(TimelineRow.system) })
    }

    @Test("the launch table counts the stalls in the launch window, not a resume hang 70 s later")
    func launchTableCountsLaunchStalls() throws {
        let page = try TraceHTMLReportTests.html("Samples/real/home-and-back-in-app.jsonl")
        let start = try #require(page.range(of: "<h3 id=\"slowest-launches\">"))
        let table = page[start.upperBound...]
        let rows = String(table[..<(table.range(of: "</table>")?.lowerBound ?? table.endIndex)])
        #expect(rows.contains("<th>stalls in window</th>"))
        // The one row: rank 1, lifetime 1, cold, 100 ms, 63 ms, then the launch's stalls.
        #expect(rows.contains("<td class=\"num\">0</td><td><a href=\"#launch-1\">"), "\(rows)")
        let analysis = try TraceHTMLReport.make(
            path: TraceHTMLReportTests.root + "/Samples/real/home-and-back-in-app.jsonl", options: AnalysisOptions()
        ).analysis
        let lifetime = try #require(analysis.lifetimes.first)
        #expect(lifetime.stalls.count == 1)
        #expect(lifetime.launchStalls.isEmpty)
    }
}
