/// How the host misbehaves when asked to, so that recorded runs exercise the analyzer's rules.
/// The supervisor passes them in ``HostFault/environmentKey``, comma-separated.
public enum HostFault: String, Sendable, CaseIterable, Hashable {
    /// willResignActive is not delivered (rule `resign-before-background`).
    case skipResignActive = "skip-resign-active"
    /// willFinishLaunching is not delivered (rule `launch-sequence`).
    case skipWillFinishLaunching = "skip-will-finish-launching"
    /// willEnterForeground is not delivered (rule `foreground-before-active`).
    case skipEnterForeground = "skip-enter-foreground"
    /// didBecomeActive is delivered twice (rule `balanced-activation`).
    case doubleActivate = "double-activate"
    /// willEnterForeground is delivered twice (rule `legal-transition`). (A second didEnterBackground
    /// is no fault: UIKit calls it when it resumes a suspended app into the background.)
    case doubleEnterForeground = "double-enter-foreground"
    /// didBecomeActive runs on a background thread (rule `main-thread-callbacks`).
    case callbackOffMain = "callback-off-main"
    /// A memory warning is delivered after willTerminate returned (rule `nothing-after-terminate`).
    case callbackAfterTerminate = "callback-after-terminate"
    /// didBecomeActive records its end twice (rule `callback-nesting`).
    case unbalancedCallbackEnd = "unbalanced-callback-end"
    /// A scene callback is delivered before its sceneWillConnect (rule `scene-connection`).
    case sceneBeforeConnect = "scene-before-connect"

    /// The environment variable listing the faults the host must commit.
    public static let environmentKey = "LIFETRACE_FAULTS"

    /// The faults named in `text` (comma-separated); unknown names are ignored.
    public static func parse(_ text: String?) -> Set<HostFault> {
        Set((text ?? "").split(separator: ",").compactMap { HostFault(rawValue: String($0)) })
    }
}
