import Foundation
import LifetraceRecorder

/// How many traces a directory of per-run traces keeps: the newest ``keepNewest`` files, and no
/// more than ``maximumBytes`` together. Only files named as the recorder names a run's trace
/// (`lifetrace-*.ltrace`) are ever removed; never the trace being written, and never one with a
/// region beside it (its run was killed and it is not recovered yet, or its process still runs).
public struct TraceRetention: Sendable, Hashable {
    /// The most traces kept, the current one included.
    public var keepNewest: Int
    /// The most bytes the kept traces take together; the current trace is kept whatever its size.
    public var maximumBytes: Int64

    /// A retention; by default 20 traces and 50 MiB.
    public init(keepNewest: Int = 20, maximumBytes: Int64 = 50 << 20) {
        self.keepNewest = keepNewest
        self.maximumBytes = maximumBytes
    }

    /// A trace file found in the directory.
    public struct StoredTrace: Sendable, Hashable {
        /// The file's name.
        public var name: String
        /// Its size in bytes.
        public var size: Int64
        /// Whether a region lies beside it (`NAME.lifetrace-region`).
        public var hasRegion: Bool

        /// A stored trace.
        public init(name: String, size: Int64, hasRegion: Bool = false) {
            self.name = name
            self.size = size
            self.hasRegion = hasRegion
        }
    }

    /// The names to remove from `traces` when `current` is being written. Newest first (the names
    /// sort by the time their run started); the current trace and those with a region are kept
    /// and counted; every other trace is kept while both limits hold, and removed after.
    public func removals(from traces: [StoredTrace], current: String) -> [String] {
        let ours = traces.filter {
            $0.name.hasPrefix(RecorderOutput.traceFilePrefix) && $0.name.hasSuffix(".ltrace")
        }
        let protected = ours.filter { $0.name == current || $0.hasRegion }
        var count = protected.count
        var bytes = protected.reduce(Int64(0)) { $0 + $1.size }
        var removed: [String] = []
        for trace in ours.sorted(by: { $0.name > $1.name }) where trace.name != current && !trace.hasRegion {
            if count < keepNewest && bytes + trace.size <= maximumBytes {
                count += 1
                bytes += trace.size
            } else {
                removed.append(trace.name)
            }
        }
        return removed
    }

    /// Removes from `directory` what ``removals(from:current:)`` names; returns the removed names.
    @discardableResult
    public func apply(directory: String, current: String) -> [String] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else { return [] }
        let present = Set(names)
        let traces = names.compactMap { name -> StoredTrace? in
            let path = (directory as NSString).appendingPathComponent(name)
            guard let attributes = try? manager.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { return nil }
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            return StoredTrace(name: name, size: size, hasRegion: present.contains(name + TraceRecovery.regionSuffix))
        }
        var removed: [String] = []
        for name in removals(from: traces, current: current) {
            if (try? manager.removeItem(atPath: (directory as NSString).appendingPathComponent(name))) != nil {
                removed.append(name)
            }
        }
        return removed
    }
}
