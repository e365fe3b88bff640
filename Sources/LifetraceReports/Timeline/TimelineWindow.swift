import LifetraceFormat

/// One drawn view of a timeline: a time range cut into pixel-sized buckets. Every span that
/// falls into the range is folded into the buckets it covers: time per state for state rows,
/// covered time, the number of intervals starting there and the longest one's name for interval
/// rows, a count and the first name for instants. Memory is rows x buckets, whatever the trace.
public struct TimelineWindow: Sendable {
    /// The states a state row distinguishes (codes 0 to 5).
    static let stateCodes = 6

    /// What the window shows, for headings and anchors.
    public var title: String
    /// The anchor of the window's section in the document.
    public var anchor: String
    /// The start of the range (ns on the trace's clock).
    public let start: Int64
    /// The end of the range (ns).
    public let end: Int64
    /// The time shown as zero on the axis (ns on the trace's clock).
    public var origin: Int64
    /// How many buckets (pixels) the range is cut into.
    public let buckets: Int
    /// Nanoseconds per bucket.
    public let bucketWidth: Double

    /// Time per state per bucket, `bucket * stateCodes + code`, per state row (empty until used).
    var stateTime: [[Double]]
    /// Covered time per bucket, per interval row.
    var covered: [[Double]]
    /// Intervals starting (or instants falling) in each bucket, per row.
    var counts: [[Int32]]
    /// The longest interval's (or the first instant's) name per bucket, per row.
    var names: [[Symbol]]
    /// The longest interval's duration per bucket, per row.
    var longest: [[Int64]]
    /// The spans themselves, while there are at most ``spanLimit`` of them, so that the page can
    /// draw them again at any zoom (see ``DetailSpan``); emptied once the window holds more.
    public private(set) var spans: [DetailSpan] = []
    /// Whether ``spans`` holds every span of the window.
    public private(set) var spansComplete = true
    /// The most spans a window keeps for drawing again.
    public var spanLimit = 0

    /// A window over `[start, end]` cut into `buckets` buckets.
    public init(title: String, anchor: String, start: Int64, end: Int64, origin: Int64, buckets: Int) {
        precondition(buckets > 0, "a window has at least one bucket")
        self.title = title
        self.anchor = anchor
        self.start = start
        self.end = max(end, start + 1)
        self.origin = origin
        self.buckets = buckets
        bucketWidth = Double(self.end - start) / Double(buckets)
        stateTime = Array(repeating: [], count: TimelineRow.count)
        covered = Array(repeating: [], count: TimelineRow.count)
        counts = Array(repeating: [], count: TimelineRow.count)
        names = Array(repeating: [], count: TimelineRow.count)
        longest = Array(repeating: [], count: TimelineRow.count)
    }

    /// Whether the span `[from, to]` touches the window.
    @inline(__always)
    func overlaps(_ from: Int64, _ to: Int64) -> Bool { to >= start && from <= end }

    /// The bucket of time `t`, clamped to the window.
    @inline(__always)
    func bucket(_ t: Int64) -> Int { min(buckets - 1, position(t)) }

    /// How many whole buckets from the window's start `t` lies, clamped to `0...buckets`.
    @inline(__always)
    func position(_ t: Int64) -> Int {
        // Clamped before the conversion: a time far outside a narrow window is beyond Int's range.
        let position = (Double(t - start) / bucketWidth).rounded(.down)
        return Int(max(0, min(Double(buckets), position)))
    }

    /// Keeps `span` for drawing again, or gives up keeping them once there are more than
    /// ``spanLimit``.
    mutating func keep(_ span: DetailSpan) {
        guard spansComplete else { return }
        guard spans.count < spanLimit else {
            spans = []
            spansComplete = false
            return
        }
        spans.append(span)
    }

    /// Whether `row` received anything.
    public func isUsed(_ row: Int) -> Bool { !counts[row].isEmpty }

    /// Folds a state span into `row`.
    mutating func addState(row: Int, code: UInt8, from: Int64, to: Int64) {
        prepare(row)
        if stateTime[row].isEmpty { stateTime[row] = Array(repeating: 0, count: buckets * Self.stateCodes) }
        let code = Int(min(code, UInt8(Self.stateCodes - 1)))
        let first = bucket(from)
        counts[row][first] &+= 1
        let overlaps = overlapRange(from, to)
        for index in overlaps { stateTime[row][index * Self.stateCodes + code] += overlap(index, from, to) }
    }

