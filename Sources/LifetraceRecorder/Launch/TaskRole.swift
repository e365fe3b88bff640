#if canImport(Darwin)
import Darwin
#endif

/// The task role the kernel gives an app's process (`task_role_t`, `TASK_CATEGORY_POLICY`), and
/// what it says about the launch. The values are those of `<mach/task_policy.h>`.
///
/// The role is read once, at process start, before UIKit changes it: bugsnag-cocoa
/// (`BSGRunContext.m`, `GetIsForeground`) and dd-sdk-ios (`ObjcAppLaunchHandler.m`) read it the
/// same way, because `UIApplication.applicationState` is Background during the launch of every
/// scene-based app until its first scene exists, so it cannot tell a background launch.
public enum TaskRole: Int32, Sendable, CaseIterable {
    case reniced = -1
    case unspecified = 0
    case foregroundApplication = 1
    case backgroundApplication = 2
    case controlApplication = 3
    case graphicsServer = 4
    case throttleApplication = 5
    case nonUIApplication = 6
    case defaultApplication = 7
    case darwinBackgroundApplication = 8

    /// Whether a process whose role at start is `role` was launched into the background; nil when
    /// the role does not say. `defaulted` is the kernel's `get_default` (no role was set: the
    /// simulator, an unmanaged process).
    ///
    /// - `TASK_FOREGROUND_APPLICATION`: a foreground launch (the user's).
    /// - `TASK_NONUI_APPLICATION`, `TASK_BACKGROUND_APPLICATION`: a background launch (push,
    ///   fetch, BGTask, location).
    /// - `TASK_DARWINBG_APPLICATION`: a background launch, unless the process is prewarmed:
    ///   iOS 15 prewarms with this role (bugsnag-cocoa's note), and a prewarm ends in the user's
    ///   foreground launch (`ActivePrewarm` decides, as dd-sdk-ios does).
    /// - anything else, or a defaulted role: unknown.
    public static func isBackgroundLaunch(role rawRole: Int32, defaulted: Bool, prewarmed: Bool) -> Bool? {
        guard !defaulted, let role = TaskRole(rawValue: rawRole) else { return nil }
        switch role {
        case .foregroundApplication: return false
        case .nonUIApplication, .backgroundApplication: return true
        case .darwinBackgroundApplication: return prewarmed ? false : true
        default: return nil
        }
    }

    /// The calling process's role and whether it is the default, or nil where the platform has
    /// no task roles (Linux) or the call fails. On iOS: `task_policy_get(mach_task_self(),
    /// TASK_CATEGORY_POLICY, ...)`. Not built here (docs/RECORDING.md, "Not built here").
    public static func current() -> (role: Int32, defaulted: Bool)? {
        #if canImport(Darwin) && os(iOS)
        var policy = task_category_policy_data_t()
        var count = mach_msg_type_number_t(MemoryLayout<task_category_policy_data_t>.size / MemoryLayout<integer_t>.size)
        var getDefault: boolean_t = 0
        let result = withUnsafeMutablePointer(to: &policy) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                task_policy_get(mach_task_self_, task_policy_flavor_t(TASK_CATEGORY_POLICY), $0, &count, &getDefault)
            }
        }
        guard result == KERN_SUCCESS else { return nil }
        return (Int32(policy.role.rawValue), getDefault != 0)
        #else
        return nil
        #endif
    }
}
