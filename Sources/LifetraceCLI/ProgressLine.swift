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
        FileHandle.standardError.write(Data("\r\u{1B}[Kanalysed \(done)/\(total) traces".utf8))
    }

    /// Clears the line.
    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
