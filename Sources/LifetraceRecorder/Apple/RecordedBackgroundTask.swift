#if canImport(BackgroundTasks) && canImport(UIKit)
import BackgroundTasks
import Foundation

/// A BGTaskScheduler task whose run is recorded: hand it the task in the launch handler and use
/// its ``expirationHandler`` and ``setTaskCompleted(success:)`` in place of the task's.
///
/// A thin shim over ``ScheduledTaskRun`` (the ids, the names and the once-only end are there, and
/// tested on Linux). It cannot be built here (no BackgroundTasks framework on Linux), see
/// docs/RECORDING.md, "Not built here".
///
/// ```swift
/// BGTaskScheduler.shared.register(forTaskWithIdentifier: "com.example.cleanup", using: nil) { task in
///     let recorded = RecordedBackgroundTask(task, recorder: Recorder.shared!)
///     recorded.expirationHandler = { cleanup.cancel() }
///     cleanup.run { recorded.setTaskCompleted(success: $0) }
/// }
/// ```
public final class RecordedBackgroundTask: @unchecked Sendable {
    /// The system's task.
    public let task: BGTask
    /// The recorded run.
    public let run: ScheduledTaskRun

    /// Records the launch of `task` (call first thing in the launch handler).
    public init(_ task: BGTask, recorder: Recorder) {
        self.task = task
        let kind: ScheduledTaskKind = task is BGProcessingTask ? .processing : .appRefresh
        run = recorder.scheduledTaskLaunched(kind, identifier: task.identifier)
    }

    /// The task's expiration handler; the expiration is recorded before it runs.
    public var expirationHandler: (() -> Void)? {
        didSet {
            let handler = expirationHandler
            task.expirationHandler = { [run] in
                run.expired()
                handler?()
            }
        }
    }

    /// Records the end, then tells the system.
    public func setTaskCompleted(success: Bool) {
        run.completed()
        task.setTaskCompleted(success: success)
    }
}
#endif
