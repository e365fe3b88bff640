import Foundation
import LifetraceTestSupport
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

    /// Runs `executable` with `arguments` (``ChildProcess``); a program that cannot start gives
    /// status -1 and says why.
    static func run(_ executable: String, _ arguments: [String]) -> ChildProcess.Result {
        do {
            return try ChildProcess.run(executable, arguments)
        } catch {
            return ChildProcess.Result(status: -1, output: "", error: "cannot run \(executable): \(error)")
        }
    }

    private static func executable(_ name: String) -> String? { ChildProcess.onPath(name) }

    /// Records a failure naming the missing reader and how `make test` installs it.
    static func requireMissing(_ what: String) {
        Issue.record("\(what) is missing: `make test` installs it (scripts/ensure-deps.sh); under CI a missing reader fails")
    }
}
