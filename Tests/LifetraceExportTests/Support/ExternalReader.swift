import Foundation
import Testing

/// The independent programs the export tests read exports with, and how to run them.
///
/// A reader that is missing skips its tests locally; under CI (`CI` set) the tests run anyway
/// and fail, so a CI machine without `make test`'s installs cannot pass by skipping.
enum ExternalReader {
    /// Whether the tests run under CI.
    static var isCI: Bool { ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false }

    /// babeltrace2, Debian's CTF reader.
    static let babeltrace = executable("babeltrace2")

    /// python3, for the Perfetto protos and `json`.
    static let python = executable("python3")

    /// Whether the `perfetto` package's official trace protos import.
    static let hasPerfettoProtos: Bool = {
        guard let python else { return false }
        return run(python, ["-c", "import perfetto.protos.perfetto.trace.perfetto_trace_pb2"]).status == 0
    }()

    /// Whether the babeltrace2 tests should run.
    static var babeltraceTestsEnabled: Bool { babeltrace != nil || isCI }

    /// Whether the Perfetto reader tests should run.
    static var perfettoTestsEnabled: Bool { hasPerfettoProtos || isCI }

    /// The repository's root (for scripts/readers).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `executable` with `arguments`; standard output and error go through temporary files
    /// (no pipe to fill up while the reader prints a large trace).
    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let base = NSTemporaryDirectory() + "lifetrace-reader-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        guard let output = FileHandle(forWritingAtPath: base + ".out"),
            let error = FileHandle(forWritingAtPath: base + ".err")
        else { return (-1, "", "cannot create temporary files") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = error
        do {
            try process.run()
        } catch {
            return (-1, "", "cannot run \(executable): \(error)")
        }
        process.waitUntilExit()
        try? output.close()
        try? error.close()
        let printed = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        let complaints = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
        return (process.terminationStatus, printed, complaints)
    }

    private static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Records a failure naming the missing reader and how `make test` installs it.
    static func requireMissing(_ what: String) {
        Issue.record("\(what) is missing: `make test` installs it (scripts/ensure-deps.sh); under CI a missing reader fails")
    }
}
