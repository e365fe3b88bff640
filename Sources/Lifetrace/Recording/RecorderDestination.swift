import Foundation
import LifetraceFormat
import LifetraceRecorder

/// Writes the adapter's events into a running recorder: the destination of an app.
///
/// The recorder stamps each event with the time and thread of the call, which are the input's
/// own: the adapter writes synchronously while it handles an input (``LifecycleEventDestination``).
/// Names are interned once each and kept.
public final class RecorderDestination: LifecycleEventDestination, @unchecked Sendable {
    /// The recorder written to.
    public let recorder: Recorder
    private let lock = NSLock()
    private var names: [String: RecordedName] = [:]
    private var stopped = false

    /// A destination writing into `recorder`.
    public init(recorder: Recorder) {
        self.recorder = recorder
    }

    private func name(_ string: String?) -> RecordedName {
        guard let string else { return .none }
        lock.lock()
        defer { lock.unlock() }
        if let name = names[string] { return name }
        let name = recorder.name(string)
        names[string] = name
        return name
    }

    /// Writes nothing more: the recording stopped (``Lifetrace/stop()``).
    func stop() {
        lock.withLock { stopped = true }
    }

    /// Records `event` now, on the calling thread; nothing after ``stop()``.
    public func write(_ event: AdaptedEvent) {
        guard !lock.withLock({ stopped }) else { return }
        switch event.kind {
        case .callbackBegin(let callback, let scene): recorder.callbackBegin(name(callback), scene: name(scene))
        case .callbackEnd(let callback, let scene): recorder.callbackEnd(name(callback), scene: name(scene))
        case .runloopWake: recorder.runloopWake()
        case .runloopSleep: recorder.runloopSleep()
        case .frame(let first): recorder.frame(first: first)
        case .signpostBegin(let signpost, let id): recorder.signpostBegin(name(signpost), id: id)
        case .signpostEnd(let signpost, let id): recorder.signpostEnd(name(signpost), id: id)
        case .mark(let mark): recorder.mark(name(mark))
        case .bgtaskBegin(let id, let task): recorder.backgroundTaskBegin(id: id, name: name(task))
        case .bgtaskEnd(let id, let task): recorder.backgroundTaskEnd(id: id, name: name(task))
        case .bgtaskExpire(let id, let task): recorder.backgroundTaskExpire(id: id, name: name(task))
        }
    }
}
