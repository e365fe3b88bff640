import Foundation
import LifecycleHost
import LifetraceFormat
import LifetraceOutput
import LifetraceRecorder

/// Turns the YAML form of a step (a bare name, or a one-key mapping) into a ``ScenarioStep``.
enum ScenarioStepParser {
    /// The scenario's parameters (name -> value), which a duration may name as `$name`.
    typealias Parameters = [String: Any]

    static func parse(_ raw: Any, location: String, parameters: Parameters = [:]) throws(SupervisorError) -> ScenarioStep {
        if let name = raw as? String { return try bare(name, location: location) }
        guard let table = raw as? [String: Any], table.count == 1, let (name, value) = table.first else {
            throw SupervisorError(.badScenario, detail: "\(location): expected a step name or a one-key mapping")
        }
        switch name {
        case "launch":
            return try launch(value, location: location)
        case "wait":
            return .wait(try duration(value, location: location, parameters: parameters))
        case "interruption":
            return .interruption(duration: try duration(value, location: location, parameters: parameters))
        case "pause":
            return .pause(try duration(value, location: location, parameters: parameters))
        case "scheduled-task":
            return try scheduledTask(value, location: location, parameters: parameters)
        case "open-url":
            guard let text = value as? String, let url = URL(string: text), url.scheme != nil else {
                throw SupervisorError(.badScenario, detail: "\(location): `open-url` needs a URL")
            }
            return .openURL(url)
        case "scene-connect", "scene-activate", "scene-background", "scene-disconnect", "scene-will-enter-foreground",
            "scene-did-become-active":
            guard let scene = value as? String, !scene.isEmpty, !scene.contains(" ") else {
                throw SupervisorError(.badScenario, detail: "\(location): `\(name)` needs a scene name without spaces")
            }
            switch name {
            case "scene-connect": return .sceneConnect(scene)
            case "scene-activate": return .sceneActivate(scene)
            case "scene-background": return .sceneBackground(scene)
            case "scene-will-enter-foreground": return .sceneWillEnterForeground(scene)
            case "scene-did-become-active": return .sceneDidBecomeActive(scene)
            default: return .sceneDisconnect(scene)
            }
        default:
            throw SupervisorError(.badScenario, detail: "\(location): unknown step `\(name)`")
        }
    }

    private static func bare(_ name: String, location: String) throws(SupervisorError) -> ScenarioStep {
        switch name {
        case "launch": return .launch(background: false, reason: "user", url: nil)
        case "finish-launching": return .finishLaunching
        case "activate": return .activate
        case "reactivate": return .reactivate
        case "terminate-inactive": return .terminateInactive
        case "resign": return .resignActive
        case "background": return .enterBackground
        case "foreground": return .enterForeground
        case "home": return .home
        case "reopen": return .reopen
        case "interruption": return .interruption(duration: .milliseconds(500))
        case "app-switcher": return .appSwitcher
        case "suspend": return .suspend
        case "resume": return .resume
        case "memory-warning": return .memoryWarning
        case "purge": return .purge
        case "terminate": return .terminate
        case "force-quit": return .forceQuit
        default: throw SupervisorError(.badScenario, detail: "\(location): unknown step `\(name)`")
        }
    }

