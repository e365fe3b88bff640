import Atomics
import CRecorderSignals

/// How a recording process ended, as it could tell from inside: the code it passed to `exit`, or
/// the crash signal it received.
public enum RegionExitFact: Sendable, Hashable {
    /// `exit(code)` or a return from `main`.
    case code(Int32, at: Int64)
    /// A crash signal, caught by the recorder's handler.
    case signal(Int32, at: Int64)

    /// When the process ended, on the trace's clock.
    public var timestamp: Int64 {
        switch self {
        case .code(_, let at), .signal(_, let at): at
        }
    }
}

extension RecorderRegion {
    /// The exit fact a handler of the recording process wrote, or nil: none was written, or
    /// what was written is out of range (``exitFactDamage`` says so).
    public var exitFact: RegionExitFact? {
        if case .fact(let fact) = exitFactReading { return fact }
        return nil
    }

    /// Why the exit words of the region cannot be an exit a handler wrote, or nil: a kind other
    /// than code (1) or signal (2), a code outside Int32, a signal outside 1...127. A reader
    /// never narrows such a value into a plausible one (2^32 + 11 is no SIGSEGV).
    public var exitFactDamage: String? {
        if case .damaged(let problem) = exitFactReading { return problem }
        return nil
    }

    private enum ExitReading { case none, fact(RegionExitFact), damaged(String) }

    private var exitFactReading: ExitReading {
        let kind = atomic(at: RegionField.exitKind).load(ordering: .acquiring)
        let value = Int64(bitPattern: atomic(at: RegionField.exitValue).load(ordering: .relaxed))
        let at = Int64(bitPattern: atomic(at: RegionField.exitTimestamp).load(ordering: .relaxed))
        switch kind {
        case 0: return .none
        case 1:
            guard let code = Int32(exactly: value) else {
                return .damaged("the exit code the process stored, \(value), is outside the 32-bit codes")
            }
            return .fact(.code(code, at: at))
        case 2:
            guard (1...127).contains(value) else {
                return .damaged("the signal the process stored, \(value), is outside the signal numbers 1...127")
            }
            return .fact(.signal(Int32(value), at: at))
        default:
            return .damaged("the exit kind the process stored, \(kind), is neither a code (1) nor a signal (2)")
        }
    }

    /// The process's start time (monotonic ns) the recorder wrote at start, or nil.
    public var launchTimestamp: Int64? {
        let value = Int64(bitPattern: atomic(at: RegionField.launchTimestamp).load(ordering: .acquiring))
        return value == 0 ? nil : value
    }

    func setLaunchTimestamp(_ timestamp: Int64) {
        atomic(at: RegionField.launchTimestamp).store(UInt64(bitPattern: timestamp), ordering: .releasing)
    }

    /// The trace file's length after the writer's last committed flush, or 0.
    public var committedLength: Int64 {
        Int64(bitPattern: atomic(at: RegionField.committedLength).load(ordering: .acquiring))
    }

    func setCommittedLength(_ length: Int64) {
        atomic(at: RegionField.committedLength).store(UInt64(bitPattern: length), ordering: .releasing)
    }

    /// Whether the writer has sealed the trace (closed it with its `exit`).
    var isSealed: Bool { atomic(at: RegionField.sealed).load(ordering: .acquiring) != 0 }

    func markSealed() { atomic(at: RegionField.sealed).store(1, ordering: .releasing) }

    /// The words the crash handlers write into, for `lifetrace_install_crash_handlers`.
    func exitWords(sealTimeout: Duration) -> lifetrace_exit_words {
        func word<T>(_ offset: Int, _ type: T.Type) -> UnsafeMutablePointer<T> {
            (base + offset).assumingMemoryBound(to: T.self)
        }
        let components = sealTimeout.components
        return lifetrace_exit_words(
            kind: word(RegionField.exitKind, UInt64.self), value: word(RegionField.exitValue, Int64.self),
            timestamp: word(RegionField.exitTimestamp, Int64.self), sealed: word(RegionField.sealed, UInt64.self),
            sealTimeoutNanoseconds: components.seconds &* 1_000_000_000 &+ components.attoseconds / 1_000_000_000)
    }
}
