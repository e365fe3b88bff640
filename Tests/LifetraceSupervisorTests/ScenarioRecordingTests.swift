import Foundation
import LifetraceAnalysis
import LifetraceTestSupport
import LifetraceFormat
import LifetraceRecorder
import Testing

@testable import LifetraceSupervisor

/// Recorded runs of the sample app under every sample scenario.
@Suite struct ScenarioRecordingTests {
    static let scenarios = ["default", "background-launch", "terminate", "force-quit", "open-url", "scenes"]

    @Test(arguments: scenarios)
    func sampleScenarioRecordsACleanRun(_ name: String) throws {
        let (outcome, trace, analysis) = try SampleRecording.record(
            try SampleRecording.scenario(name), options: SampleRecording.orderingOnly)
        #expect(outcome == .completed)
        #expect(trace.brokenInvariants == [], "\(name):\n\(trace.lifecycleLines.joined(separator: "\n"))")
        // The analyzer finds nothing wrong: no violation, not even a warning.
        #expect(analysis.violations.map(\.message) == [], "\(name):\n\(trace.lifecycleLines.joined(separator: "\n"))")
        #expect(analysis.issues.isEmpty)
        #expect(analysis.lifetimes.count == 1)
    }

    @Test func defaultScenarioPlaysTheSeedsLifeCycle() throws {
        let (_, trace, _) = try SampleRecording.record(.standard)
        let lines = trace.lifecycleLines
        let expectedOrder = [
            "launch user", "begin willFinishLaunching", "begin didFinishLaunching", "signpost.begin OpenDatabase",
            "state active", "begin didBecomeActive", "frame", "state inactive", "begin willResignActive",
            "state active", "state inactive", "state background", "begin didEnterBackground",
            "bgtask.begin SaveState", "bgtask.end SaveState", "state suspended", "state background",
            "state inactive", "begin willEnterForeground", "state active", "begin didReceiveMemoryWarning",
            "mark CachesPurged", "state suspended", "exit signal 9",
        ]
        var remaining = lines[...]
        for expected in expectedOrder {
            guard let index = remaining.firstIndex(of: expected) else {
                Issue.record("missing `\(expected)` in order:\n\(lines.joined(separator: "\n"))")
                return
            }
            remaining = remaining[(index + 1)...]
        }
        #expect(trace.events.contains { $0.type == .runloopWake && $0.thread.isMain })
        #expect(trace.events.contains { $0.type == .runloopSleep && $0.thread.isMain })
    }

    @Test func terminationDeliversWillTerminateThenTheAppExits() throws {
        let (_, trace, _) = try SampleRecording.record(try SampleRecording.scenario("terminate"))
        let lines = trace.lifecycleLines
        #expect(lines.contains("end willTerminate"))
        #expect(lines.last == "exit code 0")
    }

    @Test func backgroundLaunchStartsInBackground() throws {
        let (_, trace, _) = try SampleRecording.record(try SampleRecording.scenario("background-launch"))
        #expect(trace.lifecycleLines.first == "launch fetch background")
        #expect(!trace.lifecycleLines.prefix(while: { $0 != "state suspended" }).contains("begin didBecomeActive"))
    }

    @Test func heavyLaunchIsReportedAsALaunchStallBlamingTheWork() throws {
        let (_, trace, analysis) = try SampleRecording.record(.standard, arguments: ["--heavy-launch"])
        #expect(analysis.violatedRules == [.launchStall], "\(analysis.violations.map(\.message))")
        let stall = analysis.lifetimes.first?.stalls.first
        #expect((stall?.duration ?? 0) >= 400_000_000)
        #expect(stall?.blame.contains { $0.name == "IndexSearchCatalog" } == true, "\(String(describing: stall?.blame))")
        // The work named is the signpost inside didFinishLaunching, not the callback around it.
        #expect(stall?.work?.chain == ["didFinishLaunching", "IndexSearchCatalog"], "\(String(describing: stall?.work))")
        #expect(analysis.violations.first?.message.contains("signpost \"IndexSearchCatalog\"") == true)
        let events = trace.merged
        guard let begin = events.first(where: { trace.line($0) == "signpost.begin IndexSearchCatalog" }),
            let end = events.first(where: { trace.line($0) == "signpost.end IndexSearchCatalog" })
        else {
            Issue.record("no IndexSearchCatalog signpost")
            return
        }
        #expect(begin.thread.isMain && end.thread.isMain)
        #expect(end.timestamp - begin.timestamp >= 400_000_000)
        // The main thread does not sleep during the work: one busy interval covers it.
        let sleeps = events.filter { $0.type == .runloopSleep && $0.thread.isMain }
        #expect(!sleeps.contains { $0.timestamp > begin.timestamp && $0.timestamp < end.timestamp })
    }
}

/// Background tasks that outlive the system's limit are expired before the app is suspended, and
/// a handler that ends its task then gets no warning.
@Suite struct BackgroundTaskExpirationTests {
    @Test func slowSaveIsExpiredThenSuspended() throws {
        let scenario = try Scenario.parse(
            yaml: """
                name: slow-save
                timeouts:
                  background-tasks: 200ms
                steps:
                  - launch
                  - activate
                  - home
                  - suspend
                  - purge
                """, source: "slow-save")
        let (outcome, trace, analysis) = try SampleRecording.record(scenario, arguments: ["--slow-save"])
        #expect(outcome == .completed)
        let lines = trace.lifecycleLines
        // Expired, its handler ended it, and only then was the app suspended.
        guard let expire = lines.firstIndex(of: "bgtask.expire SaveState"),
            let end = lines.firstIndex(of: "bgtask.end SaveState"),
            let suspended = lines.firstIndex(of: "state suspended")
        else {
            Issue.record("missing expiration events:\n\(lines.joined(separator: "\n"))")
            return
        }
        #expect(expire < end && end < suspended)
        // Its expiration handler ended it: no background-time warning (docs/LIFECYCLE.md, "An expired task").
        #expect(analysis.violatedRules == [], "\(analysis.violations.map(\.message))")
        #expect(trace.brokenInvariants.filter { !$0.hasPrefix("app event while suspended: signpost.end") } == [])
    }
}
