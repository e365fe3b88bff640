import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a command leaves half-made when SIGINT, SIGTERM or SIGHUP stops it, undone before it
/// dies: staged output files removed, directories it created removed when still empty, and
/// actions of its own (ending an app's process group, removing a shared-memory region) run.
///
/// ``install()`` blocks the three signals in every thread and waits for them on a thread of its
/// own, so cleaning up is ordinary code rather than an async-signal handler. After the cleanup
/// the signal's default action is restored and the signal raised again: the process still dies
/// of it, and its parent sees that (exit status 128 + the signal number in a shell).
public enum OutputCleanup {
    /// What is undone on a signal.
    enum Entry: Sendable {
        case file(String)
        case emptyDirectory(String)
        case action(@Sendable () -> Void)
    }

    /// An entry's handle, to cancel it once the output is complete or removed.
    public struct Token: Sendable, Hashable {
        let id: Int
    }

    private struct State: Sendable {
        var nextID = 0
        var entries: [Int: Entry] = [:]
        var installed = false
    }

    private static let state = Locked(State())
    /// Held by ``starting(_:)`` and, from a signal on, by the cleanup.
    private static let gate = Locked(())

    /// The signals that trigger the cleanup.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Blocks ``signals`` and starts the thread that waits for them. Call once, first thing in
    /// `main`, before any other thread starts (threads inherit the blocked set).
    public static func install() {
        let first = state.withLock { state in
            defer { state.installed = true }
            return !state.installed
        }
        guard first else { return }
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        Thread.detachNewThread {
            var set = signalSet()
            var received: Int32 = 0
            while sigwait(&set, &received) != 0 {}
            // Under the gate until the process ends: a start in progress registers its undo
            // first, and nothing starts after the entries were taken.
            gate.withLock { _ in
                runAll()
                signal(received, SIG_DFL)
                var one = sigset_t()
                sigemptyset(&one)
                sigaddset(&one, received)
                pthread_sigmask(SIG_UNBLOCK, &one, nil)
                raise(received)
                // Not reached when the default action ends the process; be sure it ends.
                _exit(128 + received)
            }
        }
    }

    /// Runs `start`, which starts something (a process, a file) and registers what undoes it,
    /// with no signal's cleanup in between: a signal that comes meanwhile is acted on once
    /// `start` has returned, its undo registered; after a signal, `start` never runs.
    public static func starting<Result: Sendable, Failure: Error>(
        _ start: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try gate.withLock { _ throws(Failure) -> Result in try start() }
    }

    /// Removes the file at `path` on a signal, until cancelled.
    public static func removeOnSignal(file path: String) -> Token { add(.file(path)) }

    /// Removes the directory at `path` on a signal if it is empty then, until cancelled.
    public static func removeOnSignal(emptyDirectory path: String) -> Token { add(.emptyDirectory(path)) }

    /// Runs `action` on a signal, until cancelled; it runs on the signal thread, while the rest
    /// of the process is still running, so it must only do what is safe at any moment.
    public static func onSignal(_ action: @escaping @Sendable () -> Void) -> Token { add(.action(action)) }

    /// Forgets the entry of `token`.
    public static func cancel(_ token: Token) {
        _ = state.withLock { $0.entries.removeValue(forKey: token.id) }
    }

    private static func add(_ entry: Entry) -> Token {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.entries[id] = entry
            return Token(id: id)
        }
    }

    /// Runs every entry, newest first (an action before the files it may still be writing,
    /// files before the directories that hold them).
    private static func runAll() {
        let entries = state.withLock { state in
            defer { state.entries = [:] }
            return state.entries.sorted { $0.key > $1.key }.map(\.value)
        }
        for entry in entries {
            switch entry {
            case .action(let action): action()
            case .file(let path): unlink(path)
            case .emptyDirectory(let path): rmdir(path)
            }
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in signals { sigaddset(&set, number) }
        return set
    }
}
