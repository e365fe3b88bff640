import Foundation

/// One thing the system does to the app in a scenario. The YAML form of each is in
/// `docs/RECORDING.md`.
public enum ScenarioStep: Sendable, Hashable {
    /// Starts the app: into the foreground (Inactive) or straight into the background.
    case launch(background: Bool, reason: String, url: URL?)
    /// Inactive -> Active: didBecomeActive.
    case activate
    /// Active -> Inactive: willResignActive (the app switcher is shown, a banner covers the app).
    case resignActive
    /// Inactive -> Background: didEnterBackground.
    case enterBackground
    /// Background (or Suspended) -> Inactive: willEnterForeground.
    case enterForeground
    /// The home button: willResignActive, then didEnterBackground.
    case home
    /// Back to the app from the background: willEnterForeground, then didBecomeActive.
    case reopen
    /// An incoming call: willResignActive, the call lasts `duration`, then didBecomeActive.
    case interruption(duration: Duration)
    /// The user opens the app switcher: willResignActive (then `activate` or `force-quit`).
    case appSwitcher
    /// Background -> Suspended (SIGSTOP), once background tasks ended or expired.
    case suspend
    /// Suspended -> Background (SIGCONT).
    case resume
    /// didReceiveMemoryWarning (not delivered to a suspended app).
    case memoryWarning
    /// open(url:).
    case openURL(URL)
    /// A suspended app is purged: SIGKILL, no notification.
    case purge
    /// The system terminates a background app: willTerminate, a grace period, then SIGKILL.
    case terminate
    /// The user swipes the app away in the app switcher: SIGKILL, no notification.
    case forceQuit
    /// Time passes; the app runs (or stays suspended).
    case wait(Duration)
    /// sceneWillConnect for a new scene (attached in the background).
    case sceneConnect(String)
    /// The scene comes to the foreground and becomes active.
    case sceneActivate(String)
    /// The scene resigns active and enters the background.
    case sceneBackground(String)
    /// sceneDidDisconnect.
    case sceneDisconnect(String)

    /// The step's name in the YAML form.
    public var name: String {
        switch self {
        case .launch: "launch"
        case .activate: "activate"
        case .resignActive: "resign"
        case .enterBackground: "background"
        case .enterForeground: "foreground"
        case .home: "home"
        case .reopen: "reopen"
        case .interruption: "interruption"
        case .appSwitcher: "app-switcher"
        case .suspend: "suspend"
        case .resume: "resume"
        case .memoryWarning: "memory-warning"
        case .openURL: "open-url"
        case .purge: "purge"
        case .terminate: "terminate"
        case .forceQuit: "force-quit"
        case .wait: "wait"
        case .sceneConnect: "scene-connect"
        case .sceneActivate: "scene-activate"
        case .sceneBackground: "scene-background"
        case .sceneDisconnect: "scene-disconnect"
        }
    }

    /// Whether the step ends the process (so its exit is expected, not a crash).
    var endsProcess: Bool {
        switch self {
        case .purge, .terminate, .forceQuit: true
        default: false
        }
    }
}
