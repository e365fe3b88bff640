import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

extension ReportCommand {
    /// The summary in its format; as an HTML file, with the page of each run it links to
    /// written first into the folder beside it (``RunPages``), so that its links lead somewhere
    /// from the summary's own directory. A run that cannot be read again exits 2; a page that
    /// cannot be written, 7.
    func summaryDocument(_ summary: RunSummary, options: AnalysisOptions) throws -> String {
        guard format == .html, runPages, let output, output != "-" else { return format.document(summary) }
        let pages = RunPages(summaryPath: output, traces: summary.linkedTraces)
        // Each page's file, named once: the check below and the writing use the same name.
        let files = pages.traces.compactMap { trace in pages.file(trace, summaryPath: output).map { (trace: trace, file: $0) } }
        // No page may replace a trace being read: checked for every page before any is written.
        let read = paths + pages.traces
        for (_, file) in files { try refuseOverwriting(read, with: file) }
        // Whole or not at all: a page that cannot be made removes the pages written before it.
        var written: [String] = []
        func removeWritten() { for file in written { try? FileManager.default.removeItem(atPath: file) } }
        for (trace, file) in files {
            let page: String
            do throws(TraceError) {
                page = try TraceHTMLReport.make(path: trace, options: options).html
            } catch {
                removeWritten()
                throw failure(error, writing: [])
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let staged = try StagedOutputFile(path: file)
                try staged.write(page)
                try staged.commit()
                written.append(file)
            } catch let error as TraceError {
                removeWritten()
                printError("cannot write the page of \(trace): \(error.description)")
                throw ExitStatus.outputFailed.exit
            } catch {
                removeWritten()
                printError("cannot write the page of \(trace) to \(file): \(error.localizedDescription)")
                throw ExitStatus.outputFailed.exit
            }
        }
        return summary.html(runPages: pages)
    }
}
