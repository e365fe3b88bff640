import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// The overview of a trace of several lifetimes: one row per lifetime, from its launch to its
/// end, each scaled to its own length (written at the row's end), so that a trace of hundreds of
/// lifetimes reads as a list rather than a barcode. A row shows the app view's states, the main
/// thread's busy share per pixel under them and the stalls as red marks; its label links to the
/// lifetime's details and the stalls to their zoomed views. Drawn from the canvas's strips, which
/// the same replay as every other timeline filled.
public struct LifetimeOverviewSVG {
    /// Width of the label column (px).
    public static let labelWidth = 90
    /// Height of one lifetime's row (px).
    public static let rowHeight = 15
    /// Buckets (pixels) per lifetime.
    public static let buckets = 600
    /// The CSS of the overview's bands: stroked in the lane colours, states 8 px, busy 4 px.
    public static var style: String {
        var css = "svg.overview path.band{fill:none;stroke-width:8}svg.overview path.busy.band{stroke-width:4}"
        for colour in HTMLStyle.colours { css += "svg.overview path.\(colour.name){stroke:\(colour.hex)}" }
        for (level, opacity) in [".3", ".55", ".8", "1"].enumerated() { css += "svg.overview .o\(level + 1){stroke-opacity:\(opacity)}" }
        return css + "\n"
    }

    /// Width of the text after each strip (px).
    static let factsWidth = 330

    let analysis: TraceAnalysis
    let canvas: TimelineCanvas
    let overlay: TimelineOverlay

    /// The overview of the lifetimes of `analysis` that have a strip in `canvas`.
    public init(analysis: TraceAnalysis, canvas: TimelineCanvas, overlay: TimelineOverlay) {
        self.analysis = analysis
        self.canvas = canvas
        self.overlay = overlay
    }

    /// The lifetime strips of `analysis`, in time order: one per lifetime whose launch was seen, up
    /// to `limit`.
    public static func strips(for analysis: TraceAnalysis, limit: Int) -> [TimelineWindow] {
        var strips: [TimelineWindow] = []
        for lifetime in analysis.lifetimes.prefix(limit) {
            guard let start = lifetime.launch.timestamp, lifetime.end.timestamp > start else { continue }
            if let last = strips.last, last.end > start { continue }
            strips.append(TimelineWindow(
                title: "Lifetime \(lifetime.index + 1)", anchor: HTMLText.anchor("lifetime", lifetime.index + 1),
                start: start, end: lifetime.end.timestamp, origin: start, buckets: buckets))
        }
        return strips
    }

    /// The SVG element, or nothing when there are no strips.
    public var rendered: String {
        let strips = canvas.strips
        guard !strips.isEmpty else { return "" }
        let width = Self.labelWidth + Self.buckets + Self.factsWidth
        let height = strips.count * Self.rowHeight + 4
        var lifetimes: [String: LifetimeReport] = [:]
        for lifetime in analysis.lifetimes.prefix(strips.count * 2) {
            lifetimes[HTMLText.anchor("lifetime", lifetime.index + 1)] = lifetime
        }
        var out = "<svg class=\"overview\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\" role=\"img\">\n<title>Lifetimes, each from its launch to its end</title>\n"
        var stallIndex = 0
        for (position, strip) in strips.enumerated() {
            let y = position * Self.rowHeight + 2
            out += "<a href=\"#\(strip.anchor)\"><text class=\"lane\" x=\"4\" y=\"\(y + 10)\">\(HTMLText.escape(strip.title))</text></a>\n"
            drawStates(strip, y: y, into: &out)
            drawBusy(strip, y: y, into: &out)
            while stallIndex < overlay.stalls.count && overlay.stalls[stallIndex].start < strip.start { stallIndex += 1 }
            var lastX = -1
            while stallIndex < overlay.stalls.count && overlay.stalls[stallIndex].start <= strip.end {
                let stall = overlay.stalls[stallIndex]
                stallIndex += 1
                let from = Self.labelWidth + strip.position(stall.start)
                guard from > lastX else { continue }
                let to = max(from + 2, Self.labelWidth + strip.position(stall.end))
                lastX = to
                out += "<a href=\"#\(stall.anchor)\"><rect class=\"stall\" x=\"\(from)\" y=\"\(y)\" width=\"\(to - from)\" "
                    + "height=\"\(Self.rowHeight - 2)\"><title>\(HTMLText.escape(stall.label))</title></rect></a>\n"
            }
            if let lifetime = lifetimes[strip.anchor] {
                out += "<text class=\"axis\" x=\"\(Self.labelWidth + Self.buckets + 6)\" y=\"\(y + 10)\">"
                    + "\(HTMLText.escape(facts(lifetime, length: strip.end - strip.start)))</text>\n"
            }
        }
        return out + "</svg>\n"
    }

