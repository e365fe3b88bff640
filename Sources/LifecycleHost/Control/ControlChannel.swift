import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The host's end of the supervisor's control channel: a socket the supervisor passes as an
/// inherited file descriptor named in ``environmentKey``.
///
/// A background thread reads command lines; each command is carried out on the main thread
/// through the main queue, which the main run loop drains (as UIKit's event port does), and
/// answered once its callbacks returned.
final class ControlChannel: @unchecked Sendable {
    /// The environment variable holding the channel's file descriptor.
    static let environmentKey = HostCommand.controlEnvironmentKey

    private let fd: Int32

    init(fd: Int32) { self.fd = fd }

    /// Starts reading commands for `application`.
    func start(application: HostApplication, onTerminate: @escaping @Sendable () -> Never) {
        let thread = Thread { [self] in readLoop(application: application, onTerminate: onTerminate) }
        thread.name = "lifecycle-control"
        thread.start()
    }

    private func readLoop(application: HostApplication, onTerminate: @escaping @Sendable () -> Never) {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                // The supervisor is gone: like a device that lost its system, stop here.
                DispatchQueue.main.async { onTerminate() }
                return
            }
            pending.append(contentsOf: chunk[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                dispatch(line, application: application, onTerminate: onTerminate)
            }
        }
    }

    private func dispatch(
        _ line: String, application: HostApplication, onTerminate: @escaping @Sendable () -> Never
    ) {
        guard let space = line.firstIndex(of: " "), let sequence = Int(line[..<space]) else {
            send("0 error malformed line")
            return
        }
        guard let command = HostCommand(wireText: line[line.index(after: space)...]) else {
            send("\(sequence) error unknown command")
            return
        }
        DispatchQueue.main.async { [self] in
            do {
                let value = try application.perform(command)
                send("\(sequence) ok" + (value.map { " " + $0 } ?? ""))
            } catch {
                send("\(sequence) error \(String(describing: error))")
            }
            if command == .terminate { onTerminate() }
        }
    }

    /// Writes one answer line.
    private func send(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
