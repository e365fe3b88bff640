/// The history as series: for each metric (docs/HISTORY.md, "Metrics"), one figure per point,
/// a point being a build (CI order) or an app version (its builds together, semantic order),
/// with the change points found on each series and the build each change starts at.
public struct HistorySeries: Sendable {
    /// How the points are ordered.
    public enum Order: String, Sendable, CaseIterable {
        /// One point per build, in the order builds were first added.
        case build
        /// One point per app version, in version order (1.2 < 1.9 < 1.10 < 2.0).
        case version
    }

    /// One point: a build or a version.
    public struct Point: Sendable, Hashable {
        /// The build id, or the version.
        public var label: String
        /// The first build of the point (the build a change starting here is attributed to).
        public var first: BuildRecord
        /// How many builds it holds.
        public var builds: Int
        /// Runs and lifetimes.
        public var runs: Int
        public var lifetimes: Int
        /// MetricKit payloads.
        public var payloads: Int = 0
    }

    /// One metric's series: a figure per point (nil where a point has none).
    public struct Series: Sendable {
        /// The metric.
        public var metric: HistoryMetric
        /// Its figures, one per point.
        public var figures: [HistoryFigure?]
        /// Where it changed, in point order.
        public var changes: [EDivisive.Change]
    }

    /// The order.
    public var order: Order
    /// The points, in order.
    public var points: [Point]
    /// The metrics' series, in metric order.
    public var series: [Series]

    /// Reads `store` point by point (one build or version in memory at a time) and finds the
    /// change points of every series with `detector`.
    public init(store: HistoryStore, order: Order, detector: EDivisive = EDivisive()) throws(HistoryStoreError) {
        self.order = order
        var builds = try store.builds()
        var groups: [[HistoryStore.StoredBuild]]
        switch order {
        case .build:
            groups = builds.map { [$0] }
        case .version:
            // Stable: builds of one version stay in CI order, the first of them heads the point.
            builds = builds.enumerated().sorted { lhs, rhs in
                let (a, b) = (lhs.element.record.appVersion, rhs.element.record.appVersion)
                if a != b { return VersionOrder.precedes(a, b) }
                return lhs.offset < rhs.offset
            }.map(\.element)
            groups = []
            for build in builds {
                if let last = groups.last?.first, last.record.appVersion == build.record.appVersion {
                    groups[groups.count - 1].append(build)
                } else {
                    groups.append([build])
                }
            }
        }
        points = []
        var columns: [String: Int] = [:]
        series = []
        for (index, group) in groups.enumerated() {
            var runs: [HistoryRun] = []
            var field = FieldData()
            for build in group {
                runs += try store.runs(ofBuild: build.row)
                field.merge(try store.fieldData(ofBuild: build.row))
            }
            let first = group[0].record
            points.append(Point(
                label: order == .build ? first.buildID : (first.appVersion ?? "-"), first: first, builds: group.count,
                runs: runs.count, lifetimes: runs.reduce(0) { $0 + $1.lifetimeCount }, payloads: field.payloads))
            for (metric, figure) in HistoryFigures.figures(runs) + FieldFigures.figures(field) {
                let column = columns[metric.key] ?? {
                    series.append(Series(metric: metric, figures: Array(repeating: nil, count: index), changes: []))
                    columns[metric.key] = series.count - 1
                    return series.count - 1
                }()
                series[column].figures.append(figure)
            }
            for column in series.indices where series[column].figures.count <= index { series[column].figures.append(nil) }
        }
        // A rule not broken and an ending not seen in a point's runs count 0 there.
        for column in series.indices where ["violations.", "exits."].contains(where: series[column].metric.key.hasPrefix) {
            for index in points.indices where series[column].figures[index] == nil && points[index].runs > 0 {
                let n = series[column].metric.unit == .percent ? points[index].lifetimes : points[index].runs
                series[column].figures[index] = HistoryFigure(value: 0, low: 0, high: 0, n: n)
            }
        }
        // An exit reason no payload of a point counted, where others of its context did, is 0 %.
        for column in series.indices where series[column].metric.key.hasPrefix("field.exits.") {
            let context = series[column].metric.key.split(separator: ".")[2]
            for index in points.indices where series[column].figures[index] == nil {
                let prefix = "field.exits.\(context)."
                guard let other = series.first(where: { $0.metric.key.hasPrefix(prefix) && $0.figures[index] != nil })?.figures[index]
                else { continue }
                series[column].figures[index] = HistoryFigure(value: 0, low: 0, high: 0, n: other.n)
            }
        }
        // A metric's changes are found among the points that have it.
        for column in series.indices {
            let present = series[column].figures.indices.filter { series[column].figures[$0] != nil }
            let values = present.map { series[column].figures[$0]!.value }
            series[column].changes = detector.changes(values).map { change in
                var change = change
                change.index = present[change.index]
                return change
            }
        }
        series.sort { Self.rank($0.metric.key) < Self.rank($1.metric.key) }
    }

    /// Metrics in the order the docs list them: launch, hangs, stalls, violations, background,
    /// exits, then the field data's launch, hangs and exits.
    private static func rank(_ key: String) -> Int {
        let prefixes = [
            "launch.", "hangRate", "stalls.", "violations.", "background.", "exits.", "field.launch", "field.resume", "field.extended",
            "field.hang", "field.exits.foreground", "field.exits.background",
        ]
        return prefixes.firstIndex { key.hasPrefix($0) } ?? prefixes.count
    }

    /// Every change of every series, with its metric, in point order then metric order.
    public var changes: [(series: Series, change: EDivisive.Change)] {
        series.flatMap { series in series.changes.map { (series, $0) } }
            .enumerated().sorted { ($0.element.change.index, $0.offset) < ($1.element.change.index, $1.offset) }.map(\.element)
    }
}
