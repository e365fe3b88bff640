#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The clock every event of a trace is stamped with: `CLOCK_MONOTONIC` in nanoseconds.
///
/// The app and the supervisor read the same clock, so system and app events of one run share
/// one time line. On Linux the call is served by the vDSO and makes no system call.
public enum MonotonicClock {
    /// Nanoseconds since an unspecified start (boot, on Linux).
    @inline(__always)
    public static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    /// Sleeps until `deadline` (nanoseconds on this clock), through interruptions by signals.
    ///
    /// Linux sleeps to the deadline itself (`clock_nanosleep` with `TIMER_ABSTIME`). Darwin has no
    /// absolute sleep on this clock: it sleeps what is left (`nanosleep`), read again after each
    /// interruption, so a signal neither cuts the sleep short nor adds to it.
    public static func sleep(until deadline: Int64) {
        #if canImport(Glibc)
        var time = timespec()
        time.tv_sec = Int(deadline / 1_000_000_000)
        time.tv_nsec = Int(deadline % 1_000_000_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
        #else
        while true {
            let left = deadline &- now()
            guard left > 0 else { return }
            var time = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            guard nanosleep(&time, nil) != 0, errno == EINTR else { return }
        }
        #endif
    }
}
