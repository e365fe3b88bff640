import Lifetrace
import LifetraceFormat
import LifetraceRecorder
import Testing

/// The adapter's decisions one at a time, with inputs as the UIKit adapter would give them.
struct LifecycleAdapterTests {
    static func run(
        progress: LifecycleAdapter.LaunchProgress = .ahead, onMainThread: Bool = false, _ inputs: [(Int64, LifecycleObservation)]
    ) -> [String] {
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        adapter.start(at: 0, onMainThread: onMainThread, progress: progress)
        for (at, observation) in inputs { adapter.handle(ObservedInput(observation, at: at)) }
        return collected.events.map { event in
            switch event.kind {
            case .callbackBegin(let name, let scene): "\(event.timestamp) begin \(name)\(scene.map { " " + $0 } ?? "")"
            case .callbackEnd(let name, let scene): "\(event.timestamp) end \(name)\(scene.map { " " + $0 } ?? "")"
            case .frame(let first): "\(event.timestamp) frame \(first.map(String.init) ?? "-")"
            case .runloopWake: "\(event.timestamp) wake"
            case .runloopSleep: "\(event.timestamp) sleep"
            default: "\(event.timestamp) \(event.kind)"
            }
        }
    }

    static let didFinish = "UIApplicationDidFinishLaunchingNotification"
    static let didBecomeActive = "UIApplicationDidBecomeActiveNotification"

