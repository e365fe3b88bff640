import LifetraceFormat

/// What an export wrote, for the command's closing line and for tests.
public struct ExportSummary: Sendable, Hashable {
    /// The format written.
    public var format: ExportFormat
    /// How many trace events were read.
    public var eventCount: Int
    /// How many records the format holds: timeline records (slices, instants) for Perfetto and
    /// the Trace Event Format, event records for CTF.
    public var recordCount: Int
    /// How many violations the analysis found (each is in the export).
    public var violationCount: Int
    /// How many process lifetimes the trace holds.
    public var lifetimeCount: Int
    /// How many bytes were written.
    public var byteCount: Int64
    /// The problems the trace's reader recovered from (a cut end, a skipped chunk, an unclosed
    /// end): the export holds every event read before them, and the command names them.
    public var issues: [TraceError] = []

    /// Creates a summary.
    public init(
        format: ExportFormat, eventCount: Int, recordCount: Int, violationCount: Int, lifetimeCount: Int,
        byteCount: Int64
    ) {
        self.format = format
        self.eventCount = eventCount
        self.recordCount = recordCount
        self.violationCount = violationCount
        self.lifetimeCount = lifetimeCount
        self.byteCount = byteCount
    }
}
