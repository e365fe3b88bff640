import Foundation
import Yams

/// A scripted run of the system around the app: the steps `lifetrace record` plays, and the
/// time limits it plays them with.
public struct Scenario: Sendable, Hashable {
    /// The scenario's name, written to the trace's metadata.
    public var name: String
    /// The steps, in order.
    public var steps: [ScenarioStep]
    /// How long a callback may take before the app counts as not responding.
    public var commandTimeout: Duration = .seconds(5)
    /// How long the launch callbacks may take (the launch watchdog).
    public var launchTimeout: Duration = .seconds(20)
    /// How long a terminating app has after willTerminate returned before it is killed.
    public var terminationGrace: Duration = .seconds(5)
    /// How long background tasks may run before the system expires them.
    public var backgroundTaskLimit: Duration = .seconds(5)
    /// The background modes the app declares (`UIBackgroundModes`), written to the trace's
    /// metadata (`backgroundModes`) and given to the app; nil: not said.
    public var backgroundModes: [String]?
    /// The OS version the run stands for, written to the trace's metadata (`os`); nil: not said.
    public var os: String?
    /// Whether the supervisor writes `state` events. Without them the trace holds what an app
    /// recording itself sees: its launch, its own events and its exit.
    public var writesStateEvents = true

    /// A scenario of `steps`.
    public init(name: String, steps: [ScenarioStep]) {
        self.name = name
        self.steps = steps
    }

    /// The scenario played when none is given: a foreground launch, some use, an interruption,
    /// the home button, suspension, a memory warning on return, then home again and a purge.
    public static let standard = Scenario(
        name: "default",
        steps: [
            .launch(background: false, reason: "user", url: nil), .activate, .wait(.milliseconds(200)),
            .interruption(duration: .milliseconds(100)), .home, .suspend, .wait(.milliseconds(100)), .reopen,
            .memoryWarning, .wait(.milliseconds(100)), .home, .suspend, .purge,
        ])

