import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd

/// Finds the sample traces under `Samples/traces/` and analyses them through the JSONL reader.
public enum SampleTraces {
    public static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/traces")

    public static func files(suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Every event of a sample, with its symbols.
    public static func load(_ name: String) throws -> (events: [TraceEvent], symbols: SymbolTable) {
        var reader = try JSONLTraceReader(path: path(name))
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (events, reader.symbols)
    }

    /// The analysis of a sample, streamed from the file.
    public static func analyze(_ name: String, options: AnalysisOptions = AnalysisOptions()) throws -> TraceAnalysis {
        var source = try TraceInputs.open(path: path(name))
        return try LifecycleAnalyzer.analyze(&source, path: name, options: options)
    }
}
