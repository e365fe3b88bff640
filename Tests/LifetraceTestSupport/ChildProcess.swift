import Foundation

/// Runs a program to its end for a test and returns what it printed: the one way every test
/// target starts a child process that it waits for.
public enum ChildProcess {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        /// The exit status (the signal's number when a signal ended it).
        public var status: Int32
        /// Standard output.
        public var output: String
        /// Standard error.
        public var error: String

        /// A result as a run gives it.
        public init(status: Int32, output: String, error: String) {
            self.status = status
            self.output = output
            self.error = error
        }
    }

    /// Runs `executable` with `arguments`, with `input` on standard input and `environment`
    /// added to this process's own. `output` replaces the captured standard output (for example
    /// a handle on `/dev/full`); ``Result/output`` is then empty.
    ///
    /// Output goes through files rather than pipes: a child that fills one pipe while the test
    /// waits on the other would never finish.
    public static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, environment: [String: String] = [:],
        output: FileHandle? = nil
    ) throws -> Result {
        let base = NSTemporaryDirectory() + "lifetrace-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".in", contents: input ?? Data())
        defer { for suffix in [".out", ".err", ".in"] { try? FileManager.default.removeItem(atPath: base + suffix) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardOutput = try output ?? FileHandle(forWritingTo: URL(fileURLWithPath: base + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".err"))
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: base + ".in"))
        try process.run()
        process.waitUntilExit()
        // Decoded leniently: a test of hostile names compares what was printed, byte for byte.
        func text(_ suffix: String) -> String {
            String(decoding: FileManager.default.contents(atPath: base + suffix) ?? Data(), as: UTF8.self)
        }
        return Result(status: process.terminationStatus, output: text(".out"), error: text(".err"))
    }

    /// The first executable called `name` in a directory of `PATH`, or nil.
    public static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
            return "\(directory)/\(name)"
        }
        return nil
    }
}

/// Runs the built `lifetrace` executable for end-to-end tests of the command-line tool.
public enum LifetraceCommand {
    /// What a run printed and how it ended.
    public typealias Result = ChildProcess.Result

    /// The path of the built `lifetrace`, beside the test bundle.
    public static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lifetrace").path
    }

    /// Runs `lifetrace arguments`, with `input` on standard input.
    public static func run(_ arguments: [String], input: Data? = nil) throws -> Result {
        try ChildProcess.run(path, arguments, input: input)
    }
}
