import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The supervisor's end of the control channel to the app host: a Unix stream socket pair whose
/// other end the child inherits.
final class ControlConnection {
    /// The supervisor's end.
    let fd: Int32
    /// The end the child inherits (closed in the supervisor after the spawn).
    private(set) var childFD: Int32
    private var sequence = 0
    private var pending: [UInt8] = []

    /// The answer of the host to one command.
    enum Answer: Equatable {
        case ok(String?)
        case refused(String)
        case timedOut
        case closed
    }

    init() throws(SupervisorError) {
        var fds: [Int32] = [0, 0]
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw SupervisorError(.spawnFailed, detail: "socketpair: \(String(cString: strerror(errno)))")
        }
        fd = fds[0]
        childFD = fds[1]
        // The child sees its end as descriptor 3; keep ours clear of it so the dup2 really copies.
        if childFD <= 3 {
            let moved = fcntl(childFD, F_DUPFD_CLOEXEC, 10)
            close(childFD)
            childFD = moved
        }
    }

    deinit {
        close(fd)
        if childFD >= 0 { close(childFD) }
    }

    /// Closes the child's end in the supervisor, once the child has it.
    func releaseChildEnd() {
        if childFD >= 0 { close(childFD) }
        childFD = -1
    }

    /// Sends `command` and waits up to `timeout` for its answer, calling `tick` while waiting.
    func request(_ text: String, timeout: Duration, tick: () -> Void) -> Answer {
        sequence += 1
        let line = Array("\(sequence) \(text)\n".utf8)
        var offset = 0
        while offset < line.count {
            let sent = line.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return .closed }
            offset += sent
        }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let answer = takeAnswer(for: sequence) { return answer }
            let remaining = deadline - clock.now
            if remaining <= .zero { return .timedOut }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(5, max(1, remaining.milliseconds))))
            tick()
            guard ready > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 1024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .closed }
            pending.append(contentsOf: chunk[0..<count])
        }
    }

    /// The answer to `sequence` if a full line for it arrived; earlier answers are skipped.
    private func takeAnswer(for sequence: Int) -> Answer? {
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard words.count >= 2, Int(words[0]) == sequence else { continue }
            let rest = words.count > 2 ? words[2] : nil
            return words[1] == "ok" ? .ok(rest) : .refused(rest ?? "")
        }
        return nil
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }
}
