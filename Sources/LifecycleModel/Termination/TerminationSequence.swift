import LifetraceFormat

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
///
/// As a state machine, one per lifetime, it steps with the app's callbacks, willTerminate's return
/// and the system view's moves, and says when an app-side event breaks the silence the documents
/// promise: "While suspended, an app remains in memory but does not execute any code" (000, Table
/// 2-3), willTerminate "is not called if your app is suspended" (000, the app delegate's methods),
/// and nothing runs after willTerminate returns. No allowance relaxes it.
public struct TerminationSequence: Sendable, Hashable {
    /// How far the termination has come.
    public enum Phase: UInt8, Sendable, Hashable {
        /// No willTerminate yet.
        case running
        /// willTerminate began.
        case terminating
        /// willTerminate returned: UIKit ends the process.
        case returned
    }

    /// The machine's verdict on a step.
    public enum Verdict: UInt8, Sendable, Hashable {
        /// Nothing wrong.
        case legal
        /// An app-side callback while the app is Suspended or after willTerminate returned.
        case silenceBroken
        /// willTerminate delivered (or still running) while the app is Suspended.
        case terminateWhileSuspended
    }

    /// How far the termination has come.
    public private(set) var phase = Phase.running
    /// Whether the system view is Suspended.
    public private(set) var suspended = false
    /// Whether every app-side event breaks the silence now (Suspended, or willTerminate returned):
    /// read for every event, so kept rather than computed.
    public private(set) var silent = false
    /// Whether willTerminate while Suspended was found (it is reported once).
    private var terminateWhileSuspendedFound = false

    /// A lifetime running, not suspended.
    public init() {}

    /// The system view moved to `state`.
    public mutating func systemMoved(to state: LifecycleState) {
        suspended = state == .suspended
        silent = suspended || phase == .returned
    }

    /// A callback began (`willTerminate` says whether it is willTerminate): while Suspended, a
    /// willTerminate is delivered where the documents say it never is, and anything else breaks
    /// the silence; after willTerminate returned, everything does.
    public mutating func callbackBegan(willTerminate: Bool) -> Verdict {
        defer { if willTerminate && phase == .running { phase = .terminating } }
        if suspended {
            guard willTerminate else { return .silenceBroken }
            terminateWhileSuspendedFound = true
            return .terminateWhileSuspended
        }
        return silent ? .silenceBroken : .legal
    }

    /// willTerminate returned: from here UIKit ends the process, and the app is silent. Still
    /// running when the system suspended the app, it is willTerminate while Suspended (once).
    public mutating func willTerminateReturned() -> Verdict {
        var verdict = Verdict.legal
        if suspended && !terminateWhileSuspendedFound {
            terminateWhileSuspendedFound = true
            verdict = .terminateWhileSuspended
        }
        phase = .returned
        silent = true
        assert(silent == (suspended || phase == .returned), "silence out of step")
        return verdict
    }

    /// Whether intervals still open on threads other than the main one at the `exit` were cut by
    /// UIKit's end of the process (willTerminate returned), not left open by the app.
    public var cutsOtherThreadsAtExit: Bool { TerminationSequence.endsProcessAfterWillTerminate && phase == .returned }

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

    /// Whether an `exit` with `code` and `signal` is a kill without notice: SIGKILL (9 on Darwin
    /// and Linux alike), the system's own end, or an inferred exit (no code, no signal: the process
    /// vanished).
    public static func isKill(code: Int32?, signal: Int32?) -> Bool {
        signal == 9 || (code == nil && signal == nil)
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
