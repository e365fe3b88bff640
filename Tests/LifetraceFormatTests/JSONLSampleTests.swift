import Foundation
import LifetraceOutput
import Testing

@testable import LifetraceFormat
import LifetraceSynthesis

/// The sample runs under `Samples/runs/`.
enum SampleRuns {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/runs")

    static var paths: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { directory.appendingPathComponent($0).path }
    }
}

@Suite struct JSONLSampleTests {
    @Test func thereAreSampleRuns() {
        #expect(SampleRuns.paths.count >= 3)
    }

    @Test(arguments: SampleRuns.paths)
    func samplesAreCanonical(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let rewritten = try canonicalRewrite(bytes, name: path)
        #expect(rewritten == String(decoding: bytes, as: UTF8.self))
    }

    @Test func synthesizedTextReadsBackAsTheSameEvents() throws {
        var synthesizer = TraceSynthesizer(eventCount: 20_000, seed: 11)
        var text: [UInt8] = []
        var events: [TraceEvent] = []
        JSONLTraceWriter.encode(synthesizer.metadata, into: &text)
        while let event = synthesizer.next() {
            events.append(event)
            JSONLTraceWriter.encode(event, symbols: synthesizer.symbols, into: &text)
        }
        var reader = try JSONLTraceReader(bytes: text, name: "synth.jsonl")
        #expect(reader.metadata == synthesizer.metadata)
        var index = 0
        while let event = try reader.next() {
            guard index < events.count else { break }
            let original = events[index]
            #expect(event.timestamp == original.timestamp && event.stream == original.stream && event.thread == original.thread)
            #expect(JSONLTraceWriter.line(for: event, symbols: reader.symbols)
                == JSONLTraceWriter.line(for: original, symbols: synthesizer.symbols))
            index += 1
        }
        #expect(index == events.count)
    }
}
