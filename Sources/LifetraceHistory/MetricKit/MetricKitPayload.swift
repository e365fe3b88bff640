import LifetraceFormat

/// What the history keeps of one MetricKit payload (`MXMetricPayload` or `MXDiagnosticPayload`,
/// the JSON of `jsonRepresentation()`): its metadata, histograms, exit counts, diagnostics with
/// their call-stack trees, and every other field as it was given (docs/HISTORY.md, "MetricKit").
/// Every field of the file lands in exactly one of these, counted in ``accounted``.
public struct MetricKitPayload: Sendable {
    /// Which payload.
    public enum Kind: String, Sendable {
        /// `MXMetricPayload`: a day's aggregated metrics.
        case metric
        /// `MXDiagnosticPayload`: crash, hang, CPU and disk-write exception, launch diagnostics.
        case diagnostic
    }

    /// One histogram (`histogramNumBuckets`, `histogramValue`): its buckets in the file's order.
    public struct Histogram: Sendable, Hashable {
        /// The field's path in the payload (`applicationLaunchMetrics.histogrammedTimeToFirstDrawKey`).
        public var field: String
        /// What the history calls it (`launch`, `resume`, `hang`, ...), nil for a histogram no
        /// series is drawn from (signpost durations, cellular bars).
        public var metric: String?
        /// The buckets' unit: `ns` for durations (converted), else as written.
        public var unit: String
        /// The buckets: their range and how many samples fell in it.
        public var buckets: [Bucket]
    }

    /// One bucket of a histogram.
    public struct Bucket: Sendable, Hashable {
        public var start: Double
        public var end: Double
        public var count: Int64
    }

    /// One exit count: where the app was, why it ended, how many times.
    public struct Exit: Sendable, Hashable {
        /// `foreground` or `background`.
        public var context: String
        /// The reason (the field's name without `cumulative` and `ExitCount`: `AppWatchdog`,
        /// `MemoryResourceLimit`, `SuspendedWithLockedFile`, ...).
        public var reason: String
        public var count: Int64
    }

    /// A field kept as it was given: its path, its value, and the measurement read from it.
    public struct Value: Sendable, Hashable {
        /// The diagnostic it belongs to (its index in ``diagnostics``), nil for the payload's own.
        public var diagnostic: Int?
        /// The field's path (`cpuMetrics.cumulativeCPUTime`, `diagnosticMetaData.exceptionType`).
        public var field: String
        /// The value.
        var value: MetricKitJSON.StoredValue
        /// A measurement's number and unit (`"1,300 kB"`: 1300, `kB`).
        public var amount: Double?
        public var unit: String?
        /// Whether Apple documents the field (one that is not is also named in ``notes``).
        public var documented: Bool

        public static func == (lhs: Value, rhs: Value) -> Bool {
            lhs.diagnostic == rhs.diagnostic && lhs.field == rhs.field && lhs.value == rhs.value
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(field) }
    }

    /// One diagnostic of a diagnostic payload.
    public struct Diagnostic: Sendable {
        /// `hang`, `crash`, `cpuException`, `diskWriteException`, `appLaunch` (the array's name
        /// without `Diagnostics`).
        public var kind: String
        /// Its position in its array.
        public var position: Int
        /// `version`.
        public var version: String?
        /// `hangDuration` or `launchDuration` (ns).
        public var duration: Int64?
        /// From `diagnosticMetaData`.
        public var appVersion: String?
        public var buildNumber: String?
        public var device: String?
        public var os: String?
        /// `callStackTree.callStackPerThread`.
        public var callStackPerThread: Bool?
        /// `callStackTree.callStacks`: whether each is the thread the diagnostic is about.
        public var stacks: [Bool?]
        /// The frames of every call stack, parents before their subframes.
        public var frames: [Frame]
        /// The frames of the heaviest path (the subframe with the most samples, from each root),
        /// named where they were symbolicated, outermost first: what the stall is blamed on.
        public var blame: String = ""
    }

    /// One frame of a call-stack tree: `subFrames` are the functions it called.
    public struct Frame: Sendable, Hashable {
        /// The call stack (index in ``Diagnostic/stacks``).
        public var stack: Int
        /// The parent frame's index in ``Diagnostic/frames``, -1 for a root frame.
        public var parent: Int
        public var depth: Int
        public var binaryUUID: String?
        public var binaryName: String?
        public var offsetIntoBinaryTextSegment: UInt64?
        public var address: UInt64?
        public var sampleCount: Int64?
        /// Named from a symbol file with the binary's UUID (`--symbols`).
        public var symbol: FrameSymbol?
    }

    /// The file.
    public var path: String
    public var kind: Kind
    /// `timeStampBegin`, `timeStampEnd`.
    public var begin: String?
    public var end: String?
    /// `appVersion` (the latest version the day saw) and `metaData`'s fields.
    public var appVersion: String?
    public var buildNumber: String?
    public var device: String?
    public var os: String?
    public var architecture: String?
    public var region: String?
    public var histograms: [Histogram] = []
    public var exits: [Exit] = []
    public var values: [Value] = []
    public var diagnostics: [Diagnostic] = []
    /// Fields named for the reader: not documented by Apple (kept all the same), or checked
    /// against what else the file says and found to differ.
    public var notes: [String] = []
    /// Where each field of the file went: `table.column` (or `checked:FIELD` for a field that
    /// only restates others, as `histogramNumBuckets`), and how many.
    public var accounted: [String: Int] = [:]

    /// How many fields (leaves of the JSON) the file has, by ``accounted``.
    public var fieldCount: Int { accounted.values.reduce(0, +) }
}
