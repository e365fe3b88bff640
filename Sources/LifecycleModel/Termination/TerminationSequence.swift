/// How a process's life ends, as Apple's documents and the crash reporters describe it: what
/// UIKit does once willTerminate returns, and which signals are crashes.
///
/// - After willTerminate: "After your -applicationWillTerminate: method returns, UIKit starts
///   terminating the app. This eventually calls exit." (Apple Developer Forums, Apple DTS's account
///   of what removing a running app from the multitasking UI does.) The process's other threads do
///   not get to finish: what they had open is cut by the exit, not left open by the app.
/// - Crashes: a process that dies of SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP or SIGABRT crashed,
///   in whatever state it was; Apple's WWDC20 session 10078, *Why is my app getting killed?*,
///   names crashes first among the causes of terminations in the background. A SIGKILL is the
///   system's own end (a suspended app purged, a watchdog), judged by the state it came in.
public enum TerminationSequence {
    /// Whether UIKit ends the process itself once willTerminate returns (always: the DTS account
    /// above), so that intervals still open on other threads at the `exit` are cut by it.
    public static let endsProcessAfterWillTerminate = true

    /// The signals that are crashes on every platform the traces come from (Darwin and Linux
    /// number these alike): SIGILL 4, SIGTRAP 5, SIGABRT 6, SIGFPE 8, SIGSEGV 11.
    static let commonCrashSignals: Set<Int32> = [4, 5, 6, 8, 11]

    /// Whether an `exit` by `signal` is a crash. SIGBUS is 10 on Darwin and 7 on Linux, so it is
    /// read by the platform the trace names: Darwin's number when the `os` metadata names iOS
    /// (`platform.iOSVersion`), else Linux's (the platform `lifetrace record` runs apps on).
    public static func isCrash(signal: Int32, platform: PlatformFacts) -> Bool {
        if commonCrashSignals.contains(signal) { return true }
        return signal == (platform.iOSVersion != nil ? 10 : 7)
    }

    /// The name of a crash signal, for messages (`SIGSEGV`), or nil for another signal.
    public static func crashName(signal: Int32, platform: PlatformFacts) -> String? {
        switch signal {
        case 4: "SIGILL"
        case 5: "SIGTRAP"
        case 6: "SIGABRT"
        case 8: "SIGFPE"
        case 11: "SIGSEGV"
        default: isCrash(signal: signal, platform: platform) ? "SIGBUS" : nil
        }
    }
}
