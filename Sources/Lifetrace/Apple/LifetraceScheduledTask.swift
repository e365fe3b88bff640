#if canImport(BackgroundTasks) && canImport(UIKit)
import BackgroundTasks
import LifetraceRecorder

extension Lifetrace {
    /// A `BGTaskScheduler` task whose run is recorded (`bgtask.begin`, `bgtask.expire`,
    /// `bgtask.end`); call it first thing in the launch handler and use the result's
    /// ``LifetraceScheduledTask/expirationHandler`` and
    /// ``LifetraceScheduledTask/setTaskCompleted(success:)`` in place of the task's. When nothing
    /// is recording, they only forward to the task.
    ///
    /// ```swift
    /// BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
    ///     let recorded = Lifetrace.recordedTask(task)
    ///     recorded.expirationHandler = { cleanup.cancel() }
    ///     cleanup.run { recorded.setTaskCompleted(success: $0) }
    /// }
    /// ```
    ///
    /// Not built here (no BackgroundTasks framework on Linux); the ids, names and the once-only end
    /// are ``ScheduledTaskRun``'s, tested on Linux.
    public static func recordedTask(_ task: BGTask) -> LifetraceScheduledTask {
        LifetraceScheduledTask(task, recorded: recorder.map { RecordedBackgroundTask(task, recorder: $0) })
    }
}

/// A `BGTaskScheduler` task handed to ``Lifetrace/recordedTask(_:)``.
public final class LifetraceScheduledTask: @unchecked Sendable {
    /// The system's task.
    public let task: BGTask
    private let recorded: RecordedBackgroundTask?

    init(_ task: BGTask, recorded: RecordedBackgroundTask?) {
        self.task = task
        self.recorded = recorded
    }

    /// The task's expiration handler; the expiration is recorded before it runs.
    public var expirationHandler: (() -> Void)? {
        didSet {
            if let recorded {
                recorded.expirationHandler = expirationHandler
            } else {
                task.expirationHandler = expirationHandler
            }
        }
    }

    /// Records the end, then tells the system.
    public func setTaskCompleted(success: Bool) {
        if let recorded {
            recorded.setTaskCompleted(success: success)
        } else {
            task.setTaskCompleted(success: success)
        }
    }
}
#endif
