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
}
