import LifetraceAnalysis
import LifetraceFormat

extension Violation {
    /// The line of the text trace that holds the offending event (the last witness), as the
    /// reader gave it (``EventSummary/line``); nil for a binary trace. GitHub annotations and
    /// SARIF results point there without reading the trace again.
    var offendingLine: Int? { events.last?.line }

    /// The chunk of the binary trace that holds the offending event, as its reader placed it
    /// (``EventSummary/chunk``); nil for a text trace. A binary trace has no lines: SARIF
    /// regions give this chunk's bytes instead, and GitHub annotations its offset.
    var offendingChunk: ChunkPosition? { events.last?.chunk }

    /// Where the offending event lies, as a title says it after the trace's path: ` line 12` in a
    /// text trace, ` chunk at byte 4096` in a binary one, nothing when not known.
    var offendingPlace: String {
        if let line = offendingLine { return " line \(line)" }
        if let chunk = offendingChunk { return " chunk at byte \(chunk.byteOffset)" }
        return ""
    }
}
