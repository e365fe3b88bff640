import Foundation
import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's process as the supervisor controls it: spawned with `posix_spawn` as the leader of
/// a process group of its own, stopped, continued and killed as that whole group (whatever the
/// app started goes with it), and reaped with `waitpid`.
final class ChildProcess {
    /// How the process is doing, as `waitpid` last told.
    enum Status: Equatable {
        case running
        case stopped
        case exited(code: Int32)
        case killed(signal: Int32)

        var hasEnded: Bool {
            switch self {
            case .exited, .killed: true
            case .running, .stopped: false
            }
        }
    }

    /// The process id.
    let pid: pid_t
    private(set) var status: Status = .running
    /// Kills the group if the supervisor is stopped by a signal (``OutputCleanup``).
    private var cleanup: OutputCleanup.Token?

    /// Spawns `path` with `arguments`, the extra `environment` over the supervisor's own, and
    /// `controlFD` available in the child as file descriptor `childControlFD`, and each of
    /// `inherited` (a parent's descriptor, the child's number) likewise.
    init(
        path: String, arguments: [String], environment: [String: String], controlFD: Int32, childControlFD: Int32,
        inherited: [(parent: Int32, child: Int32)] = []
    ) throws(SupervisorError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, controlFD, childControlFD)
        for descriptor in inherited { posix_spawn_file_actions_adddup2(&actions, descriptor.parent, descriptor.child) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Signals the supervisor ignores (SIGPIPE) must not stay ignored in the app.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGPIPE, SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, signalNumber) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        // A group of its own (its id is the app's pid): signals reach everything the app started.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Spawned and its group's end registered with no signal's cleanup in between, so that a
        // signal at any moment ends the app too.
        let (result, pid, cleanup) = OutputCleanup.starting { () -> (Int32, pid_t, OutputCleanup.Token?) in
            var pid: pid_t = 0
            let result = posix_spawnp(&pid, path, &actions, &attributes, argv, envp)
            guard result == 0 else { return (result, 0, nil) }
            let group = pid
            return (result, pid, OutputCleanup.onSignal { kill(-group, SIGKILL) })
        }
        guard result == 0 else { throw SupervisorError(.spawnFailed, detail: "\(path): \(String(cString: strerror(result)))") }
        self.pid = pid
        self.cleanup = cleanup
    }

    deinit {
        if let cleanup { OutputCleanup.cancel(cleanup) }
    }

    /// Asks `waitpid` without blocking and updates ``status``.
    @discardableResult
    func poll() -> Status {
        guard !status.hasEnded else { return status }
        while true {
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG | WUNTRACED | WCONTINUED)
            if result == 0 { return status }
            if result < 0 {
                if errno == EINTR { continue }
                return status
            }
            let low = raw & 0x7F
            if low == 0 {
                status = .exited(code: (raw >> 8) & 0xFF)
            } else if raw & 0xFF == 0x7F {
                status = .stopped
            } else if raw == 0xFFFF {
                status = .running
            } else {
                status = .killed(signal: low)
            }
        }
    }

    /// Sends `signalNumber` to the app's group unless the app has ended.
    func send(_ signalNumber: Int32) {
        guard !poll().hasEnded else { return }
        kill(-pid, signalNumber)
    }

    /// Polls every millisecond until `done` holds or `timeout` passed; returns whether it held.
    func wait(until done: (Status) -> Bool, timeout: Duration, tick: () -> Void) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if done(poll()) { return true }
            if clock.now >= deadline { return false }
            tick()
            usleep(1000)
        }
    }

    /// Kills the app's whole group and reaps the app (a process stopped by SIGSTOP dies of
    /// SIGKILL too). The group is killed even when the app has already ended: what it started
    /// may still run.
    func killAndReap() {
        kill(-pid, SIGKILL)
        while !poll().hasEnded { usleep(500) }
    }
}