    /// What the text after a strip says: length, launch kind and time, stalls.
    func facts(_ lifetime: LifetimeReport, length: Int64) -> String {
        var text = "\(DurationFormat.fixed.string(length)); \(lifetime.launch.kind.rawValue) launch"
        if let duration = lifetime.launch.duration { text += " \(DurationFormat.fixed.string(duration))" }
        if lifetime.stallCount > 0 { text += ", \(plural(lifetime.stallCount, "stall"))" }
        return text
    }

    /// The app view's states, one stroked path per state (a row of a long trace changes state
    /// hundreds of times; the lifetime's details say when).
    private func drawStates(_ strip: TimelineWindow, y: Int, into out: inout String) {
        var bands: [UInt8: Band] = [:]
        for run in strip.stateRuns(row: TimelineRow.app) {
            bands[run.code, default: Band(y: y + 4)].add(Self.labelWidth + run.buckets.lowerBound, run.buckets.count)
        }
        for code in bands.keys.sorted() { out += "<path class=\"s\(code) band\" d=\"\(bands[code]!.path)\"/>\n" }
    }

    /// Pixels per cell of the busy band.
    static let busyCell = 10

    /// The busy share per cell of ``busyCell`` pixels in four shades (as on the timelines), one
    /// stroked path per shade: a density, not one mark per interval.
    private func drawBusy(_ strip: TimelineWindow, y: Int, into out: inout String) {
        var bands = [Band](repeating: Band(y: y + 11), count: 5)
        var cell = 0
        while cell * Self.busyCell < strip.buckets {
            let first = cell * Self.busyCell
            let buckets = first..<min(strip.buckets, first + Self.busyCell)
            let share = buckets.reduce(0.0) { $0 + strip.coverage(row: TimelineRow.busy, bucket: $1) } / Double(buckets.count)
            cell += 1
            guard share > 0 else { continue }
            bands[1 + min(3, Int(share * 4))].add(Self.labelWidth + first, buckets.count)
        }
        for level in 1...4 where !bands[level].path.isEmpty {
            out += "<path class=\"busy o\(level) band\" d=\"\(bands[level].path)\"/>\n"
        }
    }

    /// Horizontal runs at one height as a compact path to be stroked: neighbouring runs merge,
    /// later ones are moves relative to the end of the previous one.
    struct Band {
        let y: Int
        var data = ""
        var end: Int?
        var pending: (x: Int, width: Int)?

        init(y: Int) { self.y = y }

        mutating func add(_ x: Int, _ width: Int) {
            if let run = pending, run.x + run.width == x {
                pending = (run.x, run.width + width)
                return
            }
            flush()
            pending = (x, width)
        }

        private mutating func flush() {
            guard let run = pending else { return }
            data += end.map { "m\(run.x - $0) 0h\(run.width)" } ?? "M\(run.x) \(y)h\(run.width)"
            end = run.x + run.width
            pending = nil
        }

        /// The path's data.
        var path: String {
            var copy = self
            copy.flush()
            return copy.data
        }
    }
}
