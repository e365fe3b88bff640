import LifetraceFormat
import LifetraceOutput

/// Draws a ``TimelineWindow`` as inline SVG: a time axis in human units, a row per lane with
/// runs of equal buckets merged into one rectangle each, and the overlay (launch window,
/// milestones, stalls, violation pins linking to their explanations). Colours come from the
/// document's style sheet (classes `s0`...`s5` for states, `busy`, `cb`, `sp`, `task`, ...).
public struct TimelineSVG {
    /// Width of the label column (px).
    public static let labelWidth = 180
    /// Height of one row (px).
    public static let rowHeight = 16
    /// Above this many launches in a window, milestones are left out of it.
    public static let milestoneLaunchLimit = 40
    /// Height of the axis band at the top (px).
    public static let axisHeight = 46

    let window: TimelineWindow
    let canvas: TimelineCanvas
    let overlay: TimelineOverlay
    let symbols: SymbolTable
    let labelMilestones: Bool
    let systemView: Bool

    /// A drawing of `window` (one of `canvas`'s) with `overlay`; `labelMilestones` writes the
    /// milestone names on the axis (for zoomed launch windows); `systemView`: whether the trace
    /// has a system view to draw (``LifetimeReport/hasSystemView``; an in-app recording has none).
    public init(
        window: TimelineWindow, canvas: TimelineCanvas, overlay: TimelineOverlay, symbols: SymbolTable,
        labelMilestones: Bool, systemView: Bool = true
    ) {
        self.systemView = systemView
        self.window = window
        self.canvas = canvas
        self.overlay = overlay
        self.symbols = symbols
        self.labelMilestones = labelMilestones
    }

    /// The rows drawn: the system row when the trace has a system view, the app and busy rows
    /// always, the others when they hold something.
    var rows: [Int] {
        (0..<TimelineRow.count).filter {
            ($0 == TimelineRow.system && systemView) || $0 == TimelineRow.app || $0 == TimelineRow.busy || window.isUsed($0)
        }
    }

    /// The SVG element. Everything drawn against time is in one `g.plot` clipped to the plot
    /// area, and the element carries what the page's zoom script needs (`data-plot`: the plot's
    /// left edge and width; `data-time`: the window's span and the offset of its start from the
    /// axis origin, ns; `data-lanes`: each row's kind; `data-spans` and `data-names`: the spans
    /// themselves when the window kept them all), so that zooming draws the spans again at the
    /// new scale. What is drawn at a time also carries it (`data-t`, `data-t2`: ns from the
    /// window's start).
    public var rendered: String {
        let rows = self.rows
        let width = Self.labelWidth + window.buckets + 10
        let height = Self.axisHeight + rows.count * Self.rowHeight + 4
        let clip = "clip-\(window.anchor)"
        var out = "<svg class=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" "
            + "viewBox=\"0 0 \(width) \(height)\" role=\"img\" data-plot=\"\(Self.labelWidth) \(window.buckets)\" "
            + "data-time=\"\(window.end - window.start) \(window.start - window.origin)\" "
            + "data-lanes=\"\(rows.map(Self.laneKind).joined(separator: " "))\"\(detailAttributes(rows))>\n"
        out += "<title>\(HTMLText.escape(window.title))</title>\n"
        out += "<clipPath id=\"\(clip)\"><rect x=\"\(Self.labelWidth)\" y=\"0\" width=\"\(window.buckets + 10)\" "
            + "height=\"\(height)\"/></clipPath>\n"
        var labels = ""
        out += "<g class=\"plot\" clip-path=\"url(#\(clip))\">\n"
        let plotTop = Self.axisHeight
        let plotBottom = plotTop + rows.count * Self.rowHeight
        drawLaunches(into: &out, top: plotTop, bottom: plotBottom)
        drawAxis(into: &out, bottom: plotBottom)
        for (position, row) in rows.enumerated() {
            let y = plotTop + position * Self.rowHeight
            labels += "<text class=\"lane\" x=\"4\" y=\"\(y + 12)\">\(HTMLText.escape(label(row)))</text>\n"
            if TimelineRow.isState(row) {
                drawStates(row: row, y: y, into: &out)
            } else if TimelineRow.isInstant(row) {
                drawInstants(row: row, y: y, into: &out)
            } else {
                drawCoverage(row: row, y: y, into: &out)
            }
            if row == TimelineRow.busy { drawStalls(y: y, into: &out) }
        }
        drawViolations(into: &out, bottom: plotBottom)
        out += "</g>\n" + labels + "</svg>\n"
        return out
    }

