import Foundation
import LifetraceFormat

/// What one life-cycle-period row's `period` says, as Instruments' App Launch template names it:
/// `Group - Phase`, such as `Initializing - Process Creation`, `Launching - UIKit Initialization`,
/// `Launching - didFinishLaunchingWithOptions()` or `Foreground - Active`.
enum AppLifeCyclePeriod: Equatable {
    /// The process is created: the launch starts here.
    case processCreation
    /// A delegate callback runs (a phase named like a method, `name()`).
    case callback(String)
    /// The first frame is rendered; it is presented at the period's end.
    case initialFrameRendering
    /// The app is in a state for the period.
    case state(LifecycleState)
    /// Another launch phase (system interface, static runtime, UIKit initialization, scene creation).
    case phase(String)

    /// The meaning of `period`.
    init(_ period: String) {
        let parts = period.split(separator: " - ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        let group = parts.first ?? ""
        let phase = parts.count > 1 ? parts[1] : ""
        switch group {
        case "Foreground":
            self = .state(phase.contains("Inactive") ? .inactive : .active)
        case "Background":
            self = .state(phase.contains("Suspended") ? .suspended : .background)
        case "Suspended":
            self = .state(.suspended)
        default:
            if phase == "Process Creation" {
                self = .processCreation
            } else if phase == "Initial Frame Rendering" {
                self = .initialFrameRendering
            } else if phase.hasSuffix("()") {
                self = .callback(Self.callbackName(phase))
            } else {
                self = .phase(phase.isEmpty ? period : phase)
            }
        }
    }

    /// The lifetrace name of a callback phase: `didFinishLaunchingWithOptions()` is
    /// `didFinishLaunching`, `applicationDidBecomeActive()` is `didBecomeActive`,
    /// `sceneWillConnectTo()` is `sceneWillConnect`; other names keep their own, without `()`.
    static func callbackName(_ phase: String) -> String {
        var name = String(phase.dropLast(2))
        if name.hasPrefix("application"), name.count > "application".count {
            name = String(name.dropFirst("application".count))
            name = name.prefix(1).lowercased() + name.dropFirst()
        }
        if name.hasSuffix("WithOptions") { name = String(name.dropLast("WithOptions".count)) }
        if name == "sceneWillConnectTo" { name = CallbackName.sceneWillConnect.rawValue }
        return name
    }
}
