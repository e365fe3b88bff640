import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

extension RunSummary {
    /// The most traces named per rule in text and Markdown.
    public static let tracesNamedPerRule = 5

    /// The text form.
    public var text: String {
        var lines = ["Summary of \(headline)"]
        let header = ["", "n"] + Self.columns.map(\.title)
        lines += ["", "Launch duration by kind:"] + TextTable.render([header] + launchRows.map(cells), indent: 2)
        for kind in kinds where unfinishedLaunches(kind) > 0 {
            lines.append("  (\(unfinishedLaunches(kind)) \(kind.rawValue) launches never finished and are not counted)")
        }
        lines += ["", "Main thread busy in the launch window by kind:"] + TextTable.render([header] + busyRows.map(cells), indent: 2)
        lines += ["", "Stalls:"] + TextTable.render([header] + stallRows.map(cells), indent: 2)
        lines += ["  (\(Self.percentileNote))"]
        let worst = worstLines
        if !worst.isEmpty { lines += ["", "Worst:"] + worst.map { "  " + $0 } }
        lines += ["", "By app version, OS and device (hang rate: seconds of hang per hour on screen):"]
            + TextTable.render([Self.groupHeader] + groups.map(Self.cells), indent: 2)
        lines += ["", "Violations by rule:"]
        if ruleRows.isEmpty {
            lines.append("  none")
        } else {
            lines += TextTable.render(
                [["rule", "severity", "count", "traces"]]
                    + ruleRows.map { [$0.rule.id, $0.rule.severity.rawValue, String($0.count), tracesText($0.traces)] },
                indent: 2)
        }
        lines += ["", "Endings:"]
        lines += endings.map { "  \($0.count)  \(Self.phrase($0.kind))" }
        if endings.isEmpty { lines.append("  none") }
        if !unreadable.isEmpty {
            lines += ["", "Traces that could not be read:"] + unreadable.map { "  \($0.error)" }
        }
        return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
    }

    /// The Markdown form, for a pull-request comment.
    public var markdown: String {
        var lines = ["## Lifetrace summary", "", headline.prefix(1).uppercased() + headline.dropFirst() + "."]
        let header = ["", "n"] + Self.columns.map(\.title)
        lines += ["", "### Launch duration by kind", ""] + markdownTable(header, launchRows.map(cells))
        lines += ["", "### Main thread busy in the launch window", ""] + markdownTable(header, busyRows.map(cells))
        lines += ["", "### Stalls", ""] + markdownTable(header, stallRows.map(cells))
        lines += ["", "(\(Self.percentileNote).)"]
        let worst = worstLines
        if !worst.isEmpty { lines += ["", "### Worst", ""] + worst.map { "- " + $0 } }
        lines += ["", "### By app version, OS and device", "", "Hang rate: seconds of hang per hour on screen.", ""]
            + markdownTable(Self.groupHeader, groups.map(Self.cells))
        lines += ["", "### Violations by rule", ""]
        if ruleRows.isEmpty {
            lines.append("None.")
        } else {
            lines += markdownTable(
                ["rule", "severity", "count", "traces"],
                ruleRows.map { ["`\($0.rule.id)`", $0.rule.severity.rawValue, String($0.count), tracesText($0.traces, code: true)] })
        }
        lines += ["", "### Endings", ""]
        lines += endings.map { "- \($0.count) \(Self.phrase($0.kind))" }
        if endings.isEmpty { lines.append("None.") }
        if !unreadable.isEmpty {
            lines += ["", "### Traces that could not be read", ""] + unreadable.map { "- `\($0.path)`: \($0.error)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func tracesText(_ traces: [String], code: Bool = false) -> String {
        let named = traces.prefix(Self.tracesNamedPerRule).map { code ? MarkdownText.code($0, inTable: false) : $0 }
        let more = traces.count > Self.tracesNamedPerRule ? " and \(traces.count - Self.tracesNamedPerRule) more" : ""
        return named.joined(separator: ", ") + more
    }
}

/// A Markdown table; `|` in cells is escaped.
func markdownTable(_ header: [String], _ rows: [[String]]) -> [String] {
    func line(_ cells: [String]) -> String {
        "| " + cells.map { $0.replacingEvery("|", with: "\\|") }.joined(separator: " | ") + " |"
    }
    return [line(header), "|" + header.map { _ in " --- |" }.joined()] + rows.map(line)
}

/// Plain-text tables with columns padded to their widest cell; numbers right-aligned.
enum TextTable {
    static func render(_ rows: [[String]], indent: Int) -> [String] {
        guard let first = rows.first else { return [] }
        var widths = Array(repeating: 0, count: first.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            let cells = row.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                let numeric = index > 0 && (cell.first.map { $0.isNumber || $0 == "-" || $0 == "+" || $0 == "<" } ?? false)
                return index == row.count - 1 && !numeric ? cell : (numeric ? padding + cell : cell + padding)
            }
            return String(repeating: " ", count: indent) + cells.joined(separator: "  ")
        }
    }
}
