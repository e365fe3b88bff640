import Foundation
import LifetraceTestSupport
import Testing

/// Wherever a report blames a stall on its callback/signpost chain, the stack samples' blame of
/// it stands next to it (`Samples/stacks/unmarked-heavy-launch.jsonl`, whose one stall lies in
/// didFinishLaunching and breaks the launch-stall rule, and whose samples blame the function).
@Suite struct StackBlameReportTests {
    static let sample = StackSampleTextFormTests.sample
    static let blame = StackSampleTextFormTests.blame

    @Test func theTextReportsStallLineCarriesTheStackBlame() throws {
        let report = try LifetraceCommand.run(["report", Self.sample])
        #expect(report.status == 0)
        let lines = report.output.split(separator: "\n").map(String.init)
        // The stall line, not only the violation's message.
        let stall = lines.first { $0.hasPrefix("    +") && $0.contains("callback \"didFinishLaunching\"") }
        #expect(stall?.contains("callback \"didFinishLaunching\"") == true, "\(report.output)")
        #expect(stall?.contains("; \(Self.blame)") == true, "\(String(describing: stall))")
    }

    @Test func theMarkdownStallTableCarriesTheStackBlame() throws {
        let report = try LifetraceCommand.run(["report", "--format", "markdown", Self.sample])
        #expect(report.status == 0)
        let row = report.output.split(separator: "\n").first { $0.hasPrefix("| +") && $0.contains("didFinishLaunching") }
        #expect(row?.contains("31 of 31 stack samples in") == true, "\(report.output)")
        #expect(row?.contains("SpellingDictionary.swift:18") == true)
    }

    @Test func theHTMLTablesCarryTheStackBlame() throws {
        let directory = try FormatCommandsTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let html = directory + "/page.html"
        #expect(try LifetraceCommand.run(["report", Self.sample, "--format", "html", "-o", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        func table(_ id: String) -> String {
            guard let start = page.range(of: "<h3 id=\"\(id)\">") else { return "" }
            let rest = page[start.upperBound...]
            return String(rest[..<(rest.range(of: "</table>")?.upperBound ?? rest.endIndex)])
        }
        let escaped = Self.blame
        #expect(table("longest-stalls").contains("<th>stack samples</th>"))
        #expect(table("longest-stalls").contains("<td>\(escaped)</td>"), "\(table("longest-stalls"))")
        #expect(table("blamed-work").contains("<td>\(escaped)</td>"), "\(table("blamed-work"))")
        // The lifetime's own stall table too.
        #expect(page.contains("didFinishLaunching&quot;") || page.contains("didFinishLaunching\""))
        #expect(page.components(separatedBy: escaped).count >= 4, "stall table, longest stalls, blamed work, flame graph")
    }
}
