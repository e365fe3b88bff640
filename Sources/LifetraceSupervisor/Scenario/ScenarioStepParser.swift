import Foundation

/// Turns the YAML form of a step (a bare name, or a one-key mapping) into a ``ScenarioStep``.
enum ScenarioStepParser {
    static func parse(_ raw: Any, location: String) throws(SupervisorError) -> ScenarioStep {
        if let name = raw as? String { return try bare(name, location: location) }
        guard let table = raw as? [String: Any], table.count == 1, let (name, value) = table.first else {
            throw SupervisorError(.badScenario, detail: "\(location): expected a step name or a one-key mapping")
        }
        switch name {
        case "launch":
            return try launch(value, location: location)
        case "wait":
            return .wait(try duration(value, location: location))
        case "interruption":
            return .interruption(duration: try duration(value, location: location))
        case "open-url":
            guard let text = value as? String, let url = URL(string: text), url.scheme != nil else {
                throw SupervisorError(.badScenario, detail: "\(location): `open-url` needs a URL")
            }
            return .openURL(url)
        case "scene-connect", "scene-activate", "scene-background", "scene-disconnect":
            guard let scene = value as? String, !scene.isEmpty, !scene.contains(" ") else {
                throw SupervisorError(.badScenario, detail: "\(location): `\(name)` needs a scene name without spaces")
            }
            switch name {
            case "scene-connect": return .sceneConnect(scene)
            case "scene-activate": return .sceneActivate(scene)
            case "scene-background": return .sceneBackground(scene)
            default: return .sceneDisconnect(scene)
            }
        default:
            throw SupervisorError(.badScenario, detail: "\(location): unknown step `\(name)`")
        }
    }

    private static func bare(_ name: String, location: String) throws(SupervisorError) -> ScenarioStep {
        switch name {
        case "launch": return .launch(background: false, reason: "user", url: nil)
        case "activate": return .activate
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
        let known: Set<String> = ["background", "reason", "url"]
        if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
            throw SupervisorError(.badScenario, detail: "\(location): unknown launch option `\(unknown)`")
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

    /// Parses `250ms`, `1.5s`, `20s` or a number of seconds.
    static func duration(_ value: Any, location: String) throws(SupervisorError) -> Duration {
        if let seconds = value as? Int, seconds >= 0 { return .seconds(seconds) }
        if let seconds = value as? Double, seconds >= 0 { return .milliseconds(Int64(seconds * 1000)) }
        guard let text = value as? String, let parsed = DurationText.parse(text) else {
            throw SupervisorError(.badScenario, detail: "\(location): expected a duration like 250ms or 1.5s")
        }
        return parsed
    }
}

/// Durations as written in scenarios and on the command line: `250ms`, `1.5s`, `20s`.
public enum DurationText {
    /// The duration `text` stands for, or nil.
    public static func parse(_ text: String) -> Duration? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let (number, scale): (Substring, Double)
        if trimmed.hasSuffix("ms") {
            (number, scale) = (trimmed.dropLast(2), 1)
        } else if trimmed.hasSuffix("s") {
            (number, scale) = (trimmed.dropLast(), 1000)
        } else {
            return nil
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        return .microseconds(Int64((value * scale * 1000).rounded()))
    }
}
