import Foundation
import LifetraceTestSupport
import Testing

/// The built `lifetrace` on Instruments exports: `check`, `report`, `import` and `info` read
/// them like traces; bad ones are one line on standard error and exit status 2.
@Suite("lifetrace on Instruments exports")
struct XctraceCommandTests {
    @Test func checkReadsTheAppLaunchExportAndPassesIt() throws {
        let result = try LifetraceCommand.run(["check", InstrumentsSamples.lifeCycle])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("app-launch.life-cycle-period.xml: ok (31 events, 1 lifetime)"), "\(result.output)")
    }

    @Test func checkReportsTheLaunchPhasesInJSON() throws {
        let result = try LifetraceCommand.run(["check", InstrumentsSamples.lifeCycle, "--format", "json"])
        #expect(result.status == 0, "\(result.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let traces = try #require(json["traces"] as? [[String: Any]])
        let lifetimes = try #require(traces.first?["lifetimes"] as? [[String: Any]])
        let launch = try #require(lifetimes.first?["launch"] as? [String: Any])
        #expect(lifetimes.count == 1)
        #expect(launch["kind"] as? String == "cold")
        #expect(launch["pid"] as? Int == 4121)
        #expect(launch["windowEnd"] as? String == "firstFrame")
        #expect(launch["duration"] as? Int == 322_731_000, "Process Creation to the end of Initial Frame Rendering")
        #expect(launch["busyInWindow"] as? Int == 65_636_000, "the callbacks Instruments lists")
        let milestones = try #require(launch["milestones"] as? [String: Any])
        #expect(milestones["willFinishLaunching"] as? Int == 154_376_000)
        #expect(milestones["didFinishLaunchingEnd"] as? Int == 215_504_000)
        #expect(milestones["firstFrame"] as? Int == 322_731_000)
    }

    @Test func reportShowsTheLaunchKindWindowAndMilestones() throws {
        let result = try LifetraceCommand.run(["report", InstrumentsSamples.lifeCycle])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Lifetime 1: cold launch (pid 4121, at +0.000 s into the trace)"), "\(result.output)")
        #expect(result.output.contains("Launch: 322 ms (to the first frame)"))
        #expect(result.output.contains("Main thread busy in window: 65 ms (from callbacks)"))
        // The Foreground - Active period lasts to the recording's end, 4 s in.
        #expect(result.output.contains("Time in states (system view): inactive 322 ms, active 3.557 s"), "\(result.output)")
        #expect(result.output.contains("Milestones: willFinishLaunching 154 ms, didFinishLaunching returned 215 ms, first frame 322 ms after the launch"))
    }

    @Test func importReadsTheTablesOfOneRecordingTogether() throws {
        let directory = try ScratchDirectory.make("xctrace-import")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let output = directory + "/launch.ltrace"
        let imported = try LifetraceCommand.run([
            "import", InstrumentsSamples.tableOfContents, InstrumentsSamples.lifeCycle, InstrumentsSamples.signposts, "-o", output,
        ])
        #expect(imported.status == 0, "\(imported.error)")
        #expect(imported.error.isEmpty, "\(imported.error)")
        let info = try LifetraceCommand.run(["info", output])
        #expect(info.output.contains(
            "metadata:   app=Notes, os=iOS 17.5.1 (21F90), device=iPhone 15 Pro, recorder=Instruments 15.4 (15F31d) (App Launch), source=xcrun xctrace export, omitted=1 os-signpost row of other processes (SpringBoard (57)): the trace is of process 4121, the recording's target process in the table of contents"),
            "\(info.output)")
        #expect(info.output.contains("events:     36"))
        let dumped = try LifetraceCommand.run(["dump", output])
        #expect(dumped.output.contains(#"{"ts":600000000,"type":"mark","name":"FirstContentVisible"}"#))
    }

    @Test func checkPassesASignpostExportWhoseOtherProcessesAreLeftOut() throws {
        let result = try LifetraceCommand.run(["check", InstrumentsSamples.signposts])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(result.output.contains("app-launch.os-signpost.xml: ok (5 events"), "\(result.output)")
    }

    @Test func infoNamesTheInputKind() throws {
        let info = try LifetraceCommand.run(["info", InstrumentsSamples.signposts])
        #expect(info.status == 0, "\(info.error)")
        #expect(info.output.contains("kind:      Instruments export (xctrace XML), converted"), "\(info.output)")
    }

    @Test func anUnknownTableIsOneLineAndExitStatusTwo() throws {
        let directory = try ScratchDirectory.make("xctrace-unknown")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/time-profile.xml"
        try """
            <?xml version="1.0"?>
            <trace-query-result><node xpath="x"><schema name="time-profile"><col><mnemonic>time</mnemonic></col></schema></node></trace-query-result>

            """.write(toFile: path, atomically: true, encoding: .utf8)
        for command in [["check", path], ["import", path, "-o", directory + "/out.ltrace"], ["report", path]] {
            let result = try LifetraceCommand.run(command)
            #expect(result.status == 2, "\(command)")
            #expect(result.error.contains(
                "time-profile.xml:2:64: table schema \"time-profile\" is not one lifetrace reads; it reads life-cycle-period and os-signpost"),
                "\(command): \(result.error)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory + "/out.ltrace"), "a failed import leaves nothing")
    }

    @Test func importRefusesToMixAnInstrumentsExportWithATrace() throws {
        let directory = try ScratchDirectory.make("xctrace-mix")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let jsonl = directory + "/t.jsonl"
        try "{\"ts\":0,\"type\":\"launch\"}\n".write(toFile: jsonl, atomically: true, encoding: .utf8)
        let result = try LifetraceCommand.run(["import", InstrumentsSamples.lifeCycle, jsonl, "-o", directory + "/out.ltrace"])
        #expect(result.status == 2)
        #expect(result.error.contains("t.jsonl: not an Instruments export: only the XML tables of one recording are read together"), "\(result.error)")
    }

    @Test func standardInputIsReadLikeAFile() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: InstrumentsSamples.signposts))
        let result = try LifetraceCommand.run(["dump", "-"], input: bytes)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains(#""name":"LoadDatabase""#))
    }
}
