import Foundation
import LifetraceRecorder

/// Where an app's traces go when `LIFETRACE_OUTPUT` does not say: `Library/Caches/Lifetrace` in
/// the app's home directory (on iOS its data container), one file per run.
///
/// Caches, not Application Support: an app may always write there, it is not backed up to iCloud
/// or to a computer (traces are diagnostics, and a backup would carry megabytes of them), and the
/// system empties it only when the device runs short of storage, and never while the app runs.
/// The retention (``TraceRetention``) keeps it small in any case. See docs/IOS.md.
public enum TraceDirectory {
    /// The directory's path inside the home directory.
    public static let pathInHome = "Library/Caches/Lifetrace"

    /// The default directory of traces for the home directory `home`.
    public static func defaultDirectory(home: String) -> String {
        (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + pathInHome
    }

    /// The output of a run: `LIFETRACE_OUTPUT` when it names one (read by the recorder,
    /// ``RecorderOutput/fromEnvironment(_:home:pid:now:)``), else a new file in `directory`
    /// (``defaultDirectory(home:)`` unless the app chose one). `rotated` is the directory whose
    /// old traces the retention may remove: the directory of a per-run file, never that of a file
    /// the environment named.
    public static func output(
        environment: [String: String], home: String, directory: String?, pid: Int32, now: Date
    ) -> (path: String, rotated: String?) {
        output(
            environmentOutput: RecorderOutput.fromEnvironment(environment, home: home, pid: pid, now: now),
            perRun: environment[RecorderOutput.environmentKey]?.hasSuffix("/") == true,
            home: home, directory: directory, pid: pid, now: now)
    }

    /// ``output(environment:home:directory:pid:now:)`` with the environment's output resolved
    /// already (the process's own, ``RecorderOutput/processEnvironmentOutput``, which the recorder
    /// uses too); `perRun` when that output is a new file in a directory.
    public static func output(
        environmentOutput: RecorderOutput?, perRun: Bool, home: String, directory: String?, pid: Int32, now: Date
    ) -> (path: String, rotated: String?) {
        if case .file(let path)? = environmentOutput {
            return (path, perRun ? (path as NSString).deletingLastPathComponent : nil)
        }
        let directory = directory ?? defaultDirectory(home: home)
        return ((directory as NSString).appendingPathComponent(RecorderOutput.traceFileName(pid: pid, now: now)), directory)
    }
}