    /// What a row draws, for the zoom script: `s` states, `busy`, `cb`, `sp`, `task` intervals,
    /// `mark`, `frame` instants.
    static func laneKind(_ row: Int) -> String {
        if TimelineRow.isState(row) { return "s" }
        switch row {
        case TimelineRow.busy: return "busy"
        case TimelineRow.task: return "task"
        case TimelineRow.mark: return "mark"
        case TimelineRow.frame: return "frame"
        default: return row < TimelineRow.firstSignpost ? "cb" : "sp"
        }
    }

    /// The spans of a window that kept them all, as ` data-spans="..." data-names="..."`:
    /// `lane,start,duration,name,state` separated by `;`, where `lane` is the row's position,
    /// start and duration are whole microseconds (the start from the window's start, rounded down;
    /// the duration rounded up), `name` an index into `data-names` (a JSON array), `state` the
    /// state code of a state row. Empty when the window did not keep its spans.
    func detailAttributes(_ rows: [Int]) -> String {
        guard window.spansComplete, !window.spans.isEmpty else { return "" }
        var position: [Int: Int] = [:]
        for (index, row) in rows.enumerated() { position[row] = index }
        var names: [String] = []
        var nameIndex: [String: Int] = [:]
        var parts: [String] = []
        parts.reserveCapacity(window.spans.count)
        for span in window.spans {
            guard let lane = position[span.row] else { continue }
            let name = TimelineRow.isState(span.row) ? StateName.name(span.value, row: span.row)
                : (span.name.isNone ? "" : symbols.string(span.name) ?? "")
            let index: Int
            if let known = nameIndex[name] {
                index = known
            } else {
                index = names.count
                names.append(name)
                nameIndex[name] = index
            }
            let from = span.start - window.start
            let start = from >= 0 ? from / 1000 : -((999 - from) / 1000)
            let duration = (span.end - span.start + 999) / 1000
            parts.append("\(lane),\(start),\(duration),\(index),\(span.value)")
        }
        let json = JSONValue.array(names.map(JSONValue.string)).rendered()
        return " data-spans=\"\(parts.joined(separator: ";"))\" data-names=\"\(HTMLText.escape(json))\""
    }

    /// `t` as an attribute the zoom script places by: ns from the window's start.
    func at(_ t: Int64) -> String { String(t - window.start) }

    func label(_ row: Int) -> String {
        switch row {
        case TimelineRow.system: return "system view"
        case TimelineRow.app: return "app view"
        case TimelineRow.busy: return "main thread busy"
        case TimelineRow.task: return "background tasks"
        case TimelineRow.mark: return "marks"
        case TimelineRow.frame: return "frames"
        case TimelineRow.firstScene..<TimelineRow.busy:
            return canvas.sceneLabel(row - TimelineRow.firstScene, symbols: symbols)
        case TimelineRow.firstCallback..<TimelineRow.firstSignpost:
            let depth = row - TimelineRow.firstCallback
            return depth == TimelineRow.callbackRows - 1 ? "callbacks, depth \(depth)+" : "callbacks, depth \(depth)"
        default:
            let depth = row - TimelineRow.firstSignpost
            return depth == TimelineRow.signpostRows - 1 ? "signposts, depth \(depth)+" : "signposts, depth \(depth)"
        }
    }

    /// The x coordinate of time `t`, clamped to the plot.
    func x(_ t: Int64) -> Int { Self.labelWidth + window.position(t) }

