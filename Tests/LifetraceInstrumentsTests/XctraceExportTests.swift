import LifetraceFormat
@testable import LifetraceInstruments
import Testing

/// The App Launch and os-signpost fixtures read into lifetrace events and metadata.
@Suite("xctrace export: App Launch tables")
struct XctraceExportTests {
    @Test func lifeCyclePeriodsBecomeTheLaunchItsCallbacksPhasesFirstFrameAndState() throws {
        let trace = try InstrumentsSamples.read([InstrumentsSamples.lifeCycle])
        let lines = InstrumentsSamples.lines(trace)
        #expect(lines.first == "120000000 launch pid 4121")
        #expect(lines.contains("274417000 callback.begin didFinishLaunching"))
        #expect(lines.contains("335504000 callback.end didFinishLaunching"))
        #expect(lines.contains("274376000 callback.begin willFinishLaunching"))
        #expect(lines.contains("412800000 callback.begin sceneWillConnect scene main"))
        #expect(lines.contains("436339000 callback.end sceneWillEnterForeground scene main"))
        #expect(lines.contains("230660000 signpost.begin UIKit Initialization 4"))
        #expect(lines.contains("160150000 signpost.end Process Creation 1"))
        // Four UIKit Scene Creation periods, each its own interval.
        #expect(lines.filter { $0.contains("signpost.begin UIKit Scene Creation") }.count == 4)
        #expect(Array(lines.suffix(5)) == [
            "442731000 signpost.end Initial Frame Rendering 9", "442731000 frame first", "442731000 state active",
            "442731000 signpost.begin Foreground - Active 10", "4000000000 signpost.end Foreground - Active 10",
        ])
        #expect(trace.events.count == 31)
        #expect(trace.metadata["app"] == "Notes")
        #expect(trace.issues.isEmpty)
    }

    @Test func eventsAreInTimeOrderWithEndsBeforeTheNextPhaseBegins() throws {
        let trace = try InstrumentsSamples.read([InstrumentsSamples.lifeCycle])
        #expect(trace.events.map(\.timestamp) == trace.events.map(\.timestamp).sorted())
        let lines = InstrumentsSamples.lines(trace)
        let end = try #require(lines.firstIndex(of: "274376000 signpost.end UIKit Scene Creation 5"))
        let begin = try #require(lines.firstIndex(of: "274376000 callback.begin willFinishLaunching"))
        #expect(end < begin)
    }

    @Test func signpostRowsBecomeSignpostsAndMarksWithTheirNamesIDsAndThreads() throws {
        let trace = try InstrumentsSamples.read([InstrumentsSamples.signposts])
        #expect(InstrumentsSamples.lines(trace) == [
            "280000000 signpost.begin LoadDatabase 17",
            "300000000 signpost.begin FetchFeed 18 thread 27394",
            "320000000 signpost.end LoadDatabase 17",
            "600000000 mark FirstContentVisible",
            "900000000 signpost.end FetchFeed 18 thread 27394",
        ])
        // SpringBoard's row is another process's: left out, and said so in the metadata (not as
        // an issue: the trace was read whole).
        #expect(trace.metadata["omitted"] == "1 os-signpost row of other processes (SpringBoard (57)): the trace is of process 4121, "
            + "the process of the first os-signpost row (no table of contents)")
        #expect(trace.issues.isEmpty)
    }

    @Test func theTableOfContentsGivesTheMetadataAndTheTablesReadTogetherMakeOneTrace() throws {
        let trace = try InstrumentsSamples.read([
            InstrumentsSamples.tableOfContents, InstrumentsSamples.lifeCycle, InstrumentsSamples.signposts,
        ])
        #expect(trace.metadata.fields.map { "\($0.key)=\($0.value)" } == [
            "app=Notes", "os=iOS 17.5.1 (21F90)", "device=iPhone 15 Pro",
            "recorder=Instruments 15.4 (15F31d) (App Launch)", "source=xcrun xctrace export",
            "omitted=1 os-signpost row of other processes (SpringBoard (57)): the trace is of process 4121, the recording's target process in the table of contents",
        ])
        #expect(trace.metadata.fields.allSatisfy { !$0.value.contains("Test Device") }, "the device's own name is left out")
        #expect(trace.events.count == 36)
        #expect(trace.events.map(\.timestamp) == trace.events.map(\.timestamp).sorted())
    }

    @Test func periodNamesMapToPhasesCallbacksAndStates() {
        #expect(AppLifeCyclePeriod("Initializing - Process Creation") == .processCreation)
        #expect(AppLifeCyclePeriod("Launching - didFinishLaunchingWithOptions()") == .callback("didFinishLaunching"))
        #expect(AppLifeCyclePeriod("Launching - applicationDidBecomeActive()") == .callback("didBecomeActive"))
        #expect(AppLifeCyclePeriod("Launching - sceneWillConnectTo()") == .callback("sceneWillConnect"))
        #expect(AppLifeCyclePeriod("Launching - UIKit Scene Creation") == .phase("UIKit Scene Creation"))
        #expect(AppLifeCyclePeriod("Launching - Initial Frame Rendering") == .initialFrameRendering)
        #expect(AppLifeCyclePeriod("Foreground - Active") == .state(.active))
        #expect(AppLifeCyclePeriod("Foreground - Inactive") == .state(.inactive))
        #expect(AppLifeCyclePeriod("Background - Running") == .state(.background))
    }
}
