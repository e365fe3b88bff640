import LifetraceFormat

/// The text forms a trace is printed in (`lifetrace dump --format`): the canonical JSONL that
/// `import` reads back exactly (docs/JSONL.md), or aligned text for reading.
public enum TraceTextForm: String, Sendable, CaseIterable {
    /// Canonical JSONL (``JSONLTraceWriter``).
    case jsonl
    /// Aligned text: time in ms since the first event, stream, thread, type, fields (``TextTraceWriter``).
    case text

    /// Writes every event of `source` to `path` (`-` for standard output) in this form and
    /// returns the problems the reader recovered from.
    public func write(_ source: AnyTraceSource, to path: String) throws(TraceError) -> [TraceError] {
        switch self {
        case .jsonl:
            let writer = try JSONLTraceWriter(path: path, metadata: source.metadata)
            let issues = try source.copyEvents { (event, symbols) throws(TraceError) in try writer.append(event, symbols: symbols) }
            // Known whole once the last event is read (docs/JSONL.md, "Stack samples").
            try writer.appendSampledStacks(source.sampledStacks)
            try writer.close()
            return issues
        case .text:
            let writer = try TextTraceWriter(path: path, metadata: source.metadata)
            let issues = try source.copyEvents { (event, symbols) throws(TraceError) in try writer.append(event, symbols: symbols) }
            try writer.close()
            return issues
        }
    }
}
