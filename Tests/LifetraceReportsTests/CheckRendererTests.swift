import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

@testable import LifetraceReports

/// Every `check` format has one renderer of one shape, and the outputs that point at an event's
/// line take it from the witness, as the reader gave it, without reading the trace again.
@Suite struct CheckRendererTests {
    @Test func everyFormatHasOneRendererOfOneShape() throws {
        let check = CheckOutput(
            analyses: [try SampleTraces.analyze("background-time.fail.jsonl")], rules: .all, strict: false)
        let direct: [CheckOutput.Format: String] = [
            .text: CheckTextReport(check).document, .json: CheckJSONReport(check).document,
            .junit: JUnitReport(check).document, .github: GitHubAnnotations(check).document,
            .markdown: CheckMarkdownSummary(check).document, .sarif: SARIFReport(check).document,
        ]
        #expect(Set(direct.keys) == Set(CheckOutput.Format.allCases))
        // JUnit's suites carry when the check ran, to the second: two renders a second apart
        // differ there and nowhere else.
        func sameMoment(_ document: String?) -> String? {
            document?.replacingOccurrences(of: #"timestamp="[^"]*""#, with: #"timestamp="""#, options: .regularExpression)
        }
        for format in CheckOutput.Format.allCases {
            let rendered = check.rendered(format)
            #expect(sameMoment(rendered) == sameMoment(direct[format]), "\(format)")
            #expect(rendered.hasSuffix("\n"), "\(format)")
        }
        #expect(check.text == direct[.text])
    }

    /// The line of the text trace that holds `event`: its own, or a `callback` shorthand's.
    private static func holds(_ line: String, _ event: EventSummary) throws -> Bool {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let timestamp = try #require(object["ts"] as? Int64)
        let name = object["name"] as? String
        guard name == event.name || event.name == nil else { return false }
        if object["type"] as? String == "callback" {
            let end = timestamp + ((object["dur"] as? Int64) ?? 0)
            return (event.type == .callbackBegin && timestamp == event.timestamp)
                || (event.type == .callbackEnd && end == event.timestamp)
        }
        return object["type"] as? String == event.type.name && timestamp == event.timestamp
    }

    @Test func githubAndSARIFPointAtTheLineTheReaderGave() throws {
        var pointed = 0
        for name in SampleTraces.files(suffix: ".fail.jsonl") {
            let analysis = try SampleTraces.analyze(name)
            let lines = try String(contentsOfFile: SampleTraces.path(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let check = CheckOutput(analyses: [analysis], rules: .all, strict: false)
            let annotations = GitHubAnnotations(check).document
            let sarif = SARIFReport(check, workingDirectory: "/").document
            for violation in analysis.violations {
                let event = try #require(violation.events.last)
                let line = try #require(violation.offendingLine, "\(name): \(violation.rule.id)")
                #expect(try Self.holds(lines[line - 1], event), "\(name) line \(line): \(event)")
                #expect(annotations.contains("title=\(violation.rule.id) in \(name) line \(line)::"), "\(name)")
                #expect(sarif.contains("\"startLine\": \(line)"), "\(name)")
                pointed += 1
            }
        }
        #expect(pointed >= 18)
    }

    /// `name`, a sample text trace, written as a binary trace of many small chunks (a flush
    /// group every three events); returns its path.
    private static func binaryCopy(of name: String) throws -> String {
        var reader = try JSONLTraceReader(path: SampleTraces.path(name))
        let path = NSTemporaryDirectory() + "lifetrace-chunks-\(UUID().uuidString).ltrace"
        let writer = try TraceWriter(path: path, metadata: reader.metadata, options: .init(chunkSize: 4096))
        var count = 0
        while let event = try reader.next() {
            try writer.append(event, symbols: reader.symbols)
            count += 1
            if count % 3 == 0 { try writer.flush() }
        }
        try writer.close()
        return path
    }

    @Test func aBinaryTraceHasNoLinesButTheChunkThatHoldsTheOffendingEvent() throws {
        var pointed = 0
        for name in SampleTraces.files(suffix: ".fail.jsonl") {
            let path = try Self.binaryCopy(of: name)
            defer { unlink(path) }
            // Every chunk of the file as the reader met it, in file order, for the check below.
            var listing = try BinaryTraceReader(path: path, codec: ZstdCodec(), options: .init(collectsChunkStatistics: true))
            while try listing.next() != nil {}
            let chunks = listing.chunks
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            for prefetch in [false, true] {
                let analysis = try LifecycleAnalyzer.analyze(path: path, options: AnalysisOptions(), prefetch: prefetch)
                let check = CheckOutput(analyses: [analysis], rules: .all, strict: false)
                let annotations = GitHubAnnotations(check).document
                let sarif = SARIFReport(check, workingDirectory: "/").document
                #expect(!analysis.violations.isEmpty, "\(name)")
                #expect(!annotations.contains(" line ") && !sarif.contains("startLine"), "\(name)")
                for violation in analysis.violations {
                    let event = try #require(violation.events.last)
                    #expect(violation.offendingLine == nil && violation.events.allSatisfy { $0.line == nil && $0.chunk != nil })
                    let place = try #require(violation.offendingChunk, "\(name): \(violation.rule.id)")
                    // The region is a whole chunk frame of the file, one that holds the event.
                    let chunk = try #require(chunks.first { $0.offset == place.byteOffset }, "\(name): \(place)")
                    #expect(Int64(chunk.storedSize) == place.byteLength)
                    #expect(chunk.stream == event.stream)
                    #expect((chunk.firstTimestamp...chunk.lastTimestamp).contains(event.timestamp), "\(name): \(event)")
                    #expect(Array(bytes[Int(place.byteOffset)..<Int(place.byteOffset) + 4]) == [0x5B, 0x2A, 0x4D, 0x18])
                    #expect(annotations.contains("title=\(violation.rule.id) in \(path) chunk at byte \(place.byteOffset)::"), "\(name)")
                    #expect(sarif.contains("\"byteOffset\": \(place.byteOffset),\n"), "\(name)")
                    #expect(sarif.contains("\"byteLength\": \(place.byteLength)\n"), "\(name)")
                    pointed += 1
                }
            }
        }
        #expect(pointed >= 36)
    }
}
