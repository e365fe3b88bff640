import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner

/// The formats `lifetrace report` writes, and the document each is made of: for one trace its
/// report (``TraceReport``, or the page of ``TraceHTMLReport``), for several the summary over
/// the runs (``RunSummary``); rows (``TraceRows``) for any number of traces.
public enum ReportFormat: String, Sendable, CaseIterable {
    /// Plain text for a terminal.
    case text
    /// One trace: the document of `check --format json` (docs/JSON.md); several: the summary's
    /// JSON form (docs/REPORTS.md).
    case json
    /// Markdown, for a pull-request comment.
    case markdown
    /// A self-contained page with a timeline (one trace) or the summary's charts (several).
    case html
    /// One row per lifetime and one closing row per trace, for any number of traces (docs/JSON.md, "Rows").
    case ndjson

    /// Whether the output is written while the traces are read (``TraceRows``, or one trace's
    /// ``CheckJSONDocument``), rather than made whole once they are: memory then never grows
    /// with the number of lifetimes.
    public func isStreamed(singleTrace: Bool) -> Bool {
        self == .ndjson || (self == .json && singleTrace)
    }

    /// The report of the one trace at `path`, for a format that is not streamed, and the
    /// problems its reader recovered from (the report covers what was read before them).
    public func report(path: String, options: AnalysisOptions) throws(TraceError) -> (document: String, issues: [TraceError]) {
        let trace: TraceReport.Format
        switch self {
        case .html:
            let page = try TraceHTMLReport.make(path: path, options: options)
            return (page.html, page.analysis.issues)
        case .text: trace = .text
        case .markdown: trace = .markdown
        case .json, .ndjson: trace = .json
        }
        let analysis = try TraceInputs.analyze(path: path, options: options)
        return (TraceReport(analysis: analysis, options: options).rendered(trace), analysis.issues)
    }

    /// The summary over many runs in this format (rows and JSON share the summary's JSON form).
    public func document(_ summary: RunSummary) -> String {
        switch self {
        case .text: summary.text
        case .markdown: summary.markdown
        case .json, .ndjson: summary.json
        case .html: summary.html
        }
    }

    /// Writes the streamed formats (``isStreamed(singleTrace:)``) for `paths` (files, or
    /// directories of traces for rows) to `output` while they are read; `failed` is called with
    /// the error of each trace that could not be read, which the document then names, and
    /// `recovered` with the problems of each trace its reader recovered from (the document covers
    /// what was read before them). Returns how many could not be read.
    public func stream(
        _ paths: [String], options: AnalysisOptions, to output: StagedOutputFile, failed: (TraceError) -> Void,
        recovered: ([TraceError]) -> Void = { _ in }
    ) throws(TraceError) -> Int {
        if self == .ndjson {
            return try TraceRows.write(
                try TraceInputs.expand(paths), options: options, to: output, failed: failed, recovered: recovered)
        }
        return try CheckJSONDocument.stream(
            paths, options: options, strict: false, to: output, failed: failed, recovered: recovered).unreadableTraces
    }
}
