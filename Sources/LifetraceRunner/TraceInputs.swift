import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceZstd

/// What the analysis needs from the file system, kept out of the analysis module: the paths given
/// on the command line turned into trace files (files as they are, directories searched
/// recursively for `.ltrace` and `.jsonl` files, in name order), the cores this process may use,
/// and the batches of traces analysed side by side (ParallelAnalysis.swift).
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

    /// The traces under `directory`, recursively, in name order.
    ///
    /// The walk goes from directory descriptor to directory descriptor (`openat`), so that it
    /// reaches entries whose whole path is longer than PATH_MAX. Regular files only: opening a
    /// FIFO found in a directory would wait for a writer. An entry that cannot be looked at or
    /// read (a dangling symbolic link, a path longer than PATH_MAX, a directory without
    /// permission) is kept: opening it fails with its own error, so the command names it and
    /// exits 2 instead of judging the directory without it. Symbolic links to directories are not
    /// followed (a link can make a cycle).
    private static func traces(in directory: String) -> [String] {
        let base = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        var found: [String] = []
        let descriptor = Foundation.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return [directory] }
        walk(descriptor, path: base, into: &found)
        return found.sorted()
    }

    private static func walk(_ descriptor: Int32, path: String, into found: inout [String]) {
        guard let stream = fdopendir(descriptor) else {
            close(descriptor)
            found.append(path)
            return
        }
        defer { closedir(stream) }
        let parent = dirfd(stream)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            let full = path + "/" + name
            let isTrace = extensions.contains { name.hasSuffix($0) }
            var info = stat()
            guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                if isTrace { found.append(full) }
                continue
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                let child = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
                if child < 0 { found.append(full) } else { walk(child, path: full, into: &found) }
            case S_IFLNK:
                guard isTrace else { continue }
                // A link to a regular file is that file; a dangling link cannot be read.
                if fstatat(parent, name, &info, 0) != 0 || info.st_mode & S_IFMT == S_IFREG { found.append(full) }
            case S_IFREG:
                if isTrace { found.append(full) }
            default:
                continue
            }
        }
    }

    /// Opens and analyses the trace at `path` (``LifecycleAnalyzer/analyze(path:options:prefetch:lifetimeEnded:)``).
    /// With `prefetch` and more than one core this process may use, a binary trace is decoded on
    /// a second thread while it is analysed; callers that already analyse several traces at once
    /// on every core pass false, and their analyses take turns holding a large name table
    /// (``NameTableTurns``, `turns`). `lifetimeEnded` is called with the trace's metadata as each
    /// lifetime ends (``LifecycleAnalyzer/lifetimeEnded``).
    public static func analyze(
        path: String, options: AnalysisOptions, prefetch: Bool = true, turns: NameTableTurns = .shared,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)? = nil
    ) throws(TraceError) -> TraceAnalysis {
        let clock = ContinuousClock()
        let start = clock.now
        var analysis: TraceAnalysis
        if prefetch {
            analysis = try LifecycleAnalyzer.analyze(
                path: path, options: options, prefetch: usableCores > 1, lifetimeEnded: lifetimeEnded)
        } else {
            // Given back once the reader and its table are gone (they live in `analyzeTakingTurns`).
            let turn = NameTableTurn(turns)
            defer { turn.end() }
            analysis = try analyzeTakingTurns(path: path, options: options, turn: turn, lifetimeEnded: lifetimeEnded)
        }
        analysis.checkDuration = start.duration(to: clock.now)
        return analysis
    }

    /// Analyses a trace side by side with others: past a small name table it waits for its turn.
    private static func analyzeTakingTurns(
        path: String, options: AnalysisOptions, turn: NameTableTurn,
        lifetimeEnded: ((TraceMetadata, LifetimeReport, ArraySlice<Violation>, [Rule: Int]) -> Void)?
    ) throws(TraceError) -> TraceAnalysis {
        let source = try open(path: path)
        if let reader = source.binary {
            var taking = TurnTakingSource(base: reader, turn: turn)
            return try LifecycleAnalyzer.analyzeWithSamples(&taking, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        if let reader = source.jsonl {
            var taking = TurnTakingSource(base: reader, turn: turn)
            return try LifecycleAnalyzer.analyzeWithSamples(&taking, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        if let reader = source.decoded {
            var taking = TurnTakingSource(base: reader, turn: turn)
            return try LifecycleAnalyzer.analyzeWithSamples(&taking, path: path, options: options, lifetimeEnded: lifetimeEnded)
        }
        var taking = TurnTakingSource(base: source, turn: turn)
        return try LifecycleAnalyzer.analyzeWithSamples(&taking, path: path, options: options, lifetimeEnded: lifetimeEnded)
    }
}
