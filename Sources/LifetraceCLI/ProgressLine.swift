import Foundation

/// A progress line on standard error (`analysed 12/40 traces`), redrawn in place, shown only when
/// standard error is a terminal.
final class ProgressLine: @unchecked Sendable {
    private let total: Int
    private let enabled: Bool
    private let lock = NSLock()
    private var shown = 0

    init(total: Int) {
        self.total = total
        enabled = isatty(STDERR_FILENO) == 1 && total > 1
    }

    /// Shows that `done` traces are analysed (called from any thread).
    func update(_ done: Int) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        guard done > shown else { return }
        shown = done
        writeToStandardError("\r\u{1B}[Kanalysed \(done)/\(total) traces")
    }

    /// Clears the line.
    func finish() {
        guard enabled else { return }
        writeToStandardError("\r\u{1B}[K")
    }
}

/// A progress line on standard error for one large input (`reading big.ltrace: 43% of 280 MB`),
/// redrawn four times a second, shown only when standard error is a terminal and the file is at
/// least ``minimumSize``. The bytes read are the process's own count (`rchar` in `/proc/self/io`),
/// which the reading of the trace dominates; nothing in the reading path is slowed by it.
final class ReadingProgress: @unchecked Sendable {
    /// Smaller files are read before a line would help.
    static let minimumSize: Int64 = 32 << 20

    private let name: String
    private let size: Int64
    private let baseline: Int64
    private let timer: any DispatchSourceTimer
    private let lock = NSLock()
    private var shown = false

    /// A progress line for reading `path`, or nil when none is shown (not a terminal, a small
    /// file, standard input, or no `/proc`).
    init?(path: String) {
        guard isatty(STDERR_FILENO) == 1, path != "-",
            let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.int64Value, size >= Self.minimumSize,
            let baseline = Self.bytesRead()
        else { return nil }
        self.name = path
        self.size = size
        self.baseline = baseline
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250))
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    private func draw() {
        guard let read = Self.bytesRead() else { return }
        let percent = min(100, max(0, (read - baseline) * 100 / size))
        lock.lock()
        defer { lock.unlock() }
        shown = true
        writeToStandardError("\r\u{1B}[Kreading \(name): \(percent)% of \(size >> 20) MB")
    }

    /// Stops and clears the line.
    func finish() {
        timer.cancel()
        lock.lock()
        defer { lock.unlock() }
        if shown { writeToStandardError("\r\u{1B}[K") }
    }

    /// The bytes this process has read so far, from `/proc/self/io`.
    private static func bytesRead() -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("rchar:") {
            return Int64(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
