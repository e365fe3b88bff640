import Foundation
import LifetraceFormat
import LifetraceOutput
import LifetraceRunner

/// Counts gathered over a trace's events, and the report `lifetrace info` prints.
public struct TraceInfo {
    // Indexed by stream code; arrays rather than dictionaries keep `add` cheap per event.
    private var counts = [Int](repeating: 0, count: TraceStream.allCases.count)
    private var previous = [Int64](repeating: .min, count: TraceStream.allCases.count)
    private var eventCount = 0
    private var first: Int64 = .max
    private var last: Int64 = .min
    private var backwards = 0

    /// No events yet.
    public init() {}

    /// Reads the whole trace at `path` (binary or JSONL, `-` for standard input), checking every
    /// chunk, and returns its report; with `listsChunks`, a binary trace's chunk table too.
    public static func report(path: String, listsChunks: Bool) throws(TraceError) -> String {
        var summary = TraceInfo()
        // Opened once: a FIFO or a pipe cannot be read twice.
        let source = try TraceInputs.open(path: path, binaryOptions: .init(collectsChunkStatistics: true))
        if var reader = source.binary {
            while try reader.nextBatch({ events, _ in for event in events { summary.add(event) } }) {}
            return summary.report(
                name: path, metadata: reader.metadata, issues: reader.issues, binary: reader.summary,
                chunks: listsChunks ? reader.chunks : nil)
        }
        let issues = try source.copyEvents { (event, _) throws(TraceError) in summary.add(event) }
        let size = path == "-" ? nil : (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64) ?? nil
        return summary.report(
            name: path, metadata: source.metadata, issues: issues, binary: nil, chunks: nil, fileSize: size,
            convertedFromInstruments: source.kind == .instrumentsExport)
    }

    /// Adds one event.
    public mutating func add(_ event: TraceEvent) {
        let stream = Int(event.stream.rawValue)
        eventCount += 1
        counts[stream] += 1
        first = min(first, event.timestamp)
        last = max(last, event.timestamp)
        if event.timestamp < previous[stream] { backwards += 1 }
        previous[stream] = event.timestamp
    }

    /// The report: one `label: value` line per fact, then the chunk table when asked for.
    public func report(
        name: String, metadata: TraceMetadata, issues: [TraceError], binary: BinaryTraceSummary?,
        chunks: [ChunkStatistics]?, fileSize: Int64? = nil, convertedFromInstruments: Bool = false
    ) -> String {
        var lines: [(String, String)] = [("file", name)]
        if let binary {
            lines.append(("kind", "binary trace, format \(binary.majorVersion).\(binary.minorVersion)"))
        } else if convertedFromInstruments {
            lines.append(("kind", "Instruments export (xctrace XML), converted"))
        } else {
            lines.append(("kind", "JSONL text trace"))
        }
        lines.append(("metadata", metadata.isEmpty ? "none" : metadata.fields.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")))
        lines.append(("events", "\(eventCount)"))
        let streams = TraceStream.allCases.map { "\($0.name) \(counts[Int($0.rawValue)])" }.joined(separator: ", ")
        lines.append(("streams", streams))
        if eventCount > 0 {
            lines.append(("time span", "\(first) ... \(last) ns (\(DurationFormat.clock.string(last - first)))"))
        }
        if backwards > 0 { lines.append(("backwards", "\(backwards) events earlier than the one before them in their stream")) }
        let size = binary?.bytesRead ?? fileSize
        if let binary {
            lines.append(("chunks", "\(binary.chunkCount) in \(binary.flushGroupCount) flush groups, chunk size limit \(binary.maxChunkSize) bytes"))
            lines.append(("raw size", "\(binary.rawBytes) bytes"))
            lines.append(("compressed", "\(binary.chunkBytes) bytes in chunks, ratio \(DecimalText.string(binary.chunkBytes == 0 ? 0 : Double(binary.rawBytes) / Double(binary.chunkBytes), decimals: 2))"))
        }
        if let size {
            let perEvent = eventCount == 0 ? "" : ", \(DecimalText.string(Double(size) / Double(eventCount), decimals: 2)) bytes/event"
            lines.append(("file size", "\(size) bytes\(perEvent)"))
        }
        var integrity = issues.isEmpty ? "ok" : plural(issues.count, "problem")
        if let binary { integrity += binary.isClosed ? ", closed" : ", not closed" }
        lines.append(("integrity", integrity))
        let width = lines.map(\.0.count).max()! + 2
        // Values come from the file (its name, metadata, problems): escaped, each stays one line.
        var text = lines.map { ($0.0 + ":").padding(toLength: width, withPad: " ", startingAt: 0) + TerminalText.escaped($0.1) }
            .joined(separator: "\n") + "\n"
        for issue in issues { text += "  \(TerminalText.escaped(issue.description))\n" }
        if let chunks {
            text += "\nstream  sequence  group  offset  first ts  last ts  events  raw bytes  stored bytes\n"
            for chunk in chunks {
                text += "\(chunk.stream.name)  \(chunk.sequence)  \(chunk.flushGroup)  \(chunk.offset)  \(chunk.firstTimestamp)  \(chunk.lastTimestamp)  \(chunk.eventCount)  \(chunk.rawSize)  \(chunk.storedSize)\n"
            }
        }
        return text
    }
}
