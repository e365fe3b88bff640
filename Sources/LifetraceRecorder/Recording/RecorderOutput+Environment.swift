import Foundation

extension RecorderOutput {
    /// The environment variable that names where a standalone recorder writes its trace, read
    /// here and nowhere else (``fromEnvironment(_:home:pid:now:)``), on every platform.
    public static let environmentKey = "LIFETRACE_OUTPUT"

    /// The output `LIFETRACE_OUTPUT` names in `environment`, or nil when it is unset or empty.
    ///
    /// - `PATH`: that file (relative to the working directory, as any path).
    /// - `DIRECTORY/` (a trailing slash): a new file in that directory for each run, named by
    ///   ``traceFileName(pid:now:)``, so that many launches (an XCUITest's) leave one trace each.
    /// - A leading `~/` stands for `home`, the process's home directory: on iOS the app's data
    ///   container, whose working directory (`/`) an app cannot write.
    public static func fromEnvironment(
        _ environment: [String: String], home: String? = nil, pid: Int32 = ProcessIdentity.current, now: Date = Date()
    ) -> RecorderOutput? {
        let home = home ?? homeDirectory(environment)
        guard var path = environment[environmentKey], !path.isEmpty else { return nil }
        if path == "~" || path.hasPrefix("~/") {
            path = (home.hasSuffix("/") ? String(home.dropLast()) : home) + path.dropFirst()
        }
        if path.hasSuffix("/") { path += traceFileName(pid: pid, now: now) }
        return .file(path)
    }

    /// The name of a run's trace in a directory of traces: `lifetrace-YYYYMMDD-HHMMSS.mmm-PID.ltrace`
    /// (UTC), so that names sort in the order the runs started and two processes never share one.
    public static func traceFileName(pid: Int32, now: Date) -> String {
        let milliseconds = Int64((now.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = milliseconds.quotientAndRemainder(dividingBy: 1000)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents(
            [.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: TimeInterval(seconds.quotient)))
        func padded(_ value: Int?, _ width: Int) -> String {
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let date = padded(parts.year, 4) + padded(parts.month, 2) + padded(parts.day, 2)
        let time = padded(parts.hour, 2) + padded(parts.minute, 2) + padded(parts.second, 2)
        return "\(traceFilePrefix)\(date)-\(time).\(padded(Int(seconds.remainder), 3))-\(pid).ltrace"
    }

    /// The process's home directory: `HOME` when set (iOS sets it to the app's data container,
    /// as `NSHomeDirectory()` reports it), else `NSHomeDirectory()`, which on Linux reads the
    /// user database and ignores `HOME`.
    public static func homeDirectory(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }

    /// How the names of ``traceFileName(pid:now:)`` start.
    public static let traceFilePrefix = "lifetrace-"
}

extension RecorderOptions {
    /// These options with the output `LIFETRACE_OUTPUT` names, when it names one: the environment
    /// wins over the output the app configured, so that a test run can redirect any build.
    /// `environment` nil (the default) is the process's own, resolved once per process, so that
    /// every caller gets the same file for a `DIRECTORY/` value.
    public func applyingEnvironment(_ environment: [String: String]? = nil) -> RecorderOptions {
        var options = self
        let output = environment.map { RecorderOutput.fromEnvironment($0) } ?? RecorderOutput.processEnvironmentOutput
        if let output { options.output = output }
        return options
    }
}

extension RecorderOutput {
    /// The output the process's own `LIFETRACE_OUTPUT` names, resolved at its first use.
    public static let processEnvironmentOutput: RecorderOutput? = fromEnvironment(ProcessInfo.processInfo.environment)
}
