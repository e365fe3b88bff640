import LifetraceFormat

/// Receives the ``LifecycleEdge``s of a replay, in the order the analyzer derives them.
///
/// The analyzer is driven with a sink through ``LifecycleAnalyzer/consume(_:symbols:into:)``
/// and ``LifecycleAnalyzer/finish(symbols:into:)``; driven without one
/// (``LifecycleAnalyzer/consume(_:symbols:)``, as `check` does) it builds no edge at all.
///
/// ```swift
/// struct BusyTime: LifecycleEdgeSink {
///     var total: Int64 = 0
///     mutating func receive(_ edge: LifecycleEdge, symbols: SymbolTable) {
///         if case .busyEnded(let start, let end) = edge { total += end - start }
///     }
/// }
/// ```
public protocol LifecycleEdgeSink {
    /// What ``receive(_:symbols:)`` throws; `Never` for a sink that cannot fail.
    associatedtype Failure: Error = Never

    /// One edge. `symbols` resolves its names (the reader's table, which only grows).
    mutating func receive(_ edge: LifecycleEdge, symbols: SymbolTable) throws(Failure)
}

/// A sink that keeps every edge, in order: for tests and small traces (memory grows with the
/// trace).
public struct LifecycleEdgeLog: LifecycleEdgeSink, Sendable {
    /// The edges received so far.
    public private(set) var edges: [LifecycleEdge] = []

    /// An empty log.
    public init() {}

    /// Appends `edge`.
    public mutating func receive(_ edge: LifecycleEdge, symbols: SymbolTable) {
        edges.append(edge)
    }
}
