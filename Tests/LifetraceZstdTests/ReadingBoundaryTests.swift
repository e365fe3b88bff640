import Foundation
import Testing

/// Reading in one place: no module but the inputs module (`LifetraceRunner`, `TraceInputs.open`)
/// opens a trace file to read it. Every Swift file under `Sources/` is scanned for the entry
/// points that open one; the reports, the exports, the analysis, the codec and the command line
/// are handed what the inputs module opened.
struct ReadingBoundaryTests {
    /// The calls that open a trace file for reading: the format's readers and the file chooser,
    /// the Instruments converter handed to it, and the analysis of a file by its path.
    static func entryPoints() throws -> Regex<AnyRegexOutput> {
        try Regex(
            #"TraceFile\.open\(|BinaryTraceReader\((path|descriptor|input):|JSONLTraceReader\((path|handle):"#
                + #"|FileDescriptorHandle\.open\(|TraceInput\(|XctraceExport\.self|LifecycleAnalyzer\.analyze\(path:"#)
    }

    /// Where else an entry point may be named, and why: the readers themselves (the format module,
    /// which the app links, defines them; it opens a file only when the inputs module asks), and
    /// the in-app recorder's recovery of the trace it wrote itself (the app links neither the
    /// codec nor the inputs module: `ModuleBoundaryTests`).
    static let readersThemselves = [
        "LifetraceFormat/Reading/TraceFile.swift", "LifetraceFormat/Binary/Reading/", "LifetraceFormat/JSONL/JSONLTraceReader.swift",
    ]
    static let recorderRecovery = [
        "LifetraceRecorder/Recovery/TraceRecovery.swift", "LifetraceRecorder/Recovery/TraceRecovery+Identity.swift",
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    /// Every Swift file under `Sources/`, relative to it, with its lines that name an entry point
    /// (comment lines left out).
    static func openings() throws -> (files: Int, found: [(path: String, line: String)]) {
        let entryPoints = try entryPoints()
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var files = 0
        var found: [(String, String)] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            files += 1
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let code = line.drop { $0 == " " }
                if code.hasPrefix("//") { continue }
                if line.contains(entryPoints) { found.append((relative, String(line))) }
            }
        }
        return (files, found)
    }

    @Test("no module but the inputs module opens a trace file")
    func onlyTheInputsModuleOpensTraceFiles() throws {
        let (files, found) = try Self.openings()
        // The whole of Sources was read (hundreds of files), and the inputs module was seen opening.
        #expect(files > 300, "\(files) Swift files under \(Self.sources.path)")
        #expect(found.contains { $0.path.hasPrefix("LifetraceRunner/") })
        let elsewhere = found.filter { opening in
            !opening.path.hasPrefix("LifetraceRunner/")
                && !(Self.readersThemselves + Self.recorderRecovery).contains { opening.path.hasPrefix($0) }
        }
        #expect(elsewhere.isEmpty, "\(elsewhere.map { "\($0.path): \($0.line)" }.joined(separator: "\n"))")
    }

    @Test("the scan finds an opening wherever it is written")
    func theScanSeesCalls() throws {
        let entryPoints = try Self.entryPoints()
        for line in [
            "let source = try TraceFile.open(path: path)", "var reader = try BinaryTraceReader(path: p)",
            "try JSONLTraceReader(path: path)", "converter: XctraceExport.self)", "try LifecycleAnalyzer.analyze(path: p, options: o, prefetch: true)",
        ] {
            #expect(line.contains(entryPoints), "\(line)")
        }
        #expect(!"let source = try TraceInputs.open(path: path)".contains(entryPoints))
    }
}
