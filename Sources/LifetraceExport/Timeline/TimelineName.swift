import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat

/// The fixed strings of the timeline: detail keys, state names and record names.
///
/// They are interned first into every exporter's name table, in declaration order, so the
/// symbol of each is its raw value and needs no lookup.
enum TimelineName: UInt32, CaseIterable {
    case scene = 1
    case reason
    case pid
    case kind
    case id
    case code
    case signal
    case count
    case rule
    case severity
    case message
    case lifetime
    case sinceLaunch
    case thread
    case duration
    case unfinished
    case blame
    case windowEnd
    case busyInWindow
    case events
    case task
    // State names.
    case notRunning
    case inactive
    case active
    case background
    case suspended
    case terminating
    // Record names.
    case busy
    case frame
    case firstFrame
    case exit
    case dropped
    case stall
    case willFinishLaunching
    case didFinishLaunchingEnd
    case firstActive
    case expire
    case unmatchedEnd
    // Detail keys added later, last so that the symbols above keep their values.
    case work

    /// The string.
    var text: String {
        switch self {
        case .scene: "scene"
        case .reason: "reason"
        case .pid: "pid"
        case .kind: "kind"
        case .id: "id"
        case .code: "code"
        case .signal: "signal"
        case .count: "count"
        case .rule: "rule"
        case .severity: "severity"
        case .message: "message"
        case .lifetime: "lifetime"
        case .sinceLaunch: "since_launch_ns"
        case .thread: "thread"
        case .duration: "duration_ns"
        case .unfinished: "unfinished"
        case .blame: "blame"
        case .windowEnd: "window_end"
        case .busyInWindow: "busy_in_window_ns"
        case .events: "events"
        case .task: "task"
        case .notRunning: "notRunning"
        case .inactive: "inactive"
        case .active: "active"
        case .background: "background"
        case .suspended: "suspended"
        case .terminating: "terminating"
        case .busy: "busy"
        case .frame: "frame"
        case .firstFrame: "first frame"
        case .exit: "exit"
        case .dropped: "dropped"
        case .stall: "stall"
        case .willFinishLaunching: "willFinishLaunching begins"
        case .didFinishLaunchingEnd: "didFinishLaunching returns"
        case .firstActive: "first active"
        case .expire: "bgtask.expire"
        case .unmatchedEnd: "end without begin"
        case .work: "work"
        }
    }

    /// The symbol in an exporter's name table.
    var symbol: Symbol { Symbol(rawValue: rawValue) }

    /// A name table holding every fixed string at its symbol.
    static func table() -> SymbolTable {
        var table = SymbolTable()
        for name in allCases {
            let symbol = table.intern(name.text)
            precondition(symbol == name.symbol, "fixed timeline names must be interned first, in order")
        }
        return table
    }

    /// The name of a system-view state.
    static func of(_ state: LifecycleState) -> TimelineName {
        switch state {
        case .notRunning: .notRunning
        case .inactive: .inactive
        case .active: .active
        case .background: .background
        case .suspended: .suspended
        }
    }

    /// The name of an app-view state.
    static func of(_ state: AppViewState) -> TimelineName {
        switch state {
        case .inactive: .inactive
        case .active: .active
        case .background: .background
        case .terminating: .terminating
        }
    }

    /// The name of a launch milestone's instant.
    static func of(_ milestone: LaunchMilestone) -> TimelineName {
        switch milestone {
        case .willFinishLaunching: .willFinishLaunching
        case .didFinishLaunchingEnd: .didFinishLaunchingEnd
        case .firstActive: .firstActive
        case .firstFrame: .firstFrame
        }
    }

    /// The name of a connected scene's state; nil for an unattached scene, which has no slice.
    static func of(_ state: SceneViewState) -> TimelineName? {
        switch state {
        case .unattached: nil
        case .inactive: .inactive
        case .active: .active
        case .background: .background
        }
    }
}
