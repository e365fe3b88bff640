import Foundation
import LifetraceRecorder

/// Identifies a background task, like `UIBackgroundTaskIdentifier`.
public struct BackgroundTaskIdentifier: RawRepresentable, Hashable, Sendable {
    /// The task's id, as recorded in its `bgtask` events.
    public var rawValue: Int64
    /// A task id from its raw value.
    public init(rawValue: Int64) { self.rawValue = rawValue }
    /// No task.
    public static let invalid = BackgroundTaskIdentifier(rawValue: 0)
}

/// An open background task.
struct BackgroundTask: Sendable {
    var identifier: BackgroundTaskIdentifier
    var name: RecordedName
    var expirationHandler: (@Sendable () -> Void)?
}

/// The open background tasks, behind a lock: apps begin and end them from any thread.
final class BackgroundTaskRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Int64: BackgroundTask] = [:]
    private var nextID: Int64 = 1

    /// Opens a task; `record` runs under the lock, so a task is counted open exactly while its
    /// begin is recorded and its end is not.
    func begin(
        name: RecordedName, expirationHandler: (@Sendable () -> Void)?, record: (BackgroundTaskIdentifier) -> Void
    ) -> BackgroundTaskIdentifier {
        lock.withLock {
            let identifier = BackgroundTaskIdentifier(rawValue: nextID)
            nextID += 1
            tasks[identifier.rawValue] = BackgroundTask(
                identifier: identifier, name: name, expirationHandler: expirationHandler)
            record(identifier)
            return identifier
        }
    }

    /// Closes a task if it is open; `record` runs under the lock.
    func end(_ identifier: BackgroundTaskIdentifier, record: (BackgroundTask) -> Void) {
        lock.withLock {
            guard let task = tasks.removeValue(forKey: identifier.rawValue) else { return }
            record(task)
        }
    }

    func open() -> [BackgroundTask] {
        lock.withLock { tasks.values.sorted { $0.identifier.rawValue < $1.identifier.rawValue } }
    }

    var openCount: Int { lock.withLock { tasks.count } }
}
