import Foundation

extension ChildProcess {
    /// What a run printed, how it ended, and the most memory it held resident.
    public struct MeasuredResult: Sendable {
        /// What the run printed and how it ended.
        public var result: Result
        /// The child's peak resident set, in bytes.
        public var peakResidentBytes: Int
    }

    /// Runs `executable` with `arguments` as ``run(_:_:input:environment:output:)`` does, and
    /// measures its peak resident memory from the kernel's account of that one process.
    ///
    /// Resident memory counts what the process touched, whatever the machine's core count,
    /// stack limit or allocator arenas reserve (a limit on the data segment, `ulimit -d`, counts
    /// those reservations too, so it tells two runs apart only on the machine it was tuned on).
    ///
    /// The kernel carries a process's peak across `fork` and `execve`: a child spawned straight
    /// from this (large) test process would report this process's peak when that is higher. So a
    /// small Python process starts the child and reads its `ru_maxrss` from `wait4`.
    public static func measuringPeakMemory(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> MeasuredResult {
        let peakFile = NSTemporaryDirectory() + "lifetrace-peak-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: peakFile) }
        let script = """
            import os, subprocess, sys
            child = subprocess.Popen(sys.argv[2:])
            _, status, usage = os.wait4(child.pid, 0)
            with open(sys.argv[1], "w") as peak:
                peak.write(str(usage.ru_maxrss))
            sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else os.WTERMSIG(status))
            """
        guard let python = onPath("python3") else {
            throw CocoaError(.executableNotLoadable, userInfo: [NSLocalizedDescriptionKey: "python3 is not on PATH"])
        }
        let result = try run(python, ["-c", script, peakFile, executable] + arguments, environment: environment)
        guard let text = try? String(contentsOfFile: peakFile, encoding: .utf8), let kibibytes = Int(text) else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no peak memory measured: \(result.error)"])
        }
        // Linux gives ru_maxrss in KiB.
        return MeasuredResult(result: result, peakResidentBytes: kibibytes * 1024)
    }
}
