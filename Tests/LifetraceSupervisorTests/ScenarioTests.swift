import Foundation
import LifetraceFormat
import LifetraceOutput
import Testing

@testable import LifetraceSupervisor

@Suite struct ScenarioTests {
    @Test func parsesStepsTimeoutsAndLaunchOptions() throws {
        let scenario = try Scenario.parse(
            yaml: """
                name: sample
                timeouts:
                  command: 250ms
                  launch: 1.5s
                  termination: 2
                  background-tasks: 3s
                steps:
                  - launch:
                      background: true
                      reason: location
                  - wait: 100ms
                  - interruption
                  - open-url: notes://note/1
                  - scene-connect: main
                  - purge
                """, source: "inline")
        #expect(scenario.name == "sample")
        #expect(scenario.commandTimeout == .milliseconds(250))
        #expect(scenario.launchTimeout == .milliseconds(1500))
        #expect(scenario.terminationGrace == .seconds(2))
        #expect(scenario.backgroundTaskLimit == .seconds(3))
        #expect(
            scenario.steps == [
                .launch(background: true, reason: "location", url: nil), .wait(.milliseconds(100)),
                .interruption(duration: .milliseconds(500)), .openURL(URL(string: "notes://note/1")!),
                .sceneConnect("main"), .purge,
            ])
    }

    @Test(arguments: [
        ("steps: []", "`steps` must be a non-empty list"),
        ("steps:\n  - activate", "the first step must be `launch`"),
        ("steps:\n  - launch\n  - dance", "step 2: unknown step `dance`"),
        ("steps:\n  - launch\n  - wait: soon", "step 2: invalid duration \"soon\""),
        ("steps:\n  - launch: sideways", "step 1: launch is `foreground` or `background`"),
        ("steps:\n  - launch:\n      colour: red", "step 1: unknown launch option `colour`"),
        ("tempo: fast\nsteps:\n  - launch", "unknown key `tempo`"),
        ("timeouts:\n  nap: 1s\nsteps:\n  - launch", "unknown timeout `nap`"),
        ("steps:\n  - {launch: foreground, wait: 1s}", "step 1: expected a step name or a one-key mapping"),
        (": : :", "not YAML"),
    ])
    func rejectsInvalidScenariosNamingTheStep(_ yaml: String, _ message: String) {
        #expect {
            try Scenario.parse(yaml: yaml, source: "bad.yaml")
        } throws: { error in
            let description = (error as? SupervisorError)?.description ?? ""
            return description.hasPrefix("bad scenario: bad.yaml") && description.contains(message)
        }
    }

    @Test func everySampleScenarioParses() throws {
        let directory = SampleRecording.packageRoot.appendingPathComponent("Samples/scenarios")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }
        #expect(files.count == ScenarioRecordingTests.scenarios.count + RealIOSScenarioTests.scenarios.count)
        for file in files {
            let scenario = try Scenario.load(path: directory.appendingPathComponent(file).path)
            #expect(scenario.name + ".yaml" == file)
        }
        #expect(try SampleRecording.scenario("default").steps == Scenario.standard.steps)
    }

    @Test("a scenario reads durations like the command line", arguments: ["250ms", "1.5s", "20s", "2m", "750us", "1h", "10ns"])
    func durationsReadLikeTheCommandLine(text: String) throws {
        let scenario = try Scenario.parse(
            yaml: "timeouts:\n  command: \(text)\nsteps:\n  - launch\n  - wait: \(text)\n", source: "inline")
        let expected = Duration.nanoseconds(try DurationParser.nanoseconds(text))
        #expect(scenario.steps.last == .wait(expected))
        #expect(scenario.commandTimeout == expected)
    }

    @Test("a scenario refuses what the command line refuses, with the same reason", arguments: ["20", "-1s", "soon", "1.2.3s"])
    func durationsRefusedLikeTheCommandLine(text: String) throws {
        // A bare number is YAML's own number (seconds); quoted, it is text and needs a unit.
        let yaml = "steps:\n  - launch\n  - wait: \"\(text)\"\n"
        let refusal = #expect(throws: DurationError.self) { try DurationParser.nanoseconds(text) }
        #expect(throws: SupervisorError(.badScenario, detail: "inline: step 2: \(refusal?.description ?? "")")) {
            try Scenario.parse(yaml: yaml, source: "inline")
        }
    }
}
