import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner

/// Converts a Lifetrace trace, with its analysis, into another tool's format, streaming: each
/// event is read, analysed and written before the next, so memory does not grow with the trace.
///
/// ```swift
/// let summary = try TraceExporter.export(path: "run.ltrace", to: .perfetto, output: "run.perfetto-trace")
/// ```
public enum TraceExporter {
    /// Exports the trace at `path` (binary or JSONL; `-` is standard input) to `output`, a file
    /// (`-` is standard output) or, for CTF, a directory.
    public static func export(
        path: String, to format: ExportFormat, output: String, options: AnalysisOptions = AnalysisOptions()
    ) throws(ExportError) -> ExportSummary {
        var source: AnyTraceSource
        do {
            source = try TraceInputs.open(path: path)
        } catch {
            throw ExportError(error)
        }
        return try export(&source, to: format, output: output, options: options)
    }

    /// Exports every event of `source` to `output`.
    public static func export<Source: TraceEventSource>(
        _ source: inout Source, to format: ExportFormat, output: String, options: AnalysisOptions = AnalysisOptions()
    ) throws(ExportError) -> ExportSummary {
        // The exports stream: no lifetime report is kept past its lifetime's end.
        var options = options
        options.keepsLifetimes = false
        var summary = try write(&source, to: format, output: output, options: options)
        summary.issues = source.issues
        return summary
    }

    private static func write<Source: TraceEventSource>(
        _ source: inout Source, to format: ExportFormat, output: String, options: AnalysisOptions
    ) throws(ExportError) -> ExportSummary {
        switch format {
        case .perfetto:
            let file = try ExportOutputFile(path: output)
            var builder = TimelineBuilder(writer: PerfettoTraceWriter(output: file), options: options)
            try replay(&source, into: &builder, options: options) { stacks, names, builder in
                if let names { builder.drawing.writer.samples = (stacks, names) }
            }
            return summary(of: builder, format: format, bytes: file.byteCount)
        case .chromeJSON:
            let file = try ExportOutputFile(path: output)
            var builder = TimelineBuilder(writer: ChromeTraceWriter(output: file), options: options)
            try replay(&source, into: &builder, options: options)
            return summary(of: builder, format: format, bytes: file.byteCount)
        case .ctf:
            return try exportCTF(&source, directory: output, options: options)
        case .folded:
            return try FoldedStacks.export(&source, output: output, options: options)
        }
    }

    private static func replay<Source: TraceEventSource, Writer: TimelineRecordWriter>(
        _ source: inout Source, into builder: inout TimelineBuilder<Writer>, options: AnalysisOptions,
        beforeFinish: (SampledStacks, TraceSymbolNames?, inout TimelineBuilder<Writer>) -> Void = { _, _, _ in }
    ) throws(ExportError) {
        try builder.start(metadata: source.metadata)
        while let event = try next(&source) {
            try builder.consume(event, symbols: source.symbols)
        }
        let (stacks, names) = samples(of: source, options: options)
        beforeFinish(stacks, names, &builder)
        try builder.finish(symbols: source.symbols, stacks: stacks, names: names)
    }

    /// The reader's stack samples, read with the events (known once the last event is), and
    /// their frames' names (symbolicated once, for the stalls' blame and the samples written),
    /// nil without samples.
    private static func samples<Source: TraceEventSource>(
        of source: Source, options: AnalysisOptions
    ) -> (SampledStacks, TraceSymbolNames?) {
        let stacks = source.sampledStacks
        return (stacks, stacks.samples.isEmpty ? nil : TraceSymbolNames(stacks: stacks, options: options))
    }

    private static func summary<Writer: TimelineRecordWriter>(
        of builder: TimelineBuilder<Writer>, format: ExportFormat, bytes: Int64
    ) -> ExportSummary {
        ExportSummary(
            format: format, eventCount: builder.analyzer.eventCount, recordCount: builder.recordCount,
            violationCount: builder.analyzer.violations.count + builder.analyzer.omittedViolations.values.reduce(0, +), lifetimeCount: builder.analyzer.lifetimesEnded,
            byteCount: bytes)
    }

    /// Exports to a CTF directory. A directory the export created is removed again when the
    /// export fails or is stopped by a signal (its staged files are removed first).
    private static func exportCTF<Source: TraceEventSource>(
        _ source: inout Source, directory: String, options: AnalysisOptions
    ) throws(ExportError) -> ExportSummary {
        var existing = stat()
        let creates = stat(directory, &existing) != 0
        let cleanup = creates ? OutputCleanup.removeOnSignal(emptyDirectory: directory) : nil
        defer { if let cleanup { OutputCleanup.cancel(cleanup) } }
        do {
            return try writeCTF(&source, directory: directory, options: options)
        } catch {
            if creates { rmdir(directory) }
            throw error
        }
    }

    private static func writeCTF<Source: TraceEventSource>(
        _ source: inout Source, directory: String, options: AnalysisOptions
    ) throws(ExportError) -> ExportSummary {
        var writer = try CTFTraceWriter(directory: directory, metadata: source.metadata)
        var analyzer = LifecycleAnalyzer(options: options, metadata: source.metadata)
        while let event = try next(&source) {
            // The event's own record first, then what the analysis derived from it.
            try writer.append(event, symbols: source.symbols)
            try analyzer.consume(event, symbols: source.symbols, into: &writer)
        }
        _ = try analyzer.finish(symbols: source.symbols, into: &writer)
        let (stacks, names) = samples(of: source, options: options)
        try writer.finish(stacks: stacks, names: names)
        return ExportSummary(
            format: .ctf, eventCount: analyzer.eventCount, recordCount: writer.recordCount,
            violationCount: analyzer.violations.count + analyzer.omittedViolations.values.reduce(0, +), lifetimeCount: analyzer.lifetimesEnded,
            byteCount: writer.byteCount)
    }

    private static func next<Source: TraceEventSource>(_ source: inout Source) throws(ExportError) -> TraceEvent? {
        do {
            return try source.next()
        } catch {
            throw ExportError(error)
        }
    }
}