    /// A time in a title: from the axis origin, to the precision of a pixel (see
    /// ``AxisFormat/label(_:step:)``), so that neighbouring bars never read the same.
    func time(_ t: Int64) -> String {
        AxisFormat.label(t - window.origin, step: AxisFormat.step(for: Int64(window.bucketWidth.rounded(.up)), ticks: 1))
    }

    private func drawStates(row: Int, y: Int, into out: inout String) {
        for run in window.stateRuns(row: row) {
            let name = StateName.name(run.code, row: row)
            let from = window.start + Int64(Double(run.buckets.lowerBound) * window.bucketWidth)
            let to = window.start + Int64(Double(run.buckets.upperBound) * window.bucketWidth)
            out += "<rect class=\"s\(run.code)\" x=\"\(Self.labelWidth + run.buckets.lowerBound)\" y=\"\(y + 2)\" "
                + "width=\"\(run.buckets.count)\" height=\"\(Self.rowHeight - 4)\"><title>\(name) \(time(from)) to \(time(to))</title></rect>\n"
        }
    }

    /// Coverage in four levels; a run of buckets of one level is one rectangle.
    private func drawCoverage(row: Int, y: Int, into out: inout String) {
        let kind = row == TimelineRow.busy ? "busy" : (row == TimelineRow.task ? "task"
            : (row < TimelineRow.firstSignpost ? "cb" : "sp"))
        let noun = row == TimelineRow.busy ? "busy intervals" : (row == TimelineRow.task ? "background tasks"
            : (row < TimelineRow.firstSignpost ? "callbacks" : "signposts"))
        func level(_ bucket: Int) -> Int {
            let coverage = window.coverage(row: row, bucket: bucket)
            if coverage <= 0 { return window.count(row: row, bucket: bucket) > 0 ? 1 : 0 }
            return 1 + min(3, Int(coverage * 4))
        }
        var index = 0
        // The longest interval that started in the last run drawn, and when it ends: a run with no
        // start of its own (the fully covered pixels after a partly covered first one) is its.
        var carried: (name: Symbol, end: Int64) = (.none, .min)
        while index < window.buckets {
            let current = level(index)
            guard current > 0 else {
                index += 1
                continue
            }
            var last = index
            var count = window.count(row: row, bucket: index)
            var longest = window.longestDuration(row: row, bucket: index)
            var name = window.name(row: row, bucket: index)
            // Callbacks and signposts: a run that already holds an interval's start ends where the
            // next one starts, once it is a few pixels wide, so that adjacent intervals stay apart
            // and each can carry its name.
            let named = kind == "cb" || kind == "sp"
            while last + 1 < window.buckets && level(last + 1) == current
                && !(named && count > 0 && last - index >= 2 && window.count(row: row, bucket: last + 1) > 0)
            {
                last += 1
                count += window.count(row: row, bucket: last)
                let duration = window.longestDuration(row: row, bucket: last)
                if duration > longest {
                    longest = duration
                    name = window.name(row: row, bucket: last)
                }
            }
            let runStart = window.start + Int64(Double(index) * window.bucketWidth)
            var title = "\(count) \(noun) from \(time(runStart))"
            if longest >= 0 {
                let named = name.isNone ? "" : (symbols.string(name).map { HTMLText.escape($0) + " " } ?? "")
                title += "; longest \(named)\(DurationFormat.fixed.string(longest))"
            }
            if count > 0 && !name.isNone && longest >= 0 {
                let (end, overflow) = runStart.addingReportingOverflow(longest)
                carried = (name, overflow ? .max : end)
            } else if count == 0 && runStart < carried.end {
                name = carried.name
                if let text = symbols.string(name) { title = "\(HTMLText.escape(text)), going on from \(time(runStart))" }
            }
            out += "<rect class=\"\(kind) o\(current)\" x=\"\(Self.labelWidth + index)\" y=\"\(y + 2)\" "
                + "width=\"\(last - index + 1)\" height=\"\(Self.rowHeight - 4)\"><title>\(title)</title></rect>\n"
            // The name on the bar where it fits (the title has it always).
            if named, current >= 3, let text = symbols.string(name), !name.isNone,
                Self.textWidth(text) + 6 <= last - index + 1
            {
                out += "<text class=\"barname\" x=\"\(Self.labelWidth + index + 3)\" y=\"\(y + 11)\">"
                    + "\(HTMLText.escape(text))</text>\n"
            }
            index = last + 1
        }
    }

