import Foundation
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

/// How the app host records the callbacks it runs.
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
            callbacks.deliver(.sceneDidBecomeActive, scene: "main") {}
            #expect(callbacks.sceneName("main") == callbacks.sceneName("main"))
        }
        #expect(Self.lines(recorded) == [
            "begin sceneWillConnect main", "end sceneWillConnect main",
            "begin sceneDidBecomeActive main", "end sceneDidBecomeActive main",
        ])
    }

    @Test func onlyTheFirstFrameCounts() throws {
        let recorded = try Self.record { callbacks in
            callbacks.deliver(.didBecomeActive) {}
            callbacks.framePresented()
            callbacks.framePresented()
        }
        #expect(Self.lines(recorded) == ["begin didBecomeActive", "end didBecomeActive", "frame true"])
    }
}
