import Foundation
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

/// The platform-neutral core of the app host and the UIKit adapter.
struct LifecycleCallbacksTests {
    /// A recorder draining into memory, and the events it wrote once stopped.
    static func record(_ body: (LifecycleCallbacks) -> Void) throws -> (events: [TraceEvent], symbols: SymbolTable) {
        let sink = TraceEventCollection()
        let recorder = try Recorder(layout: RegionLayout(ringCount: 2, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10))
        body(LifecycleCallbacks(recorder: recorder))
        try recorder.stop()
        return sink.snapshot
    }

    static func lines(_ recorded: (events: [TraceEvent], symbols: SymbolTable)) -> [String] {
        recorded.events.map { event in
            switch event.payload {
            case .callbackBegin(let name, let scene): "begin \(recorded.symbols[name])" + (scene.isNone ? "" : " \(recorded.symbols[scene])")
            case .callbackEnd(let name, let scene): "end \(recorded.symbols[name])" + (scene.isNone ? "" : " \(recorded.symbols[scene])")
            case .frame(let first): "frame \(first.map(String.init) ?? "-")"
            default: event.type.name
            }
        }
    }

    @Test func deliverRecordsTheRealBeginAndEndAroundTheCall() throws {
        var during: Int64 = 0
        let recorded = try Self.record { callbacks in
            callbacks.deliver(.didFinishLaunching) {
                usleep(20_000)
                during = MonotonicClock.now()
                usleep(20_000)
            }
        }
        #expect(Self.lines(recorded) == ["begin didFinishLaunching", "end didFinishLaunching"])
        #expect(recorded.events[0].timestamp < during && during < recorded.events[1].timestamp)
        #expect(recorded.events[1].timestamp - recorded.events[0].timestamp >= 40_000_000)
    }

    @Test func scenesAreNamedByTheirIdentifier() throws {
        let recorded = try Self.record { callbacks in
            callbacks.deliver(.sceneWillConnect, scene: "main") {}
            callbacks.announced(.sceneDidBecomeActive, scene: "main")
            #expect(callbacks.sceneName("main") == callbacks.sceneName("main"))
        }
        #expect(Self.lines(recorded) == [
            "begin sceneWillConnect main", "end sceneWillConnect main",
            "begin sceneDidBecomeActive main", "end sceneDidBecomeActive main",
        ])
    }

    @Test func anAnnouncedLaunchIsTheLaunchPairAndOnlyTheFirstFrameCounts() throws {
        let recorded = try Self.record { callbacks in
            callbacks.announced(.didFinishLaunching)
            callbacks.announced(.didBecomeActive)
            callbacks.framePresented()
            callbacks.framePresented()
        }
        #expect(Self.lines(recorded) == [
            "begin willFinishLaunching", "end willFinishLaunching", "begin didFinishLaunching", "end didFinishLaunching",
            "begin didBecomeActive", "end didBecomeActive", "frame true",
        ])
    }

    @Test func everyNotificationAnnouncesALifecycleCallbackOfItsKind() {
        let table = LifecycleCallbacks.uiKitNotifications
        #expect(Set(table.map(\.name)).count == table.count)
        for entry in table {
            #expect(entry.isScene == entry.callback.isSceneCallback, "\(entry.name)")
            #expect(entry.name.hasPrefix(entry.isScene ? "UIScene" : "UIApplication"), "\(entry.name)")
        }
        // Every scene callback and every app-delegate transition has its notification.
        let covered = Set(table.map(\.callback))
        for callback in CallbackName.allCases where callback.isSceneCallback || callback.isLifecycleCallback {
            if callback == .willFinishLaunching { continue }  // announced with didFinishLaunching
            #expect(covered.contains(callback), "\(callback)")
        }
    }
}