    private func drawInstants(row: Int, y: Int, into out: inout String) {
        let kind = row == TimelineRow.mark ? "mark" : "frame"
        var index = 0
        while index < window.buckets {
            guard window.count(row: row, bucket: index) > 0 else {
                index += 1
                continue
            }
            var last = index
            var count = window.count(row: row, bucket: index)
            while last + 1 < window.buckets && window.count(row: row, bucket: last + 1) > 0 {
                last += 1
                count += window.count(row: row, bucket: last)
            }
            let first = window.name(row: row, bucket: index)
            let named = first.isNone ? "" : (symbols.string(first).map { ", first " + HTMLText.escape($0) } ?? "")
            out += "<rect class=\"\(kind)\" x=\"\(Self.labelWidth + index)\" y=\"\(y + 2)\" width=\"\(last - index + 1)\" "
                + "height=\"\(Self.rowHeight - 4)\"><title>\(count) \(kind)s\(named)</title></rect>\n"
            index = last + 1
        }
    }

    private func drawStalls(y: Int, into out: inout String) {
        var lastX = -1
        for stall in overlay.stalls where window.overlaps(stall.start, stall.end) {
            let from = x(stall.start)
            guard from > lastX else { continue }
            let to = max(from + 2, x(stall.end))
            lastX = to
            out += "<a href=\"#\(stall.anchor)\"><rect class=\"stall\" data-t=\"\(at(stall.start))\" data-t2=\"\(at(stall.end))\" "
                + "x=\"\(from)\" y=\"\(y)\" width=\"\(to - from)\" "
                + "height=\"\(Self.rowHeight)\"><title>\(HTMLText.escape(stall.label))</title></rect></a>\n"
        }
    }

    /// Launch windows merged per pixel; milestones only where launches are few enough to tell
    /// apart (the zoomed launch views always show them).
    private func drawLaunches(into out: inout String, top: Int, bottom: Int) {
        let visible = overlay.launches.filter { window.overlaps($0.start, $0.end) }
        let dense = visible.count > Self.milestoneLaunchLimit
        var drawnTo = -1
        // Where each label row of the axis band is free again: a label goes on the first row it
        // fits on, so that labels never overlap; past the last row it is left to its title.
        var labelRowsFreeFrom = [Int](repeating: Int.min, count: Self.milestoneLabelRows)
        for launch in visible {
            let from = max(x(launch.start), drawnTo)
            let to = max(from + 1, x(launch.end))
            if to > drawnTo {
                drawnTo = to
                // Many launches: a band under the axis, so the lanes stay readable.
                let height = dense ? 5 : bottom - top + 6
                out += "<rect class=\"launch\" data-t=\"\(at(launch.start))\" data-t2=\"\(at(launch.end))\" "
                    + "x=\"\(from)\" y=\"\(top - 6)\" width=\"\(to - from)\" height=\"\(height)\">"
                    + "<title>launch window \(time(launch.start)) to \(time(launch.end))</title></rect>\n"
            }
            if dense { continue }
            for milestone in launch.milestones where window.overlaps(milestone.time, milestone.time) {
                let at = x(milestone.time)
                out += "<line class=\"milestone\" data-t=\"\(self.at(milestone.time))\" x1=\"\(at)\" y1=\"\(top - 6)\" x2=\"\(at)\" y2=\"\(bottom)\">"
                    + "<title>\(milestone.name) \(time(milestone.time))</title></line>\n"
                if labelMilestones {
                    let label = Self.shortName(milestone.name)
                    let start = at + 2
                    let width = Self.textWidth(label, size: 10)
                    // Near the right edge the label goes left of its line instead.
                    let right = Self.labelWidth + window.buckets + 10
                    let x = start + width > right ? max(Self.labelWidth, at - 2 - width) : start
                    if let row = labelRowsFreeFrom.firstIndex(where: { $0 <= x }) {
                        labelRowsFreeFrom[row] = x + width + 4
                        out += "<text class=\"milestone\" data-t=\"\(self.at(milestone.time))\" data-dx=\"\(x - at)\" x=\"\(x)\" y=\"\(top - 8 - row * 9)\">\(label)</text>\n"
                    }
                }
            }
        }
    }

