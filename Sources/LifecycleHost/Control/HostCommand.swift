import Foundation
import LifetraceRecorder

/// A command of the supervisor (the system) to the app host, one line on the control channel.
///
/// The wire form is `SEQ VERB [ARGUMENT]`; the host answers `SEQ ok [VALUE]` or
/// `SEQ error MESSAGE` once the command was carried out on the main thread.
public enum HostCommand: Sendable, Hashable {
    /// The environment variable in which the supervisor names the channel's file descriptor.
    public static let controlEnvironmentKey = "LIFETRACE_CONTROL_FD"

    /// Launch: willFinishLaunching, didFinishLaunching.
    case launch(LaunchOptions)
    /// didBecomeActive.
    case activate
    /// willResignActive.
    case resignActive
    /// didEnterBackground.
    case enterBackground
    /// willEnterForeground.
    case enterForeground
    /// willTerminate; the host exits after answering.
    case terminate
    /// didReceiveMemoryWarning.
    case memoryWarning
    /// open(url:).
    case openURL(URL)
    /// Expires every open background task: `bgtask.expire`, then its expiration handler.
    case expireBackgroundTasks
    /// Asks for the number of open background tasks (the answer's value).
    case backgroundTaskCount
    /// Runs the registered scheduler task: `bgtask.begin`, then its launch handler.
    case runScheduledTask(ScheduledTaskKind, identifier: String)
    /// Expires every open scheduler task run: `bgtask.expire`, then its expiration handler.
    case expireScheduledTasks
    /// Asks for the number of scheduler task runs not completed (the answer's value).
    case scheduledTaskCount
    /// sceneWillConnect for a new scene.
    case sceneConnect(String)
    /// sceneDidDisconnect.
    case sceneDisconnect(String)
    /// sceneWillEnterForeground.
    case sceneEnterForeground(String)
    /// sceneDidBecomeActive.
    case sceneActivate(String)
    /// sceneWillResignActive.
    case sceneResignActive(String)
    /// sceneDidEnterBackground.
    case sceneEnterBackground(String)

    /// The command's verb and argument on the wire.
    public var wireText: String {
        switch self {
        case .launch(let options):
            var text = "launch \(options.background ? "background" : "foreground") \(options.reason)"
            if let url = options.url { text += " \(url.absoluteString)" }
            return text
        case .activate: return "activate"
        case .resignActive: return "resign"
        case .enterBackground: return "background"
        case .enterForeground: return "foreground"
        case .terminate: return "terminate"
        case .memoryWarning: return "memory-warning"
        case .openURL(let url): return "open-url \(url.absoluteString)"
        case .expireBackgroundTasks: return "expire"
        case .backgroundTaskCount: return "tasks"
        case .runScheduledTask(let kind, let identifier):
            return "scheduled-run \(kind.wireName) \(identifier)"
        case .expireScheduledTasks: return "scheduled-expire"
        case .scheduledTaskCount: return "scheduled-tasks"
        case .sceneConnect(let scene): return "scene-connect \(scene)"
        case .sceneDisconnect(let scene): return "scene-disconnect \(scene)"
        case .sceneEnterForeground(let scene): return "scene-foreground \(scene)"
        case .sceneActivate(let scene): return "scene-activate \(scene)"
        case .sceneResignActive(let scene): return "scene-resign \(scene)"
        case .sceneEnterBackground(let scene): return "scene-background \(scene)"
        }
    }

    /// Parses the verb and argument of a line (without its sequence number).
    public init?(wireText: some StringProtocol) {
        let words = String(wireText).split(separator: " ").map(String.init)
        guard let verb = words.first else { return nil }
        let argument = words.count > 1 ? words[1] : nil
        switch (verb, argument) {
        case ("launch", let kind?):
            guard kind == "foreground" || kind == "background" else { return nil }
            let reason = words.count > 2 ? words[2] : "user"
            let url = words.count > 3 ? URL(string: words[3]) : nil
            self = .launch(LaunchOptions(reason: reason, background: kind == "background", url: url))
        case ("activate", nil): self = .activate
        case ("resign", nil): self = .resignActive
        case ("background", nil): self = .enterBackground
        case ("foreground", nil): self = .enterForeground
        case ("terminate", nil): self = .terminate
        case ("memory-warning", nil): self = .memoryWarning
        case ("open-url", let text?):
            guard let url = URL(string: text) else { return nil }
            self = .openURL(url)
        case ("expire", nil): self = .expireBackgroundTasks
        case ("tasks", nil): self = .backgroundTaskCount
        case ("scheduled-run", let kind?):
            guard words.count == 3, let kind = ScheduledTaskKind(wireName: kind) else { return nil }
            self = .runScheduledTask(kind, identifier: words[2])
        case ("scheduled-expire", nil): self = .expireScheduledTasks
        case ("scheduled-tasks", nil): self = .scheduledTaskCount
        case ("scene-connect", let scene?): self = .sceneConnect(scene)
        case ("scene-disconnect", let scene?): self = .sceneDisconnect(scene)
        case ("scene-foreground", let scene?): self = .sceneEnterForeground(scene)
        case ("scene-activate", let scene?): self = .sceneActivate(scene)
        case ("scene-resign", let scene?): self = .sceneResignActive(scene)
        case ("scene-background", let scene?): self = .sceneEnterBackground(scene)
        default: return nil
        }
    }
}

extension ScheduledTaskKind {
    /// The kind's word on the control channel and in scenarios: `processing` or `refresh`.
    public var wireName: String { self == .processing ? "processing" : "refresh" }

    /// The kind named `processing` or `refresh`.
    public init?(wireName: String) {
        switch wireName {
        case "processing": self = .processing
        case "refresh": self = .appRefresh
        default: return nil
        }
    }
}
