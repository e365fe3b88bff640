/// GitHub Actions workflow commands: one `::error` or `::warning` annotation per violation,
/// attached to the trace file, titled with the rule id.
public struct GitHubAnnotations: Sendable {
    /// The analyses.
    public var analyses: [TraceAnalysis]

    /// Creates the annotations.
    public init(analyses: [TraceAnalysis]) { self.analyses = analyses }

    /// One line per violation.
    public var text: String {
        var output = ""
        for analysis in analyses {
            for violation in analysis.violations {
                let command = violation.severity == .error ? "error" : "warning"
                let witnesses = violation.events.map { "\n  \($0)" }.joined()
                output += "::\(command) file=\(property(analysis.path)),title=\(property(violation.rule.id))::"
                    + data("\(violation.when): \(violation.message)\(witnesses)") + "\n"
            }
        }
        return output
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