    /// The rows of milestone labels above a zoomed timeline.
    static let milestoneLabelRows = 3

    /// The width (px) a label of `text` takes in the page's sans-serif at `size` px, estimated
    /// generously so that what is judged to fit does fit.
    package static func textWidth(_ text: String, size: Double = 11) -> Int {
        Int((Double(text.count) * size * 0.6).rounded(.up))
    }

    /// The milestone names written on a zoomed axis (the full names are in the titles).
    static func shortName(_ name: String) -> String {
        switch name {
        case "willFinishLaunching": "willFinish"
        case "didFinishLaunching returned": "didFinish end"
        default: name
        }
    }

    /// Ticks at a round step (1, 2 or 5 times a power of ten) giving about ten labels, each
    /// written to the precision the step needs (``AxisFormat/label(_:step:)``).
    private func drawAxis(into out: inout String, bottom: Int) {
        let span = window.end - window.start
        let step = AxisFormat.step(for: span, ticks: 10)
        let originOffset = window.start - window.origin
        var tick = (originOffset / step) * step
        if tick < originOffset { tick += step }
        let y = 10
        let right = Self.labelWidth + window.buckets + 10
        while tick <= originOffset + span {
            let at = x(window.origin + tick)
            let label = AxisFormat.label(tick, step: step)
            out += "<line class=\"tick coarse\" x1=\"\(at)\" y1=\"\(y + 2)\" x2=\"\(at)\" y2=\"\(bottom)\"/>"
            // A label that would run past the plot's right edge ends at its tick instead.
            if at + 2 + Self.textWidth(label, size: 10) <= right {
                out += "<text class=\"axis coarse\" x=\"\(at + 2)\" y=\"\(y)\">\(label)</text>\n"
            } else {
                out += "<text class=\"axis coarse\" x=\"\(at - 2)\" y=\"\(y)\" text-anchor=\"end\">\(label)</text>\n"
            }
            tick += step
        }
    }

    private func drawViolations(into out: inout String, bottom: Int) {
        var lastX = -10
        var pending: (x: Int, pins: [TimelineOverlay.Pin])?
        func flush(_ group: (x: Int, pins: [TimelineOverlay.Pin])?, into out: inout String) {
            guard let group, let first = group.pins.first else { return }
            let more = group.pins.count > 1 ? " (and \(group.pins.count - 1) more here)" : ""
            let time = "data-t=\"\(at(group.pins[0].start))\""
            out += "<a href=\"#\(first.anchor)\"><path class=\"pin\" \(time) d=\"M\(group.x),\(Self.axisHeight - 2) l-5,-9 h10 z\">"
                + "<title>\(HTMLText.escape(first.label))\(more)</title></path></a>"
                + "<line class=\"pinline\" \(time) x1=\"\(group.x)\" y1=\"\(Self.axisHeight - 2)\" x2=\"\(group.x)\" y2=\"\(bottom)\"/>\n"
        }
        for pin in overlay.violations where window.overlaps(pin.start, pin.end) {
            let at = x(pin.start)
            if var group = pending, at - lastX < 4 {
                group.pins.append(pin)
                pending = group
                continue
            }
            flush(pending, into: &out)
            pending = (at, [pin])
            lastX = at
        }
        flush(pending, into: &out)
    }
}
