import LifetraceAnalysis
import LifetraceFormat

/// The windows of an HTML timeline, filled from one replay: every span goes to each window it
/// touches. A ``TimelineSink``; memory is windows x rows x buckets.
public struct TimelineCanvas: TimelineSink, Sendable {
    /// The windows, in the order they are drawn.
    public private(set) var windows: [TimelineWindow]
    /// One window per lifetime for the overview, in time order, each holding only the app view
    /// and the busy row (``stripRows``), so that hundreds of them stay small.
    public private(set) var strips: [TimelineWindow]
    /// The trace's scenes in order of appearance (the first ``TimelineRow/sceneRows`` get rows).
    public private(set) var scenes: [Symbol] = []
    /// How many spans were recorded.
    public private(set) var spanCount = 0

    /// The rows a lifetime strip holds.
    public static let stripRows = [TimelineRow.app, TimelineRow.busy]

    /// A canvas drawing into `windows` and the lifetime `strips` (sorted by start, disjoint).
    public init(windows: [TimelineWindow], strips: [TimelineWindow] = []) {
        self.windows = windows
        self.strips = strips
    }

    /// Folds `span` into every window it touches.
    public mutating func record(_ span: TimelineSpan) {
        spanCount &+= 1
        var slot = 0
        if case .sceneState(let scene) = span.lane {
            if let index = scenes.firstIndex(of: scene) {
                slot = index
            } else {
                slot = scenes.count
                if scenes.count < TimelineRow.sceneRows { scenes.append(scene) }
            }
        }
        let row = TimelineRow.row(for: span.lane, sceneSlot: slot)
        for index in windows.indices where windows[index].overlaps(span.start, span.end) {
            if windows[index].spanLimit > 0 {
                windows[index].keep(DetailSpan(row: row, start: span.start, end: span.end, value: span.value, name: span.name))
            }
            if TimelineRow.isState(row) {
                windows[index].addState(row: row, code: span.value, from: span.start, to: span.end)
            } else if TimelineRow.isInstant(row) {
                windows[index].addInstant(row: row, name: span.name, at: span.start)
            } else {
                windows[index].addInterval(row: row, name: span.name, from: span.start, to: span.end)
            }
        }
        guard Self.stripRows.contains(row), let index = strip(containing: span.start),
            strips[index].overlaps(span.start, span.end)
        else { return }
        if row == TimelineRow.app {
            strips[index].addState(row: row, code: span.value, from: span.start, to: span.end)
        } else {
            strips[index].addInterval(row: row, name: span.name, from: span.start, to: span.end)
        }
    }

    /// The last strip starting at or before `time` (a span never crosses lifetimes), found by
    /// bisection so that a trace of many lifetimes costs no more per span than one of few.
    private func strip(containing time: Int64) -> Int? {
        var low = 0
        var high = strips.count
        while low < high {
            let middle = (low + high) / 2
            if strips[middle].start <= time { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The label of scene row `slot`.
    public func sceneLabel(_ slot: Int, symbols: SymbolTable) -> String {
        guard slot < scenes.count else { return "" }
        let name = symbols.string(scenes[slot]) ?? "(unnamed)"
        return slot == TimelineRow.sceneRows - 1 ? "scene \(name) and later" : "scene \(name)"
    }
}