    /// Folds an interval into `row`.
    mutating func addInterval(row: Int, name: Symbol, from: Int64, to: Int64) {
        prepare(row)
        if covered[row].isEmpty { covered[row] = Array(repeating: 0, count: buckets) }
        let first = bucket(from)
        counts[row][first] &+= 1
        let duration = to - from
        if duration >= longest[row][first] {
            longest[row][first] = duration
            names[row][first] = name
        }
        let overlaps = overlapRange(from, to)
        for index in overlaps { covered[row][index] += overlap(index, from, to) }
    }

    /// Folds an instant into `row`.
    mutating func addInstant(row: Int, name: Symbol, at time: Int64) {
        prepare(row)
        let index = bucket(time)
        if counts[row][index] == 0 { names[row][index] = name }
        counts[row][index] &+= 1
    }

    private mutating func prepare(_ row: Int) {
        guard counts[row].isEmpty else { return }
        counts[row] = Array(repeating: 0, count: buckets)
        names[row] = Array(repeating: .none, count: buckets)
        longest[row] = Array(repeating: -1, count: buckets)
    }

    /// The buckets `[from, to]` overlaps (empty when it has no length inside the window).
    @inline(__always)
    private func overlapRange(_ from: Int64, _ to: Int64) -> Range<Int> {
        let low = Double(max(from, start) - start)
        let high = Double(min(to, end) - start)
        guard high > low else { return 0..<0 }
        let first = max(0, min(buckets - 1, Int(low / bucketWidth)))
        let last = max(0, min(buckets - 1, Int(high / bucketWidth)))
        return first..<(last + 1)
    }

    /// How much of bucket `index` `[from, to]` covers (ns).
    @inline(__always)
    private func overlap(_ index: Int, _ from: Int64, _ to: Int64) -> Double {
        let low = Double(max(from, start) - start)
        let high = Double(min(to, end) - start)
        let bucketLow = Double(index) * bucketWidth
        return max(0, min(high, bucketLow + bucketWidth) - max(low, bucketLow))
    }

    /// The share of bucket `index` that `row` covers (0 to 1; overlapping intervals clamp at 1).
    public func coverage(row: Int, bucket index: Int) -> Double {
        guard !covered[row].isEmpty else { return 0 }
        return min(1, covered[row][index] / bucketWidth)
    }

    /// The state that holds most of bucket `index` in state row `row`, or nil when none does.
    public func dominantState(row: Int, bucket index: Int) -> UInt8? {
        guard !stateTime[row].isEmpty else { return nil }
        var best: UInt8?
        var bestTime = 0.0
        for code in 0..<Self.stateCodes {
            let time = stateTime[row][index * Self.stateCodes + code]
            if time > bestTime {
                bestTime = time
                best = UInt8(code)
            }
        }
        return best
    }

    /// How many intervals start (or instants fall) in bucket `index` of `row`.
    public func count(row: Int, bucket index: Int) -> Int {
        counts[row].isEmpty ? 0 : Int(counts[row][index])
    }

    /// The name of the longest interval starting (or the first instant) in bucket `index` of `row`.
    public func name(row: Int, bucket index: Int) -> Symbol {
        names[row].isEmpty ? .none : names[row][index]
    }

    /// The duration of the longest interval starting in bucket `index` of `row` (-1 when none).
    public func longestDuration(row: Int, bucket index: Int) -> Int64 {
        longest[row].isEmpty ? -1 : longest[row][index]
    }

    /// The runs of neighbouring buckets of `row` that one state holds most of, left to right.
    public func stateRuns(row: Int) -> [(code: UInt8, buckets: Range<Int>)] {
        var runs: [(code: UInt8, buckets: Range<Int>)] = []
        var index = 0
        while index < buckets {
            guard let code = dominantState(row: row, bucket: index) else {
                index += 1
                continue
            }
            var last = index
            while last + 1 < buckets && dominantState(row: row, bucket: last + 1) == code { last += 1 }
            runs.append((code, index..<(last + 1)))
            index = last + 1
        }
        return runs
    }
}

/// One span of a window as the page can draw it again at any zoom: its row, its start and end
/// (ns on the trace's clock), its state code and its name.
public struct DetailSpan: Sendable, Hashable {
    /// The row (``TimelineRow``).
    public var row: Int
    /// The start (ns).
    public var start: Int64
    /// The end (ns; the start for an instant).
    public var end: Int64
    /// The state code, for state rows.
    public var value: UInt8
    /// The name.
    public var name: Symbol
}
