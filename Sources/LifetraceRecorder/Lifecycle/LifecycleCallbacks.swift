import Foundation
import LifetraceFormat

/// Records the delegate callbacks, scenes and first frame of an app whose callbacks the caller
/// runs itself: the Linux app host (`LifecycleHost`), which calls each delegate method through
/// ``deliver(_:scene:_:)`` and so records its real begin and end. An iOS app is observed instead
/// (notifications, delegate methods wrapped in place): the `Lifetrace` product's
/// `LifecycleAdapter` decides what such observations record.
public final class LifecycleCallbacks: @unchecked Sendable {
    /// The recorder every callback goes to.
    public let recorder: Recorder
    private let names: [CallbackName: RecordedName]
    private let lock = NSLock()
    private var sceneNames: [String: RecordedName] = [:]
    private var firstFrameRecorded = false

    /// Callbacks recorded into `recorder`; every callback's name is interned here, once.
    public init(recorder: Recorder) {
        self.recorder = recorder
        var names: [CallbackName: RecordedName] = [:]
        for callback in CallbackName.allCases { names[callback] = recorder.name(callback.rawValue) }
        self.names = names
    }

    /// The recorded name of `callback`.
    public func name(of callback: CallbackName) -> RecordedName { names[callback] ?? .none }

    /// The recorded name of the scene with the persistent identifier `identifier`, interned once.
    public func sceneName(_ identifier: String) -> RecordedName {
        lock.lock()
        defer { lock.unlock() }
        if let name = sceneNames[identifier] { return name }
        let name = recorder.name(identifier)
        sceneNames[identifier] = name
        return name
    }

    /// Runs `body` as the delegate callback `callback` (of the scene `scene`, for a scene callback)
    /// and records it from its real begin to its real end, on the calling thread.
    public func deliver<Result, Failure: Error>(
        _ callback: CallbackName, scene: String? = nil, _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let name = name(of: callback)
        let sceneName = scene.map(sceneName) ?? .none
        recorder.callbackBegin(name, scene: sceneName)
        defer { recorder.callbackEnd(name, scene: sceneName) }
        return try body()
    }

    /// A frame reached the screen; only the first is recorded, as the first frame (the launch
    /// window's end).
    public func framePresented() {
        lock.lock()
        let first = !firstFrameRecorded
        firstFrameRecorded = true
        lock.unlock()
        if first { recorder.frame(first: true) }
    }
}
