import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceRunner

/// Writes the rows of `report --format ndjson` (``LifetimeRow``, then ``TraceRow``) for traces
/// analysed on every core, each row written as its lifetime ends.
public enum TraceRows {
    /// Analyses `paths` and writes their rows to `output` in path order, one JSON object per
    /// line. A trace that cannot be read gets an error row and the others go on; `failed` is
    /// called on the calling thread with each such trace's error, `recovered` with the problems
    /// of each trace its reader recovered from. Returns the number of traces that could not be
    /// read.
    @discardableResult
    public static func write(
        _ paths: [String], options: AnalysisOptions, to output: StagedOutputFile,
        failed: (TraceError) -> Void = { _ in }, recovered: ([TraceError]) -> Void = { _ in }
    ) throws(TraceError) -> Int {
        var streaming = options
        streaming.keepsLifetimes = false
        let options = streaming
        var unreadable = 0
        try TraceInputs.inOrder(paths: paths, output: output) { path, alone, spool in
            let result = Result { () throws(TraceError) in
                try TraceInputs.analyze(path: path, options: options, prefetch: alone) { metadata, lifetime, violations, omitted in
                    let row = LifetimeRow(
                        path: path, metadata: metadata, lifetime: lifetime, violations: violations, omitted: omitted)
                    spool.write { bytes in
                        row.json.write(to: &bytes)
                        bytes.append(UInt8(ascii: "\n"))
                    }
                }
            }
            spool.write(TraceRow(result, path: path).json.rendered() + "\n")
            return result
        } emit: { result, spool throws(TraceError) in
            try spool.copy(to: output)
            switch result {
            case .failure(let error):
                unreadable += 1
                failed(error)
            case .success(let analysis):
                if !analysis.issues.isEmpty { recovered(analysis.issues) }
            }
        }
        return unreadable
    }
}
