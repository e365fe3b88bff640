import LifetraceAnalysis

/// The rows of a drawn timeline, top to bottom, and how the spans of each lane map onto them.
/// The number of rows is fixed, so a timeline's memory does not grow with the trace: scenes past
/// ``sceneRows`` - 1 share the last scene row, deeper callbacks and signposts share the deepest row.
public enum TimelineRow {
    /// Scene rows; the last one holds every further scene.
    public static let sceneRows = 6
    /// Callback rows (nesting depths 0 and up).
    public static let callbackRows = 8
    /// Signpost rows.
    public static let signpostRows = 8

    /// The system view's states.
    public static let system = 0
    /// The effective app view's states.
    public static let app = 1
    /// The first scene row.
    public static let firstScene = 2
    /// Main-thread busy intervals.
    public static let busy = firstScene + sceneRows
    /// The first (outermost) callback row.
    public static let firstCallback = busy + 1
    /// The first signpost row.
    public static let firstSignpost = firstCallback + callbackRows
    /// Background tasks.
    public static let task = firstSignpost + signpostRows
    /// Marks (instants).
    public static let mark = task + 1
    /// Frames (instants).
    public static let frame = mark + 1
    /// How many rows there are.
    public static let count = frame + 1

    /// Whether `row` draws states (a colour per state) rather than coverage or instants.
    public static func isState(_ row: Int) -> Bool { row < busy }

    /// Whether `row` draws instants (ticks with counts).
    public static func isInstant(_ row: Int) -> Bool { row == mark || row == frame }

    /// The row of `lane`; `sceneSlot` is the scene's position among the trace's scenes.
    static func row(for lane: TimelineLane, sceneSlot: Int) -> Int {
        switch lane {
        case .systemState: system
        case .appState: app
        case .sceneState: firstScene + min(sceneSlot, sceneRows - 1)
        case .busy: busy
        case .callback(let depth): firstCallback + min(depth, callbackRows - 1)
        case .signpost(let depth): firstSignpost + min(depth, signpostRows - 1)
        case .backgroundTask: task
        case .mark: mark
        case .frame: frame
        }
    }
}
