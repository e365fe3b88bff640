import Foundation
import LifetraceAnalysis
import LifetraceExport
import LifetraceFormat
import LifetraceReports
import LifetraceRunner

/// Pushes one fuzz input through the commands' own code, as a file on disk: the input is read as
/// whichever kind of trace it looks like, imported into a binary trace that must read back with
/// the same events, analysed, and rendered or exported. The property is the one the commands
/// promise: no crash, no hang, bounded memory, and every error a ``TraceError`` with a location.
public enum PipelineHarness {
    /// A directory of this process's own, for the input, the imported trace and a CTF export.
    static let directory: String = {
        let path = NSTemporaryDirectory() + "lifetrace-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Writes `bytes` to the input file and returns its path, or nil when the input is not a
    /// trace of either kind (nothing after the readers would see it).
    public static func stage(_ data: UnsafePointer<UInt8>, _ size: Int) -> String? {
        let bytes = UnsafeBufferPointer(start: data, count: size)
        guard TraceFile.kind(of: bytes.prefix(TraceFileSniff.length)) != nil else { return nil }
        let path = directory + "/input"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
            fatalError("cannot write the fuzz input to \(path)")
        }
        return path
    }

    /// Imports the trace at `path` into a binary trace, as `lifetrace import` does, and reads that
    /// back: it must hold exactly the events the input gave.
    public static func importAndReread(_ path: String) {
        let output = directory + "/imported.ltrace"
        var written = 0
        do throws(TraceError) {
            var source = try TraceInputs.open(path: path)
            let writer = try TraceWriter(path: output, metadata: source.metadata)
            while let event = try source.next() {
                try writer.append(event, symbols: source.symbols)
                written += 1
            }
            try writer.close()
        } catch {
            expectLocated(error)
            return
        }
        do throws(TraceError) {
            var reread = try BinaryTraceReader(path: output)
            var count = 0
            while try reread.next() != nil { count += 1 }
            guard count == written, reread.issues.isEmpty else {
                fatalError("imported trace reads back \(count) events of \(written), issues \(reread.issues)")
            }
        } catch {
            fatalError("imported trace does not read back: \(error)")
        }
    }

    /// Analyses the trace at `path` and renders every format of `check`, `report` (one trace and
    /// a summary) and `diff`.
    public static func analyzeAndRender(_ path: String) {
        let options = AnalysisOptions(violationLimit: 50)
        let analysis: TraceAnalysis
        do throws(TraceError) {
            analysis = try LifecycleAnalyzer.analyze(path: path, options: options, prefetch: false)
        } catch {
            expectLocated(error)
            return
        }
        for strict in [false, true] {
            let output = CheckOutput(analyses: [analysis], rules: options.rules, strict: strict)
            for format in CheckOutput.Format.allCases { consume(output.rendered(format)) }
        }
        let report = TraceReport(analysis: analysis, options: options)
        for format in TraceReport.Format.allCases { consume(report.rendered(format)) }
        do throws(TraceError) {
            consume(try TraceHTMLReport.make(path: path, options: options, buckets: 100).html)
        } catch {
            expectLocated(error)
        }
        let facts = RunFacts(analysis)
        let summary = RunSummary(runs: [facts, facts])
        consume(summary.text + summary.markdown + summary.json + summary.html)
        let comparison = RunComparison(baseline: [facts, facts], candidate: [facts, facts], gate: ComparisonGate())
        consume(comparison.text + comparison.json + comparison.markdown)
    }

    /// Exports the trace at `path` in every format: streams to `/dev/null`, CTF to a directory.
    public static func exportAll(_ path: String) {
        let options = AnalysisOptions(violationLimit: 50)
        for format in ExportFormat.allCases {
            let output = format == .ctf ? directory + "/export.ctf" : "/dev/null"
            do throws(ExportError) {
                _ = try TraceExporter.export(path: path, to: format, output: output, options: options)
            } catch {
                guard error.kind == .input else { fatalError("export could not write \(output): \(error)") }
            }
        }
    }

    /// Every error the readers throw names where: a line and column, or a byte offset.
    private static func expectLocated(_ error: TraceError) {
        switch error.location {
        case .line(let line, let column) where line >= 1 && column >= 1: return
        case .byte(let offset, _) where offset >= 0: return
        case .file where error.kind == .unknownInput || error.kind == .io: return
        default: fatalError("error without a location: \(error)")
        }
    }

    /// Keeps the optimiser from dropping a rendering.
    @inline(never)
    private static func consume(_ text: String) {
        if text.utf8.count == Int.max { print(text) }
    }
}

/// How much of an input `TraceFile` looks at to tell its kind.
enum TraceFileSniff {
    static let length = 4096
}
