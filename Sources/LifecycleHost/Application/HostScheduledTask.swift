import Foundation
import LifetraceRecorder

/// A run of a task the app registered with the scheduler, the stand-in for a `BGTask`
/// (`BGProcessingTask` or `BGAppRefreshTask`) handed to the launch handler.
///
/// The host records its launch (`bgtask.begin`), its expiration (`bgtask.expire`, before the
/// handler runs) and its completion (`bgtask.end`) through ``ScheduledTaskRun``, the code the
/// iOS shim uses too.
public final class HostScheduledTask: @unchecked Sendable {
    /// The identifier the task was registered with.
    public let identifier: String
    /// Processing or app refresh.
    public let kind: ScheduledTaskKind
    /// The recorded run.
    public let run: ScheduledTaskRun
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    init(identifier: String, kind: ScheduledTaskKind, run: ScheduledTaskRun) {
        self.identifier = identifier
        self.kind = kind
        self.run = run
    }

    /// Runs on the main thread when the system expires the task; it must complete the task.
    public var expirationHandler: (@Sendable () -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    /// The app's work is done (any thread); only the first call counts.
    public func setTaskCompleted(success: Bool) { run.completed() }
}

/// The tasks an app registered (identifier -> launch handler) and their open runs.
final class ScheduledTaskRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var handlers: [String: @Sendable (HostScheduledTask) -> Void] = [:]
    private var runs: [HostScheduledTask] = []

    func register(_ identifier: String, handler: @escaping @Sendable (HostScheduledTask) -> Void) -> Bool {
        lock.withLock {
            guard handlers[identifier] == nil else { return false }
            handlers[identifier] = handler
            return true
        }
    }

    func handler(for identifier: String) -> (@Sendable (HostScheduledTask) -> Void)? {
        lock.withLock { handlers[identifier] }
    }

    func add(_ task: HostScheduledTask) { lock.withLock { runs.append(task) } }

    /// The runs not completed yet, oldest first.
    func open() -> [HostScheduledTask] {
        lock.withLock {
            runs.removeAll { $0.run.isCompleted }
            return runs
        }
    }
}

extension HostApplication {
    /// Registers the launch handler of the task `identifier`, as
    /// `BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)` does (the handler
    /// runs on the main thread); false if the identifier is registered already.
    @discardableResult
    public func registerScheduledTask(
        identifier: String, launchHandler: @escaping @Sendable (HostScheduledTask) -> Void
    ) -> Bool {
        scheduledTasks.register(identifier, handler: launchHandler)
    }

    /// The system runs the registered task `identifier`: `bgtask.begin`, then its launch handler.
    func runScheduledTask(_ kind: ScheduledTaskKind, identifier: String) throws(HostCommandError) {
        guard let handler = scheduledTasks.handler(for: identifier) else {
            throw HostCommandError(
                command: .runScheduledTask(kind, identifier: identifier), reason: "no task registered as \(identifier)")
        }
        let task = HostScheduledTask(
            identifier: identifier, kind: kind, run: recorder.scheduledTaskLaunched(kind, identifier: identifier))
        scheduledTasks.add(task)
        handler(task)
    }

    /// The system expires every open run: `bgtask.expire`, then its expiration handler.
    func expireScheduledTasks() {
        for task in scheduledTasks.open() {
            task.run.expired()
            task.expirationHandler?()
        }
    }

    /// The number of runs not completed yet.
    public var openScheduledTaskCount: Int { scheduledTasks.open().count }
}
