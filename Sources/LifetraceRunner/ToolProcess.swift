import LifetraceFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tool this process runs on a question and waits for (the symbolizer, the demangler): its
/// standard input the question, its standard output the answer, its standard error discarded.
///
/// It starts with no signal blocked and every signal's default action, whatever this process
/// blocks or ignores (the commands block SIGINT, SIGTERM and SIGHUP to handle them on a thread of
/// their own, ``OutputCleanup``): a SIGTERM sent to it ends it. It never outlives this process:
/// ``run(_:arguments:input:outputLimit:)`` reaps it before returning, the tools still running when
/// SIGINT, SIGTERM or SIGHUP stops this process are killed and reaped by the signal's cleanup,
/// and those still running when it exits are killed and reaped at exit.
enum ToolProcess {
    /// Why a tool gave no answer.
    struct Failure: Error {
        /// One line.
        var description: String
    }

    /// The tools running, by process id: each is reaped while its id is here, under the lock, so
    /// an id is never killed after it was reaped (and perhaps reused). `closed` once this process
    /// stops: nothing is started after that.
    private struct Running {
        var processes: Set<pid_t> = []
        var closed = false
        var cleanupInstalled = false
        var started = 0
    }

    private static let running = Locked(Running())

    /// How many tools were started in this process: the count tests look at.
    static var started: Int { running.withLock { $0.started } }

    /// Runs `path` with `arguments`, gives it on its standard input the chunks `input` returns
    /// until it returns nil (then end of file), and hands what the tool writes on its standard
    /// output to `output`, piece by piece as it comes (none of it is kept here), until the tool
    /// has ended. An answer longer than `outputLimit` bytes, or a piece `output` refuses (it
    /// throws), ends the tool and fails.
    static func run(
        _ path: String, arguments: [String], input: () -> [UInt8]?, outputLimit: Int,
        output: (ArraySlice<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        // Standard input and output are sockets, so that writing to a tool that has ended is an
        // error, never SIGPIPE; both close on exec, so that another tool started meanwhile by
        // another thread does not hold them open.
        var question: [Int32] = [-1, -1]
        var answer: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &question) == 0 else {
            throw Failure(description: "cannot run \(path): \(String(cString: strerror(errno)))")
        }
        guard socketpair(AF_UNIX, type, 0, &answer) == 0 else {
            let reason = String(cString: strerror(errno))
            close(question[0])
            close(question[1])
            throw Failure(description: "cannot run \(path): \(reason)")
        }
        let pid: pid_t
        do throws(Failure) {
            pid = try spawn(path, arguments: arguments, input: question[1], output: answer[1])
        } catch {
            for descriptor in question + answer { close(descriptor) }
            throw error
        }
        close(question[1])
        close(answer[1])
        let result = Result { () throws(Failure) in
            try exchange(input: input, writing: question[0], reading: answer[0], outputLimit: outputLimit, pid: pid, path: path, output: output)
        }
        close(question[0])
        close(answer[0])
        guard reap(pid) else {
            // A signal's cleanup ended the tool: this process is stopping, and goes no further
            // (it must not finish its work and exit as if nothing happened). The cleanup holds
            // this gate until the process has died of the signal.
            OutputCleanup.starting {}
            throw Failure(description: "\(path): stopped")
        }
        try result.get()
    }

    /// Spawns the tool with the given descriptors as its standard input and output, registered
    /// in ``running`` with no signal's cleanup in between.
    private static func spawn(_ path: String, arguments: [String], input: Int32, output: Int32) throws(Failure) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigdefault(&attributes, &every)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = OutputCleanup.starting { () -> (result: Int32, pid: pid_t) in
            running.withLock { running -> (result: Int32, pid: pid_t) in
                guard !running.closed else { return (ECANCELED, 0) }
                if !running.cleanupInstalled {
                    running.cleanupInstalled = true
                    _ = OutputCleanup.onSignal { endAll() }
                    atexit { ToolProcess.endAll() }
                }
                var pid: pid_t = 0
                let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
                if result == 0 {
                    running.processes.insert(pid)
                    running.started += 1
                }
                return (result, pid)
            }
        }
        guard spawned.result == 0 else {
            throw Failure(description: "cannot run \(path): \(String(cString: strerror(spawned.result)))")
        }
        return spawned.pid
    }

    /// Writes the question, chunk by chunk as `input` gives them (nil: the end), and reads the
    /// answer at once (a large answer must not wait for the whole question), handing each piece
    /// to `output`, until the tool closes its standard output.
    private static func exchange(
        input: () -> [UInt8]?, writing: Int32, reading: Int32, outputLimit: Int, pid: pid_t, path: String,
        output: (ArraySlice<UInt8>) throws(Failure) -> Void
    ) throws(Failure) {
        _ = fcntl(writing, F_SETFL, fcntl(writing, F_GETFL) | O_NONBLOCK)
        var chunk: [UInt8] = []
        var written = 0
        var questionOpen = true
        var answered = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if questionOpen, written == chunk.count {
                if let next = input() {
                    chunk = next
                    written = 0
                    continue
                }
                shutdown(writing, Int32(SHUT_WR))
                questionOpen = false
            }
            var descriptors = [pollfd(fd: reading, events: Int16(POLLIN), revents: 0)]
            if questionOpen { descriptors.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "\(path): \(String(cString: strerror(errno)))")
            }
            if questionOpen, descriptors[1].revents != 0 {
                let count = chunk.withUnsafeBytes { bytes in
                    send(writing, bytes.baseAddress! + written, bytes.count - written, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    written += count
                } else if count < 0, errno != EAGAIN, errno != EINTR {
                    // The tool no longer reads (it ended): what it answered is still read.
                    shutdown(writing, Int32(SHUT_WR))
                    questionOpen = false
                }
            }
            if descriptors[0].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(reading, $0.baseAddress!, $0.count) }
                if count == 0 { return }
                if count < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw Failure(description: "\(path): \(String(cString: strerror(errno)))")
                }
                answered += count
                if answered > outputLimit {
                    kill(pid, SIGKILL)
                    throw Failure(description: "\(path) answered more than \(outputLimit) bytes")
                }
                do throws(Failure) {
                    try output(buffer[..<count])
                } catch {
                    kill(pid, SIGKILL)
                    throw error
                }
            }
        }
    }

    /// Ends the tool and reaps it, unless a signal's cleanup or the exit did. A tool has answered
    /// once it closed its output (or its answer was refused): one still running then is killed,
    /// never waited for. False when a signal's cleanup or the exit reaped it instead.
    private static func reap(_ pid: pid_t) -> Bool {
        running.withLock { running in
            guard running.processes.contains(pid) else { return }
            var info = siginfo_t()
            let ended = waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info._sifields._sigchld.si_pid == pid
            if !ended { kill(pid, SIGKILL) }
        }
        // Waited for without reaping, outside the lock: the id stays the tool's until it is
        // reaped below, under the lock.
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        return running.withLock { running in
            guard running.processes.remove(pid) != nil else { return false }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            return true
        }
    }

    /// Kills and reaps every tool still running, and starts none after: this process stops.
    static func endAll() {
        running.withLock { running in
            running.closed = true
            for pid in running.processes {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            }
            running.processes = []
        }
    }
}
