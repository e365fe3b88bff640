import LifetraceFormat

/// GitHub Actions workflow commands: one `::error` or `::warning` annotation per violation,
/// attached to the trace file, titled with the rule id; for a text (JSONL) trace with the line of
/// the offending event (`line=`). A trace that could not be read is an `::error` at the place the
/// reading stopped.
public struct GitHubAnnotations: Sendable {
    /// The analyses.
    public var analyses: [TraceAnalysis]
    /// The traces that could not be read.
    public var unreadable: [TraceError]

    /// Creates the annotations.
    public init(analyses: [TraceAnalysis], unreadable: [TraceError] = []) {
        self.analyses = analyses
        self.unreadable = unreadable
    }

    /// One line per violation, then one per unreadable trace.
    public var text: String {
        var output = ""
        for analysis in analyses {
            let lines = eventLines(analysis)
            for violation in analysis.violations {
                let command = violation.severity == .error ? "error" : "warning"
                let witnesses = violation.events.map { "\n  \($0)" }.joined()
                let line = violation.events.last.flatMap { lines?[Self.key($0)] }.map { ",line=\($0)" } ?? ""
                output += "::\(command) file=\(property(analysis.path))\(line),title=\(property(violation.rule.id))::"
                    + data("\(violation.when): \(violation.message)\(witnesses)") + "\n"
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

    /// Escapes a command's message (`%`, CR, LF).
    func data(_ text: String) -> String {
        text.replacingAll("%", "%25").replacingAll("\r", "%0D").replacingAll("\n", "%0A")
    }

    /// Escapes a command's property value (also `:` and `,`).
    func property(_ text: String) -> String {
        data(text).replacingAll(":", "%3A").replacingAll(",", "%2C")
    }
}

extension String {
    /// `self` with every `target` replaced by `replacement`.
    func replacingAll(_ target: Character, _ replacement: String) -> String {
        var output = ""
        for character in self {
            if character == target { output += replacement } else { output.append(character) }
        }
        return output
    }
}
