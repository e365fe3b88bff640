import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The time the kernel started the calling process, on the trace's monotonic clock: the launch
/// time of a self-recorded run, pre-main time included (the time before `main`, the dynamic
/// loader and static initializers, counts in an app's launch, as in Apple's definition).
public enum ProcessStart {
    /// The start time of process `pid` on the monotonic clock (ns), or nil if the kernel does not
    /// say. On Linux it comes from `/proc/PID/stat` (field 22, in clock ticks: 10 ms resolution);
    /// on Apple platforms from `sysctl` `KERN_PROC_PID` (`p_starttime`, microseconds).
    public static func monotonicTimestamp(of pid: Int32 = getpid()) -> Int64? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        return monotonicTimestamp(statLine: text)
        #elseif canImport(Darwin)
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        var name: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, pid]
        guard sysctl(&name, 4, &info, &size, nil, 0) == 0, size > 0 else { return nil }
        let start = info.kp_proc.p_un.__p_starttime
        var now = timeval()
        gettimeofday(&now, nil)
        let ageMicroseconds = (Int64(now.tv_sec) - Int64(start.tv_sec)) * 1_000_000
            + Int64(now.tv_usec) - Int64(start.tv_usec)
        return MonotonicClock.now() - ageMicroseconds * 1000
        #else
        return nil
        #endif
    }

    #if os(Linux)
    /// The start time in a `/proc/PID/stat` line, moved from the boot-time clock the kernel counts
    /// it on to the monotonic clock (they differ by the time the machine spent suspended).
    static func monotonicTimestamp(statLine: String) -> Int64? {
        // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        // Field 3 (state) is the first after the name; field 22 (starttime) is 19 further.
        guard fields.count > 19, let ticks = Int64(fields[19]), ticks >= 0 else { return nil }
        let ticksPerSecond = Int64(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0 else { return nil }
        let (startNanoseconds, overflow) = ticks.multipliedReportingOverflow(by: 1_000_000_000 / ticksPerSecond)
        guard !overflow else { return nil }
        var boot = timespec()
        clock_gettime(CLOCK_BOOTTIME, &boot)
        let monotonic = MonotonicClock.now()
        let bootNow = Int64(boot.tv_sec) &* 1_000_000_000 &+ Int64(boot.tv_nsec)
        let start = startNanoseconds - (bootNow - monotonic)
        // Never after now: a clock-tick rounding must not put the launch after the first event.
        return min(start, monotonic)
    }
    #endif
}
