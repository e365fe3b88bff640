import LifetraceFormat
import LifetraceAnalysis

extension RunComparison {
    /// The table's header.
    static let header = ["metric", "n base/cand", "baseline median", "candidate median", "change", "p", "Cliff's delta", "verdict"]

    /// The cells of `row`.
    func cells(_ row: Row) -> [String] {
        [
            row.metric.key, "\(row.baseline.count)/\(row.candidate.count)",
            row.baseline.median.map(row.metric.format) ?? "-", row.candidate.median.map(row.metric.format) ?? "-",
            row.medianChange.map(signedPercent) ?? "-", pValue(row.test?.p),
            row.test.map { signedFixed($0.cliffsDelta) } ?? "-", row.verdict,
        ]
    }

    /// The first line.
    var headline: String {
        "Comparing \(plural(candidate.count, "candidate run")) with \(plural(baseline.count, "baseline run")) "
            + "(Mann-Whitney U, two-sided, alpha \(DecimalText.compact(gate.alpha)))" + statisticsNote
    }

    /// Past ``CappedCounts/lifetimeLimit`` lifetimes in a trace, where its samples come from.
    private var statisticsNote: String {
        let capped = (baseline + candidate).count { $0.omittedLifetimes > 0 }
        guard capped > 0 else { return "" }
        return "; the samples of \(plural(capped, "trace")) come from the first \(CappedCounts.lifetimeLimit) lifetimes of each"
    }

    /// The last line: the gate's verdict.
    var outcome: String {
        if gate.isEmpty { return "No budget given." }
        let failures = checks.count { $0.failed }
        return failures == 0 ? "Within budget." : "Over budget: \(plural(failures, "check")) failed."
    }

    /// The text form.
    public var text: String {
        var lines = [headline, ""]
        lines += TextTable.render([Self.header] + rows.map(cells), indent: 0)
        if !checks.isEmpty {
            lines += ["", "Checks:"]
            lines += checks.map { "  \($0.failed ? "FAIL" : "ok  ") \($0.description): \($0.detail)" }
        }
        lines += ["", outcome]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Markdown form, for a pull-request comment.
    public var markdown: String {
        var lines = ["## Lifetrace comparison", "", headline + ".", ""]
        lines += markdownTable(Self.header, rows.map { row in
            var cells = cells(row)
            cells[0] = "`\(cells[0])`"
            if row.isRegression { cells[7] = "**\(cells[7])**" }
            return cells
        })
        if !checks.isEmpty {
            lines += ["", "### Checks", ""]
            lines += checks.map { "- \($0.failed ? "**FAIL**" : "ok") `\($0.description)`: \($0.detail)" }
        }
        lines += ["", outcome]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The version of the JSON form's schema (docs/REPORTS.md); raised whenever a field changes
    /// meaning or is removed, never for an added field.
    public static let schemaVersion: Int64 = 1

    /// The JSON form (see docs/REPORTS.md); durations in nanoseconds.
    public var json: String {
        func stats(_ row: Row, _ distribution: SampleDistribution) -> JSONValue {
            func number(_ value: Double?) -> JSONValue {
                guard let value else { return .null }
                return row.metric.unit == .duration ? .int(TraceTime.nanoseconds(value)) : .number(value)
            }
            return .object([
                JSONMember("n", .int(Int64(distribution.count))), JSONMember("median", number(distribution.median)),
                JSONMember("p90", number(distribution.quantile(0.9))), JSONMember("min", number(distribution.min)),
                JSONMember("max", number(distribution.max)),
            ])
        }
        let document = JSONValue.object([
            JSONMember("schema", .int(Self.schemaVersion)),
            JSONMember("baselineRuns", .int(Int64(baseline.count))),
            JSONMember("candidateRuns", .int(Int64(candidate.count))),
            JSONMember("alpha", .number(gate.alpha)),
            JSONMember("metrics", .array(rows.map { row in
                .object([
                    JSONMember("metric", .string(row.metric.key)),
                    JSONMember("unit", .string(row.metric.unit == .duration ? "ns" : "count")),
                    JSONMember("baseline", stats(row, row.baseline)),
                    JSONMember("candidate", stats(row, row.candidate)),
                    JSONMember("medianChangePercent", row.medianChange.map(JSONValue.number) ?? .null),
                    JSONMember("u", row.test.map { .number($0.u) } ?? .null),
                    JSONMember("p", row.test.map { .number($0.p) } ?? .null),
                    JSONMember("method", row.test.map { .string($0.method.rawValue) } ?? .null),
                    JSONMember("cliffsDelta", row.test.map { .number($0.cliffsDelta) } ?? .null),
                    JSONMember("regression", .bool(row.isRegression)),
                    JSONMember("improvement", .bool(row.isImprovement)),
                ])
            })),
            JSONMember("checks", .array(checks.map {
                .object([
                    JSONMember("check", .string($0.description)), JSONMember("failed", .bool($0.failed)),
                    JSONMember("detail", .string($0.detail)),
                ])
            })),
            JSONMember("failed", .bool(failed)),
        ])
        return document.rendered(indent: 2) + "\n"
    }
}
