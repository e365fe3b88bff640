import Foundation
import LifetraceFormat
import LifetraceZstd

/// Turns the paths given on the command line into trace files: files as they are, directories
/// searched recursively for `.ltrace` and `.jsonl` files, in name order.
public enum TraceInputs {
    /// The file name endings that mark a trace inside a directory.
    public static let extensions = [".ltrace", ".jsonl"]

    /// The trace files named by `paths`; `-` (standard input) is kept as is.
    public static func expand(_ paths: [String]) throws(TraceError) -> [String] {
        var files: [String] = []
        for path in paths {
            if path == "-" {
                files.append(path)
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw TraceError(.io, file: path, "no such file or directory")
            }
            guard isDirectory.boolValue else {
                files.append(path)
                continue
            }
            let found = traces(in: path)
            guard !found.isEmpty else {
                throw TraceError(.io, file: path, "directory holds no traces (\(extensions.joined(separator: ", ")) files)")
            }
            files += found
        }
        return files
    }

    private static func traces(in directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard extensions.contains(where: { relative.hasSuffix($0) }) else { continue }
            let path = directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
            // Regular files only: opening a FIFO found in a directory would wait for a writer.
            var info = stat()
            if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG { found.append(path) }
        }
        return found.sorted()
    }

    /// Opens and analyses the trace at `path`.
    ///
    /// The reader is taken out of ``AnyTraceSource`` once, so that the loop is specialised for
    /// the concrete reader instead of switching (and copying the reader) at every event. With
    /// `prefetch` and more than one core, a binary trace is decoded on a second thread while it
    /// is analysed (``PrefetchingTraceReader``); callers that already analyse several traces at
    /// once on every core pass false. `lifetimeEnded` is called with the trace's metadata as
    /// each lifetime ends (``LifecycleAnalyzer/lifetimeEnded``).
    public static func analyze(
        path: String, options: AnalysisOptions, prefetch: Bool = true,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)? = nil
    ) throws(TraceError) -> TraceAnalysis {
        let source = try TraceFile.open(path: path)
        if var reader = source.binary {
            let metadata = reader.metadata
            let sink = lifetimeEnded.map { sink in { sink(metadata, $0, $1, $2) } }
            if prefetch && usableCores > 1 {
                var prefetching = PrefetchingTraceReader(reader)
                return try LifecycleAnalyzer.analyze(&prefetching, path: path, options: options, lifetimeEnded: sink)
            }
            return try LifecycleAnalyzer.analyze(&reader, path: path, options: options, lifetimeEnded: sink)
        }
        if var reader = source.jsonl {
            return try analyze(&reader, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        var reader = source.decoded!
        return try analyze(&reader, path: path, options: options, lifetimeEnded: lifetimeEnded)
    }

    /// Analyzes a text trace or a converted one (an Instruments export).
    private static func analyze<Source: TraceEventSource>(
        _ reader: inout Source, path: String, options: AnalysisOptions,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)?
    ) throws(TraceError) -> TraceAnalysis {
        let metadata = reader.metadata
        let sink = lifetimeEnded.map { sink in { sink(metadata, $0, $1, $2) } }
        return try LifecycleAnalyzer.analyze(&reader, path: path, options: options, lifetimeEnded: sink)
    }
}