    @Test("from notifications alone, each callback is zero-length at its notification, the launch as its pair")
    func notificationsOnly() {
        let lines = Self.run([
            (10, .notification(name: Self.didFinish, scene: nil)),
            (20, .notification(name: "UISceneWillConnectNotification", scene: "S1")),
            (30, .notification(name: Self.didBecomeActive, scene: nil)),
            (31, .notification(name: "UIApplicationSomethingElse", scene: nil)),
        ])
        #expect(lines == [
            "10 begin willFinishLaunching", "10 end willFinishLaunching", "10 begin didFinishLaunching", "10 end didFinishLaunching",
            "20 begin sceneWillConnect S1", "20 end sceneWillConnect S1", "30 begin didBecomeActive", "30 end didBecomeActive",
        ])
    }

    @Test("an instrumented callback is timed and its notification is not recorded again; others still are")
    func instrumentedCallbacksAreNotCountedTwice() {
        let lines = Self.run([
            (0, .delegateInstrumented(selectors: ["applicationDidBecomeActive:", "application:didFinishLaunchingWithOptions:"])),
            (10, .delegateCallbackBegan(selector: "application:didFinishLaunchingWithOptions:", scene: nil)),
            (15, .delegateCallbackEnded(selector: "application:didFinishLaunchingWithOptions:", scene: nil)),
            (15, .notification(name: Self.didFinish, scene: nil)),
            (20, .delegateCallbackBegan(selector: "applicationDidBecomeActive:", scene: nil)),
            (21, .notification(name: Self.didBecomeActive, scene: nil)),
            (22, .delegateCallbackEnded(selector: "applicationDidBecomeActive:", scene: nil)),
            (30, .notification(name: "UIApplicationWillResignActiveNotification", scene: nil)),
            (40, .delegateCallbackBegan(selector: "application:openURL:options:", scene: nil)),
        ])
        // The delegate has no willFinishLaunching: UIKit's order gives it a zero-length one.
        #expect(lines == [
            "10 begin willFinishLaunching", "10 end willFinishLaunching", "10 begin didFinishLaunching", "15 end didFinishLaunching",
            "20 begin didBecomeActive", "22 end didBecomeActive", "30 begin willResignActive", "30 end willResignActive",
            "40 begin openURL",
        ])
    }

    @Test("an instrumented willFinishLaunching not seen ran before the start: none is invented")
    func lateStartInventsNoWillFinishLaunching() {
        let lines = Self.run(progress: .firstActivationAhead, [
            (0, .delegateInstrumented(selectors: Array(LifecycleAdapter.timedDelegateMethods.keys))),
            (10, .delegateCallbackBegan(selector: "application:didFinishLaunchingWithOptions:", scene: nil)),
            (11, .delegateCallbackEnded(selector: "application:didFinishLaunchingWithOptions:", scene: nil)),
        ])
        #expect(lines == ["10 begin didFinishLaunching", "11 end didFinishLaunching"])
    }

    @Test("scene callbacks carry the session's identifier; app callbacks never do")
    func sceneIdentifiers() {
        let lines = Self.run([
            (1, .delegateCallbackBegan(selector: "sceneWillEnterForeground:", scene: "ABC-1")),
            (2, .delegateCallbackEnded(selector: "sceneWillEnterForeground:", scene: "ABC-1")),
            (3, .delegateCallbackBegan(selector: "applicationWillEnterForeground:", scene: "ABC-1")),
            (4, .delegateCallbackEnded(selector: "applicationWillEnterForeground:", scene: "ABC-1")),
            (5, .notification(name: "UISceneDidActivateNotification", scene: nil)),
        ])
        #expect(lines == [
            "1 begin sceneWillEnterForeground ABC-1", "2 end sceneWillEnterForeground ABC-1",
            "3 begin willEnterForeground", "4 end willEnterForeground",
            "5 begin sceneDidBecomeActive scene", "5 end sceneDidBecomeActive scene",
        ])
    }

    @Test("the main run loop: a start on the main thread is awake; repeated activities are recorded once")
    func mainRunLoop() {
        let lines = Self.run(onMainThread: true, [
            (1, .mainRunLoopAfterWaiting), (2, .mainRunLoopBeforeWaiting), (3, .mainRunLoopBeforeWaiting),
            (4, .mainRunLoopAfterWaiting), (5, .mainRunLoopAfterWaiting), (6, .mainRunLoopBeforeWaiting),
        ])
        #expect(lines == ["0 wake", "2 sleep", "4 wake", "6 sleep"])
        #expect(Self.run([(1, .mainRunLoopBeforeWaiting)]) == ["1 sleep"])
    }

    @Test("frames: none before the first activation, then the first after each activation")
    func framesAfterActivations() {
        let active: [(Int64, LifecycleObservation)] = [
            (10, .delegateCallbackBegan(selector: "applicationDidBecomeActive:", scene: nil)),
            (11, .delegateCallbackEnded(selector: "applicationDidBecomeActive:", scene: nil)),
        ]
        let lines = Self.run(
            [(1, .displayFrame), (2, .notification(name: Self.didFinish, scene: nil)), (3, .displayFrame)] + active
                + [(12, .displayFrame), (13, .displayFrame)] + active.map { ($0.0 + 10, $0.1) } + [(22, .displayFrame)])
        #expect(lines.filter { $0.contains("frame") } == ["12 frame true", "22 frame -"])
    }

    @Test("frames after a late start: the first seen, not known to be the process's first")
    func framesAfterALateStart() {
        #expect(Self.run(progress: .unknown, [(1, .displayFrame), (2, .displayFrame)]) == ["1 frame -"])
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        adapter.start(at: 0, onMainThread: false, progress: .unknown)
        #expect(adapter.wantsFrames)
        adapter.handle(ObservedInput(.displayFrame, at: 1))
        #expect(!adapter.wantsFrames)
        // Started during the launch: the first frame after the first activation is the first.
        let during = Self.run(progress: .firstActivationAhead, [
            (1, .displayFrame), (2, .notification(name: Self.didBecomeActive, scene: nil)), (3, .displayFrame),
        ])
        #expect(during.last == "3 frame true")
    }

    @Test("signposts, marks and background tasks pass through on their own thread")
    func appEventsPassThrough() {
        let collected = CollectedEvents()
        let adapter = LifecycleAdapter(destination: collected)
        adapter.handle(ObservedInput(.signpostBegan(name: "sync", id: 7), at: 1, thread: .numbered(3)))
        adapter.handle(ObservedInput(.backgroundTaskExpired(id: 2, name: "save"), at: 2))
        #expect(collected.events == [
            AdaptedEvent(.signpostBegin(name: "sync", id: 7), at: 1, thread: .numbered(3)),
            AdaptedEvent(.bgtaskExpire(id: 2, name: "save"), at: 2),
        ])
    }
}
