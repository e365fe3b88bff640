import Foundation
import LifetraceRecorder

/// One thing the system does to the app in a scenario. The YAML form of each is in
/// `docs/RECORDING.md`.
public enum ScenarioStep: Sendable, Hashable {
    /// Starts the app: into the foreground (Inactive) or straight into the background.
    case launch(background: Bool, reason: String, url: URL?)
    /// The system prewarms the app (iOS 15+): spawns it with `ActivePrewarm=1`, writes a `launch`
    /// with `prewarm`, and with `finishLaunching` runs willFinishLaunching and didFinishLaunching;
    /// without, the process only starts (``finishLaunching`` runs them later).
    case prewarmLaunch(finishLaunching: Bool)
    /// willFinishLaunching, didFinishLaunching for an app prewarmed without them.
    case finishLaunching
    /// The system holds the process (SIGSTOP) for `duration`, then lets it go on (SIGCONT),
    /// writing nothing: a prewarmed process waiting for the user.
    case pause(Duration)
    /// Inactive -> Active: didBecomeActive.
    case activate
    /// didBecomeActive once more with no willResignActive before it (iOS 11 to 12.1.4 after a
    /// Notification Center pull, rdar 49216830).
    case reactivate
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
    /// The user swipes away an app the switcher left Inactive: willTerminate with no
    /// didEnterBackground, the grace period, then SIGKILL.
    case terminateInactive
    /// The scheduler runs the app's registered task (BGTaskScheduler): its launch handler, then
    /// up to `limit` for it to complete before it is expired.
    case scheduledTask(kind: ScheduledTaskKind, identifier: String, limit: Duration)
    /// Time passes; the app runs (or stays suspended).
    case wait(Duration)
    /// sceneWillConnect for a new scene (attached in the background).
    case sceneConnect(String)
    /// The scene comes to the foreground and becomes active.
    case sceneActivate(String)
    /// The scene resigns active and enters the background.
    case sceneBackground(String)
    /// Only the scene's sceneWillEnterForeground (the first half of `sceneActivate`), so that
    /// app-level callbacks can come between the scene's.
    case sceneWillEnterForeground(String)
    /// Only the scene's sceneDidBecomeActive (the second half of `sceneActivate`).
    case sceneDidBecomeActive(String)
    /// sceneDidDisconnect.
    case sceneDisconnect(String)

    /// The step's name in the YAML form.
    public var name: String {
        switch self {
        case .launch, .prewarmLaunch: "launch"
        case .finishLaunching: "finish-launching"
        case .pause: "pause"
        case .reactivate: "reactivate"
        case .terminateInactive: "terminate-inactive"
        case .scheduledTask: "scheduled-task"
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
        case .sceneWillEnterForeground: "scene-will-enter-foreground"
        case .sceneDidBecomeActive: "scene-did-become-active"
        case .sceneDisconnect: "scene-disconnect"
        }
    }

    /// Whether the step ends the process (so its exit is expected, not a crash).
    var endsProcess: Bool {
        switch self {
        case .purge, .terminate, .forceQuit, .terminateInactive: true
        default: false
        }
    }
}