/// What a delegate proxy records: the decisions the UIKit shim leaves to `LifecycleCallbacks`.
struct DelegateProxyTests {
    @Test func aForwardedLifecycleSelectorIsRecordedFromItsRealBeginToItsRealEnd() throws {
        var during: Int64 = 0
        let recorded = try LifecycleCallbacksTests.record { callbacks in
            callbacks.proxyInstalled(respondingTo: ["applicationDidBecomeActive:"])
            let result = callbacks.forwarded("applicationDidBecomeActive:") { () -> Int in
                usleep(10_000)
                during = MonotonicClock.now()
                usleep(10_000)
                return 7
            }
            #expect(result == 7)
        }
        #expect(LifecycleCallbacksTests.lines(recorded) == ["begin didBecomeActive", "end didBecomeActive"])
        #expect(recorded.events[0].timestamp < during && during < recorded.events[1].timestamp)
    }

    @Test func otherSelectorsRunUnrecorded() throws {
        var ran = false
        let recorded = try LifecycleCallbacksTests.record { callbacks in
            callbacks.forwarded("application:configurationForConnectingSceneSession:options:") { ran = true }
        }
        #expect(ran)
        #expect(recorded.events.isEmpty)
    }

    @Test func notificationsOfProxiedCallbacksAreNotRecordedTwice() throws {
        let recorded = try LifecycleCallbacksTests.record { callbacks in
            callbacks.proxyInstalled(respondingTo: ["applicationDidBecomeActive:", "sceneDidBecomeActive:", "noSuchSelector:"])
            callbacks.forwarded("applicationDidBecomeActive:") {}
            callbacks.announced(.didBecomeActive)
            callbacks.forwarded("sceneDidBecomeActive:", scene: "main") {}
            callbacks.announced(.sceneDidBecomeActive, scene: "main")
            // The delegate does not implement it: its notification is still recorded.
            callbacks.announced(.willResignActive)
        }
        #expect(LifecycleCallbacksTests.lines(recorded) == [
            "begin didBecomeActive", "end didBecomeActive",
            "begin sceneDidBecomeActive main", "end sceneDidBecomeActive main",
            "begin willResignActive", "end willResignActive",
        ])
    }

    @Test func theLaunchPairIsCompleteWhateverTheDelegateImplements() throws {
        // No willFinishLaunching in the delegate: a zero-length one comes first.
        let withoutWill = try LifecycleCallbacksTests.record { callbacks in
            callbacks.proxyInstalled(respondingTo: ["application:didFinishLaunchingWithOptions:"])
            callbacks.forwarded("application:didFinishLaunchingWithOptions:") { true }
            callbacks.announced(.didFinishLaunching)
        }
        #expect(LifecycleCallbacksTests.lines(withoutWill) == [
            "begin willFinishLaunching", "end willFinishLaunching", "begin didFinishLaunching", "end didFinishLaunching",
        ])
        // Both forwarded: each once, with its real times.
        let both = try LifecycleCallbacksTests.record { callbacks in
            callbacks.proxyInstalled(respondingTo: ["application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:"])
            callbacks.forwarded("application:willFinishLaunchingWithOptions:") { true }
            callbacks.forwarded("application:didFinishLaunchingWithOptions:") { true }
            callbacks.announced(.didFinishLaunching)
        }
        #expect(LifecycleCallbacksTests.lines(both) == [
            "begin willFinishLaunching", "end willFinishLaunching", "begin didFinishLaunching", "end didFinishLaunching",
        ])
    }

    @Test func scenesAreNamedOnlyForSceneSelectors() throws {
        let recorded = try LifecycleCallbacksTests.record { callbacks in
            callbacks.forwarded("scene:willConnectToSession:options:", scene: "A1") {}
            callbacks.forwarded("applicationWillResignActive:", scene: "A1") {}
        }
        #expect(LifecycleCallbacksTests.lines(recorded) == [
            "begin sceneWillConnect A1", "end sceneWillConnect A1", "begin willResignActive", "end willResignActive",
        ])
    }

    @Test func everyLifecycleCallbackHasOneSelector() {
        let table = LifecycleCallbacks.delegateSelectors
        #expect(Set(table.values).count == table.count)
        for (selector, callback) in table {
            #expect(selector.hasPrefix("scene") == callback.isSceneCallback, "\(selector)")
            #expect(selector.hasSuffix(":"), "\(selector)")
        }
        for callback in CallbackName.allCases {
            #expect(table.values.contains(callback), "\(callback)")
        }
    }
}