    private static func launch(_ value: Any, location: String) throws(SupervisorError) -> ScenarioStep {
        if let kind = value as? String {
            guard kind == "foreground" || kind == "background" else {
                throw SupervisorError(.badScenario, detail: "\(location): launch is `foreground` or `background`")
            }
            return .launch(background: kind == "background", reason: kind == "background" ? "fetch" : "user", url: nil)
        }
        guard let table = value as? [String: Any] else {
            throw SupervisorError(.badScenario, detail: "\(location): launch takes `foreground`, `background` or a mapping")
        }
        let known: Set<String> = ["background", "reason", "url", "prewarm", "finish-launching"]
        if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
            throw SupervisorError(.badScenario, detail: "\(location): unknown launch option `\(unknown)`")
        }
        for key in ["background", "prewarm", "finish-launching"] where table[key] != nil && !(table[key] is Bool) {
            throw SupervisorError(.badScenario, detail: "\(location): launch option `\(key)` is true or false")
        }
        if table["prewarm"] as? Bool == true {
            // A prewarm is the system's own start of the process, ahead of the user's launch.
            guard table.keys.allSatisfy({ $0 == "prewarm" || $0 == "finish-launching" }) else {
                throw SupervisorError(
                    .badScenario, detail: "\(location): a prewarmed launch takes only `finish-launching`")
            }
            return .prewarmLaunch(finishLaunching: table["finish-launching"] as? Bool ?? true)
        }
        guard table["finish-launching"] == nil else {
            throw SupervisorError(.badScenario, detail: "\(location): `finish-launching` needs `prewarm: true`")
        }
        let background = table["background"] as? Bool ?? false
        let reason = table["reason"] as? String ?? (background ? "fetch" : "user")
        guard !reason.isEmpty, !reason.contains(" ") else {
            throw SupervisorError(.badScenario, detail: "\(location): launch reason must be one word")
        }
        var url: URL?
        if let text = table["url"] {
            guard let string = text as? String, let parsed = URL(string: string), parsed.scheme != nil else {
                throw SupervisorError(.badScenario, detail: "\(location): launch url is not a URL")
            }
            url = parsed
        }
        return .launch(background: background, reason: reason, url: url)
    }

    private static func scheduledTask(
        _ value: Any, location: String, parameters: Parameters
    ) throws(SupervisorError) -> ScenarioStep {
        guard let table = value as? [String: Any] else {
            throw SupervisorError(.badScenario, detail: "\(location): `scheduled-task` takes a mapping with `identifier`")
        }
        let known: Set<String> = ["identifier", "type", "limit"]
        if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
            throw SupervisorError(.badScenario, detail: "\(location): unknown scheduled-task option `\(unknown)`")
        }
        guard let identifier = table["identifier"] as? String, !identifier.isEmpty, !identifier.contains(" ") else {
            throw SupervisorError(.badScenario, detail: "\(location): `scheduled-task` needs an `identifier` without spaces")
        }
        var kind = ScheduledTaskKind.processing
        if let type = table["type"] {
            guard let text = type as? String, let parsed = ScheduledTaskKind(wireName: text) else {
                throw SupervisorError(.badScenario, detail: "\(location): scheduled-task `type` is `processing` or `refresh`")
            }
            kind = parsed
        }
        let limit = try table["limit"].map { raw throws(SupervisorError) in
            try duration(raw, location: "\(location): limit", parameters: parameters)
        } ?? .seconds(30)
        return .scheduledTask(kind: kind, identifier: identifier, limit: limit)
    }

    /// Parses `250ms`, `1.5s`, `20s` (the command line's grammar, ``DurationParser``), a
    /// number of seconds, or `$name`, the value of the scenario's parameter `name`; anything
    /// negative, infinite or past 2^60 ns is refused.
    static func duration(_ value: Any, location: String, parameters: Parameters = [:]) throws(SupervisorError) -> Duration {
        if let text = value as? String, text.hasPrefix("$") {
            let name = String(text.dropFirst())
            guard let parameter = parameters[name] else {
                throw SupervisorError(.badScenario, detail: "\(location): no parameter named `\(name)`")
            }
            guard !(parameter is String && (parameter as? String)?.hasPrefix("$") == true) else {
                throw SupervisorError(.badScenario, detail: "\(location): parameter `\(name)` names another parameter")
            }
            return try duration(parameter, location: "\(location) (parameter `\(name)`)")
        }
        let limit = Double(TraceTime.limit) / 1e9
        if let seconds = value as? Int {
            guard seconds >= 0, Double(seconds) <= limit else { throw outOfRange(location) }
            return .seconds(seconds)
        }
        if let seconds = value as? Double {
            guard seconds.isFinite, seconds >= 0, seconds <= limit else { throw outOfRange(location) }
            return .nanoseconds(Int64((seconds * 1e9).rounded()))
        }
        guard let text = value as? String else {
            throw SupervisorError(.badScenario, detail: "\(location): expected a duration like 250ms or 1.5s")
        }
        do throws(DurationError) {
            return .nanoseconds(try DurationParser.nanoseconds(text))
        } catch {
            throw SupervisorError(.badScenario, detail: "\(location): \(error.description)")
        }
    }

    private static func outOfRange(_ location: String) -> SupervisorError {
        SupervisorError(.badScenario, detail: "\(location): expected a number of seconds from 0 to 2^60 ns (about 36 years)")
    }
}
