import Foundation
import LifetraceRunner

/// The MetricKit payloads among the paths `history add` is given, told by their content
/// (docs/HISTORY.md, "MetricKit"): a file that is a payload, and each payload file in a
/// directory (any name; a `.json` file there that is not valid JSON is a malformed payload). What
/// is left is analysed as traces: the other files, and the directories that hold traces.
public enum MetricKitFiles {
    /// The most files looked at under one directory, so that a directory given by mistake (`/`)
    /// costs a bounded walk.
    static let directoryFileLimit = 100_000

    /// The payloads read from `paths`, and the paths left for traces. The first malformed
    /// payload refuses all.
    public static func sort(_ paths: [String]) throws(MetricKitReader.Malformed) -> (payloads: [MetricKitPayload], traces: [String]) {
        var payloads: [MetricKitPayload] = []
        var traces: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                traces.append(path)
                continue
            }
            guard isDirectory.boolValue else {
                // Only a regular file is opened here: a FIFO would block (the trace reader names it).
                if isRegular(path), case .payload(let payload) = try MetricKitReader.read(path: path) {
                    payloads.append(payload)
                } else {
                    traces.append(path)
                }
                continue
            }
            var found = 0
            for file in candidates(in: path) {
                if case .payload(let payload) = try MetricKitReader.read(path: file) {
                    payloads.append(payload)
                    found += 1
                }
            }
            // A directory of payloads only is not searched for traces (it would be an error that
            // it holds none); one that holds both, or neither, is.
            if found == 0 || (try? TraceInputs.expand([path])) != nil { traces.append(path) }
        }
        return (payloads, traces)
    }

    /// The regular files under `directory` that are not traces, in name order.
    private static func candidates(in directory: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        var looked = 0
        while let relative = walk.nextObject() as? String, looked < directoryFileLimit {
            looked += 1
            // The name first: a trace is never looked into here, nor its attributes read.
            guard !TraceInputs.extensions.contains(where: relative.hasSuffix),
                (walk.fileAttributes?[.type] as? FileAttributeType) == .typeRegular
            else { continue }
            files.append((directory as NSString).appendingPathComponent(relative))
        }
        return files.sorted()
    }

    /// Whether `path`, its links followed, is a regular file: one `stat`, where the file's
    /// attributes would look up its owner's and group's names (the password and group files).
    private static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
