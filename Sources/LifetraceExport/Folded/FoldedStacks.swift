import LifetraceAnalysis
import LifetraceFormat

/// `lifetrace export --format folded`: the trace's stack samples in the collapsed ("folded")
/// format of Brendan Gregg's FlameGraph tools, one line per distinct stack,
/// `thread;outermost;...;innermost count`, sorted, for flamegraph.pl, speedscope, inferno and
/// the like (docs/EXPORT.md, "Folded stacks").
///
/// The first frame of each line is the sampled thread (`main thread`, `thread 3`); frames are
/// functions when symbols are known (the trace's `symbol` records, or `--symbolicate`), else
/// `image+0xoffset`, each escaped by ``FoldedText/frame(_:)`` (a `;` becomes `:`, a line break
/// or another control character U+FFFD), so that every line splits back into the frames written.
/// A frame of the app's own code (``FrameName/isApp``, the frames a stall's blame can name) ends
/// with ``inAppMark``. A trace without samples gives an empty file.
public enum FoldedStacks {
    /// What ends the name of an in-app frame (docs/REPORTS.md, "In-app frames"), in the manner of
    /// the annotations flamegraph.pl reads (`_[k]` for kernel frames): a suffix after the escaped
    /// name, so that the frame still reads as its function and a search for `[app]` finds the app.
    public static let inAppMark = " [app]"

    /// The folded lines (without line breaks) of every sample in `stacks`, sorted.
    public static func lines(_ stacks: SampledStacks, names: TraceSymbolNames) -> [String] {
        var byStack: [ThreadStack: Int] = [:]
        for sample in stacks.samples { byStack[ThreadStack(thread: sample.thread, stack: sample.stack), default: 0] += 1 }
        var cache: [UInt64: String] = [:]
        var counts: [String: Int] = [:]
        for (key, count) in byStack {
            var frames = [key.thread.isMain ? "main thread" : "thread \(key.thread)"]
            for address in stacks.frames(of: key.stack) {
                if let known = cache[address] {
                    frames.append(known)
                    continue
                }
                let frame = names.name(address)
                let name = FoldedText.frame(frame.function) + (frame.isApp ? inAppMark : "")
                cache[address] = name
                frames.append(name)
            }
            counts[frames.joined(separator: ";"), default: 0] += count
        }
        return counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    }

    private struct ThreadStack: Hashable {
        var thread: ThreadID
        var stack: Int
    }

    /// Reads every event of `source` (analysing it, for the summary) and writes its samples'
    /// folded lines to `output`.
    static func export<Source: TraceEventSource>(
        _ source: inout Source, output: String, options: AnalysisOptions
    ) throws(ExportError) -> ExportSummary {
        let file = try ExportOutputFile(path: output)
        let analysis: TraceAnalysis
        do {
            analysis = try LifecycleAnalyzer.analyze(&source, path: output, options: options)
        } catch {
            throw ExportError(error)
        }
        let stacks = source.sampledStacks
        let lines = Self.lines(stacks, names: TraceSymbolNames(stacks: stacks, options: options))
        for line in lines { try file.write(line + "\n") }
        try file.commit()
        return ExportSummary(
            format: .folded, eventCount: analysis.eventCount, recordCount: lines.count,
            violationCount: analysis.violations.count + analysis.omittedCount,
            lifetimeCount: analysis.lifetimeCount, byteCount: file.byteCount)
    }
}
