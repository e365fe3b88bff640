import Foundation

/// Runs the built `lifetrace` executable for end-to-end tests of the command-line tool.
public enum LifetraceCommand {
    /// What a run printed and how it ended.
    public struct Result: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var output: String
        /// Standard error.
        public var error: String
    }

    /// The path of the built `lifetrace`, beside the test bundle.
    public static var path: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lifetrace").path
    }

    /// Runs `lifetrace arguments`, with `input` on standard input.
    ///
    /// Output goes through files rather than pipes: a child that fills one pipe while the test
    /// waits on the other would never finish.
    public static func run(_ arguments: [String], input: Data? = nil) throws -> Result {
        let base = NSTemporaryDirectory() + "lifetrace-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        _ = FileManager.default.createFile(atPath: base + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".err", contents: nil)
        _ = FileManager.default.createFile(atPath: base + ".in", contents: input ?? Data())
        defer { for suffix in [".out", ".err", ".in"] { try? FileManager.default.removeItem(atPath: base + suffix) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: base + ".err"))
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: base + ".in"))
        try process.run()
        process.waitUntilExit()
        let output = try String(contentsOfFile: base + ".out", encoding: .utf8)
        let error = try String(contentsOfFile: base + ".err", encoding: .utf8)
        return Result(status: process.terminationStatus, output: output, error: error)
    }
}
