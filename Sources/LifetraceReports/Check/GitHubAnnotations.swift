import LifetraceAnalysis
import LifetraceFormat

/// GitHub Actions workflow commands: one `::error` or `::warning` annotation per violation,
/// attached to the trace file, titled with the rule id; for a text (JSONL) trace with the line of
/// the offending event (`line=`). A trace that could not be read is an `::error` at the place the
/// reading stopped.
public struct GitHubAnnotations: Sendable {
    /// The analyses.
    public var analyses: [TraceAnalysis]
    /// Whether any reading problem fails a trace (``TraceAnalysis/isIncomplete(strict:)``).
    public var strict: Bool
    /// The traces that could not be read.
    public var unreadable: [TraceError]

    /// Creates the annotations.
    public init(analyses: [TraceAnalysis], strict: Bool = false, unreadable: [TraceError] = []) {
        self.analyses = analyses
        self.strict = strict
        self.unreadable = unreadable
    }

    /// One line per violation, then one per unreadable trace.
    public var text: String {
        var output = ""
        for analysis in analyses {
            if analysis.isIncomplete(strict: strict) {
                let problems = analysis.issues.map(\.description).joined(separator: "\n")
                output += "::error file=\(property(analysis.path)),title=\(property("trace not read whole"))::"
                    + data("not read whole, so not checked whole:\n\(problems)") + "\n"
            }
            let lines = eventLines(analysis)
            for violation in analysis.violations {
                let command = violation.severity == .error ? "error" : "warning"
                let witnesses = violation.events.map { "\n  \($0)" }.joined()
                let line = violation.events.last.flatMap { lines?[Self.key($0)] }.map { ",line=\($0)" } ?? ""
                output += "::\(command) file=\(property(analysis.path))\(line),title=\(property(violation.rule.id))::"
                    + data(violation.statement + witnesses) + "\n"
            }
            if let note = analysis.omittedNote {
                let command = analysis.omittedViolations.keys.contains { $0.severity == .error } ? "error" : "warning"
                output += "::\(command) file=\(property(analysis.path)),title=\(property("violations not listed"))::"
                    + data(note) + "\n"
            }
            for note in analysis.capNotes {
                output += "::notice file=\(property(analysis.path)),title=\(property("analysis caps"))::" + data(note) + "\n"
            }
        }
        for error in unreadable {
            var place = ""
            if case .line(let line, let column) = error.location { place = ",line=\(line),col=\(column)" }
            output += "::error file=\(property(error.file))\(place),title=unreadable trace::" + data(error.description) + "\n"
        }
        return output
    }

    /// The lines of the offending events, for a text trace.
    private func eventLines(_ analysis: TraceAnalysis) -> [JSONLEventLines.Key: Int]? {
        let keys = Set(analysis.violations.compactMap { $0.events.last.map(Self.key) })
        return JSONLEventLines.lines(in: analysis.path, of: keys)
    }

    private static func key(_ event: EventSummary) -> JSONLEventLines.Key {
        JSONLEventLines.Key(timestamp: event.timestamp, type: event.type, thread: event.thread, name: event.name)
    }

    /// Escapes a command's message (`%`, CR, LF), as GitHub's runner unescapes it.
    func data(_ text: String) -> String { Self.escape(text, property: false) }

    /// Escapes a command's property value (also `:` and `,`).
    func property(_ text: String) -> String { Self.escape(text, property: true) }

    /// The workflow-command escaper. It walks Unicode scalars, not Characters: Swift reads `\r\n`
    /// as one Character, which a Character comparison with `\r` or `\n` would let through raw,
    /// and a raw line break lets a trace's names start commands of their own.
    static func escape(_ text: String, property: Bool) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            case ":" where property: output += "%3A"
            case ",": output += property ? "%2C" : ","
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
