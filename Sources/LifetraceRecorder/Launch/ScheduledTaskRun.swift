import Atomics
import LifetraceFormat

/// The kind of a BGTaskScheduler task, as its recorded name starts.
public enum ScheduledTaskKind: String, Sendable, CaseIterable {
    /// `BGProcessingTask`: deferrable work that may run for minutes.
    case processing = "BGProcessingTask"
    /// `BGAppRefreshTask`: a short refresh of the app's content.
    case appRefresh = "BGAppRefreshTask"

    /// The recorded name of a run of the task registered as `identifier`:
    /// `BGProcessingTask:<identifier>` or `BGAppRefreshTask:<identifier>`.
    public func recordedName(identifier: String) -> String { "\(rawValue):\(identifier)" }
}

/// One run of a BGTaskScheduler task: `bgtask.begin` when its launch handler is called
/// (``Recorder/scheduledTaskLaunched(_:identifier:)``), `bgtask.expire` when its expiration
/// handler runs (``expired()``), `bgtask.end` at `setTaskCompleted` (``completed()``).
///
/// Its id comes from the top of the id space (``Recorder/firstScheduledTaskID`` and up), so it
/// never collides with a UIKit background task identifier, which counts up from 1.
public final class ScheduledTaskRun: Sendable {
    /// The id the run's events carry.
    public let id: Int64
    /// The recorded name (``ScheduledTaskKind/recordedName(identifier:)``).
    public let name: RecordedName
    private let recorder: Recorder
    private let ended = ManagedAtomic<Bool>(false)

    init(recorder: Recorder, id: Int64, name: RecordedName) {
        self.recorder = recorder
        self.id = id
        self.name = name
    }

    /// The system expires the run: records `bgtask.expire` (call before the app's handler runs).
    public func expired() {
        guard !ended.load(ordering: .acquiring) else { return }
        recorder.backgroundTaskExpire(id: id, name: name)
    }

    /// The app called `setTaskCompleted(success:)`: records `bgtask.end`, once (any thread).
    public func completed() {
        guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
        recorder.backgroundTaskEnd(id: id, name: name)
    }

    /// Whether ``completed()`` was called.
    public var isCompleted: Bool { ended.load(ordering: .acquiring) }
}

extension Recorder {
    /// The first id of a scheduled task's run: 2^62; later runs count up from it.
    public static let firstScheduledTaskID: Int64 = 1 << 62

    private static let scheduledTaskCounter = ManagedAtomic<Int64>(0)

    /// A BGTaskScheduler task's launch handler is called: records `bgtask.begin` with a new id
    /// and returns the run, to record its expiration and completion.
    public func scheduledTaskLaunched(_ kind: ScheduledTaskKind, identifier: String) -> ScheduledTaskRun {
        let id = Recorder.firstScheduledTaskID + Recorder.scheduledTaskCounter.loadThenWrappingIncrement(ordering: .relaxed)
        let run = ScheduledTaskRun(recorder: self, id: id, name: name(kind.recordedName(identifier: identifier)))
        backgroundTaskBegin(id: run.id, name: run.name)
        return run
    }
}
