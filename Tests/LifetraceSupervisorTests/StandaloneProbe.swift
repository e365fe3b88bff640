import Foundation
import LifetraceTestSupport

/// The recorder probe recording itself (no supervisor) into `directory/new.ltrace`, one thread,
/// its standard error in `errors`; started once it has recorded its first event (or ended).
struct StandaloneProbe {
    let process = Process()
    let counts: String
    let errors: String

    /// Starts the probe and waits until it records, or dies trying.
    init(in directory: String) throws {
        counts = directory + "/counts"
        errors = directory + "/probe.err"
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("RecorderProbe"))
        process.arguments = [counts, "1", "--standalone", directory + "/new.ltrace"]
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        try process.run()
        while process.isRunning && (CrashSafetyTests.readCounts(counts).first ?? 0) == 0 { usleep(5_000) }
    }

    /// What the probe wrote on standard error so far.
    var errorText: String {
        String(decoding: FileManager.default.contents(atPath: errors) ?? Data(), as: UTF8.self)
    }
}