    /// Reads a scenario from the YAML file at `path`; `parameters` override the values of the
    /// scenario's `parameters` (each must be declared there).
    public static func load(path: String, parameters: [String: String] = [:]) throws(SupervisorError) -> Scenario {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw SupervisorError(.badScenario, detail: "\(path): cannot read the file")
        }
        return try parse(yaml: text, source: path, parameters: parameters)
    }

    /// Parses a scenario from YAML; `source` names it in errors; `parameters` override the values
    /// of the scenario's `parameters`.
    public static func parse(
        yaml: String, source: String, parameters overrides: [String: String] = [:]
    ) throws(SupervisorError) -> Scenario {
        let document: Any?
        do {
            // Composed first and measured before it becomes Swift values: aliases share nodes, so
            // a few hundred bytes of nested aliases can stand for billions of values.
            let node = try Yams.compose(yaml: yaml)
            if let node {
                var budget = maximumNodes
                guard Self.fits(node, budget: &budget) else {
                    throw SupervisorError(
                        .badScenario,
                        detail: "\(source): the document expands to more than \(maximumNodes) values (nested aliases?)")
                }
            }
            document = node?.any
        } catch let error as SupervisorError {
            throw error
        } catch {
            throw SupervisorError(.badScenario, detail: "\(source): not YAML: \(Self.oneLine(error))")
        }
        guard let root = document as? [String: Any] else {
            throw SupervisorError(.badScenario, detail: "\(source): expected a mapping with `steps`")
        }
        let known: Set<String> = [
            "name", "description", "steps", "timeouts", "parameters", "background-modes", "os", "state-events",
        ]
        if let unknown = root.keys.sorted().first(where: { !known.contains($0) }) {
            throw SupervisorError(.badScenario, detail: "\(source): unknown key `\(unknown)`")
        }
        guard let rawSteps = root["steps"] as? [Any], !rawSteps.isEmpty else {
            throw SupervisorError(.badScenario, detail: "\(source): `steps` must be a non-empty list")
        }
        let parameters = try Self.parameters(root["parameters"], overrides: overrides, source: source)
        var steps: [ScenarioStep] = []
        for (index, raw) in rawSteps.enumerated() {
            steps.append(
                try ScenarioStepParser.parse(raw, location: "\(source): step \(index + 1)", parameters: parameters))
        }
        var scenario = Scenario(name: (root["name"] as? String) ?? URL(fileURLWithPath: source).deletingPathExtension().lastPathComponent, steps: steps)
        try scenario.readDeviceKeys(root, source: source)
        if let timeouts = root["timeouts"] {
            guard let table = timeouts as? [String: Any] else {
                throw SupervisorError(.badScenario, detail: "\(source): `timeouts` must be a mapping")
            }
            for (key, value) in table {
                let duration = try ScenarioStepParser.duration(
                    value, location: "\(source): timeouts.\(key)", parameters: parameters)
                switch key {
                case "command": scenario.commandTimeout = duration
                case "launch": scenario.launchTimeout = duration
                case "termination": scenario.terminationGrace = duration
                case "background-tasks": scenario.backgroundTaskLimit = duration
                default: throw SupervisorError(.badScenario, detail: "\(source): unknown timeout `\(key)`")
                }
            }
        }
        switch steps[0] {
        case .launch, .prewarmLaunch: break
        default: throw SupervisorError(.badScenario, detail: "\(source): the first step must be `launch`")
        }
        return scenario
    }

    /// The scenario's parameters: its `parameters` mapping (name -> a duration), with `overrides`
    /// (from the command line) replacing declared values.
    private static func parameters(
        _ raw: Any?, overrides: [String: String], source: String
    ) throws(SupervisorError) -> ScenarioStepParser.Parameters {
        var parameters: ScenarioStepParser.Parameters = [:]
        if let raw {
            guard let table = raw as? [String: Any] else {
                throw SupervisorError(.badScenario, detail: "\(source): `parameters` must be a mapping of names to durations")
            }
            for (name, value) in table {
                // Checked here, so that an unused parameter with a bad value is still an error.
                _ = try ScenarioStepParser.duration(value, location: "\(source): parameters.\(name)")
                parameters[name] = value
            }
        }
        for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
            guard parameters[name] != nil else {
                throw SupervisorError(.badScenario, detail: "\(source): no parameter named `\(name)` to set")
            }
            _ = try ScenarioStepParser.duration(value, location: "parameter \(name)")
            parameters[name] = value
        }
        return parameters
    }

    /// `background-modes` (a list of names), `os` (a string) and `state-events` (true or false).
    private mutating func readDeviceKeys(_ root: [String: Any], source: String) throws(SupervisorError) {
        if let raw = root["background-modes"] {
            guard let modes = raw as? [String],
                modes.allSatisfy({ !$0.isEmpty && !$0.contains(",") && !$0.contains(" ") })
            else {
                throw SupervisorError(
                    .badScenario, detail: "\(source): `background-modes` must be a list of mode names (audio, location, ...)")
            }
            backgroundModes = modes
        }
        if let raw = root["os"] {
            guard let text = raw as? String, !text.isEmpty, !text.contains(where: \.isNewline) else {
                throw SupervisorError(.badScenario, detail: "\(source): `os` must be one line, like `iOS 17.5.1`")
            }
            os = text
        }
        if let raw = root["state-events"] {
            guard let flag = raw as? Bool else {
                throw SupervisorError(.badScenario, detail: "\(source): `state-events` is true or false")
            }
            writesStateEvents = flag
        }
    }

    /// The most values a scenario document may expand to, aliases counted at every use.
    public static let maximumNodes = 100_000

    /// Whether `node` expands to at most `budget` values; stops counting as soon as it does not.
    private static func fits(_ node: Node, budget: inout Int) -> Bool {
        budget -= 1
        guard budget >= 0 else { return false }
        switch node {
        case .scalar, .alias:
            return true
        case .sequence(let sequence):
            for child in sequence where !fits(child, budget: &budget) { return false }
            return true
        case .mapping(let mapping):
            for (key, value) in mapping where !fits(key, budget: &budget) || !fits(value, budget: &budget) {
                return false
            }
            return true
        }
    }

    /// A YAML error as one line: the problem and where (`line 3, column 5`), without the
    /// multi-line excerpt of the source that Yams adds.
    private static func oneLine(_ error: any Error) -> String {
        guard let yaml = error as? YamlError else {
            return "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
        }
        switch yaml {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let about = context.map { "\($0.text), " } ?? ""
            return "\(about)\(problem) at line \(mark.line), column \(mark.column)"
        case .reader(let problem, let offset, _, _):
            return problem + (offset.map { " at byte \($0)" } ?? "")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "duplicate keys \(duplicates.joined(separator: ", ")) at line \(context.mark.line), column \(context.mark.column)"
        default:
            return "\(yaml)".split(whereSeparator: \.isNewline).joined(separator: " ")
        }
    }
}
