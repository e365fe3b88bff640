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

    /// Sleeps until `deadline` (ns on this clock), resuming after signals.
    ///
    /// Here rather than beside its callers: a file that imports Foundation sees `timespec` through
    /// CoreFoundation too, and a build with a sanitizer then rejects its members.
    public static func sleep(until deadline: Int64) {
        var time = timespec()
        time.tv_sec = Int(deadline / 1_000_000_000)
        time.tv_nsec = Int(deadline % 1_000_000_000)
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
    }
}
