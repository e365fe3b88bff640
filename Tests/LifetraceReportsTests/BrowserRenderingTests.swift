import Foundation
import LifetraceAnalysis
import LifetraceReports
import Testing

/// Renders the HTML report in headless Chromium and checks the screenshot: not blank, and the
/// lane colours of the style sheet are there (the states, busy intervals, callbacks). Skipped
/// when Chromium is missing, except under CI (`CI` set), where a missing browser fails.
@Suite struct BrowserRenderingTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The first Chromium found on the PATH.
    static let browser: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
                return "\(directory)/\(name)"
            }
        }
        return nil
    }()

    static let underCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false

    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(.enabled(if: browser != nil || underCI, "Chromium not found (install Debian's chromium; make test does)"))
    func screenshotShowsTheLanes() throws {
        let browser = try #require(Self.browser, "CI is set and no chromium, chromium-browser or google-chrome is on the PATH")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html").path
        let picture = directory.appendingPathComponent("report.png").path
        let html = try TraceHTMLReport.make(path: Self.root + "/Samples/runs/cold-launch-scenes.jsonl", options: AnalysisOptions()).html
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        try Self.run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--screenshot=\(picture)",
            "--window-size=1400,1000", "file://\(page)",
        ])
        #expect(FileManager.default.fileExists(atPath: picture), "Chromium wrote no screenshot")
        let colours = ["s1", "s2", "s3", "busy", "cb", "sp", "task"]
        let hex = colours.map { name in HTMLStyle.colours.first { $0.name == name }!.hex }
        let check = try Self.run("/usr/bin/env", ["python3", Self.root + "/scripts/png-colours.py", picture] + hex)
        #expect(check.status == 0)
        let result = try #require(
            try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any], "no result from the PNG check")
        #expect(result["width"] as? Int == 1400)
        #expect((result["distinct"] as? Int ?? 0) > 50, "the page looks blank")
        #expect((result["nonWhite"] as? Double ?? 0) > 0.05, "the page looks blank")
        let counts = result["counts"] as? [String: Int] ?? [:]
        for (name, colour) in zip(colours, hex) {
            // A lane drawn at least a few pixels wide over a 12 px row.
            #expect((counts[colour] ?? 0) >= 24, "lane colour \(name) (\(colour)) missing from the screenshot")
        }
    }

    /// The page with the search applied from the address, as Chromium leaves the document.
    static func domAfterScripts(_ html: String, fragment: String) throws -> String {
        let browser = try #require(Self.browser, "CI is set and no chromium, chromium-browser or google-chrome is on the PATH")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-browser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html").path
        try html.write(toFile: page, atomically: true, encoding: .utf8)
        return try Self.run(browser, [
            "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://\(page)#\(fragment)",
        ]).output
    }

    @Test(.enabled(if: browser != nil || underCI, "Chromium not found (install Debian's chromium; make test does)"))
    func findByNameOutlinesTheMatchingBars() throws {
        let html = try TraceHTMLReport.make(path: Self.root + "/Samples/traces/launch-stall.fail.jsonl", options: AnalysisOptions()).html
        let found = try Self.domAfterScripts(html, fragment: "find=loadDatabase")
        #expect(found.contains("<body class=\"finding\">"))
        #expect(found.contains("<input type=\"search\" id=\"find\""))
        // The signpost's bar in each view, and each stall (its title names the work).
        let count = found.components(separatedBy: "<span id=\"found\">").dropFirst().first?.prefix { $0.isNumber }
        #expect((Int(count ?? "") ?? 0) >= 3, "\(found.components(separatedBy: "<span id=\"found\">").dropFirst().first?.prefix(40) ?? "no count")")
        #expect(found.contains("class=\"sp o4 hit\""))
        #expect(found.contains("class=\"stall hit\""))
        #expect(!found.contains("class=\"s2 hit\""))
        // Nothing searched: nothing outlined, nothing dimmed.
        let plain = try Self.domAfterScripts(html, fragment: "")
        #expect(!plain.contains(" hit\""))
        #expect(!plain.contains("class=\"finding\""))
        let none = try Self.domAfterScripts(html, fragment: "find=noSuchName")
        #expect(none.contains("<span id=\"found\">0 bars match</span>"))
    }
}
