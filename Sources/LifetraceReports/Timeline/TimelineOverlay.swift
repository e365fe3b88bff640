import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// What the analysis found, drawn over a timeline: launch windows with their milestones,
/// stalls, and violations, each with the anchor of its explanation in the document.
public struct TimelineOverlay: Sendable {
    /// A launch window and its milestones (absolute times, ns).
    public struct Launch: Sendable {
        /// When the launch happened.
        public var start: Int64
        /// When the window closed, or the lifetime's end when it never did.
        public var end: Int64
        /// Milestone names and times.
        public var milestones: [(name: String, time: Int64)]
    }

    /// Something pinned at a time range, linking to `anchor`.
    public struct Pin: Sendable {
        /// Start (ns on the trace's clock).
        public var start: Int64
        /// End (equal to start for an instant).
        public var end: Int64
        /// A one-line description (escaped when drawn).
        public var label: String
        /// The fragment it links to (without `#`).
        public var anchor: String
    }

    /// The launch windows.
    public var launches: [Launch] = []
    /// The stalls.
    public var stalls: [Pin] = []
    /// The violations.
    public var violations: [Pin] = []

    /// The overlay of `analysis`; `listedViolations` is how many violations the document explains
    /// (later ones are not pinned). A stall links to its zoomed view when `zoomed` holds its
    /// anchor (every stall when `zoomed` is nil), otherwise to its lifetime's details.
    public init(analysis: TraceAnalysis, listedViolations: Int, zoomed: Set<String>? = nil) {
        var stallNumber = 0
        for lifetime in analysis.lifetimes {
            if let window = lifetime.launchWindow {
                launches.append(Launch(
                    start: window.start, end: window.end,
                    milestones: window.milestones.map { ($0.milestone.label, $0.timestamp) }))
            }
            for stall in lifetime.stalls {
                stallNumber += 1
                let anchor = HTMLText.anchor("stall", stallNumber)
                stalls.append(Pin(
                    start: stall.start, end: stall.start + stall.duration,
                    label: "stall \(DurationFormat.fixed.string(stall.duration))"
                        + (stall.work.map { " in \($0.chainText)" } ?? ""),
                    anchor: zoomed.map { $0.contains(anchor) } ?? true ? anchor : HTMLText.anchor("lifetime", lifetime.index + 1)))
            }
        }
        for (index, violation) in analysis.violations.prefix(listedViolations).enumerated() {
            violations.append(Pin(
                start: violation.timestamp, end: violation.timestamp,
                label: "\(violation.severity.rawValue) \(violation.rule.id) at \(violation.when)",
                anchor: HTMLText.anchor("violation", index + 1)))
        }
    }
}
