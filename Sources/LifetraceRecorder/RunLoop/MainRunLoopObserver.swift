import Foundation

#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// Records the main run loop's wake and sleep, so main-thread stalls are measured after the fact
/// (a busy interval runs from `runloop.wake` to the next `runloop.sleep`) rather than sampled.
///
/// It is a `CFRunLoopObserver` on the main run loop's common modes, which swift-corelibs-foundation
/// provides on Linux as CoreFoundation does on Apple platforms: `afterWaiting` records a wake,
/// `beforeWaiting` a sleep.
public final class MainRunLoopObserver: @unchecked Sendable {
    private let observer: CFRunLoopObserver
    private var installed = false

    /// An observer recording into `recorder`; call ``install()`` to start observing.
    public init(recorder: Recorder) {
        let activities = CFRunLoopActivity.afterWaiting.rawValue | CFRunLoopActivity.beforeWaiting.rawValue
        observer = CFRunLoopObserverCreateWithHandler(kCFAllocatorDefault, activities, true, 0) { _, activity in
            if activity == .afterWaiting {
                recorder.runloopWake()
                StallSampler.current?.mainWoke()
            } else {
                StallSampler.current?.mainSlept()
                recorder.runloopSleep()
            }
        }
    }

    /// Adds the observer to the main run loop.
    public func install() {
        guard !installed else { return }
        installed = true
        CFRunLoopAddObserver(CFRunLoopGetMain(), observer, Self.commonModes)
    }

    /// Removes the observer from the main run loop.
    public func uninstall() {
        guard installed else { return }
        installed = false
        CFRunLoopRemoveObserver(CFRunLoopGetMain(), observer, Self.commonModes)
    }

    /// The common modes: a `CFRunLoopMode` constant in Darwin's CoreFoundation, a global in
    /// swift-corelibs-foundation's.
    private static var commonModes: CFRunLoopMode {
        #if canImport(Darwin)
        .commonModes
        #else
        kCFRunLoopCommonModes
        #endif
    }
}
