import LifetraceFormat
import LifetraceAnalysis
import LifetraceOutput

extension RunComparison.Row {
    /// The Hodges–Lehmann shift with its interval: `+35 ms [+20 ms, +51 ms]`; `-` untested; the
    /// interval `[unbounded]` when the samples are too small for its confidence.
    var shiftText: String {
        guard let shift else { return "-" }
        guard let lower = shift.lower, let upper = shift.upper else { return signed(shift.estimate) + " [unbounded]" }
        return signed(shift.estimate) + " [\(signed(Double(lower))), \(signed(Double(upper)))]"
    }

    /// `value` with its sign, in the metric's unit.
    private func signed(_ value: Double) -> String {
        value == 0 ? metric.format(0) : (value > 0 ? "+" : "-") + metric.format(abs(value))
    }
}

extension RunComparison {
    /// The table's header.
    var header: [String] {
        [
            "metric", "n base/cand", "baseline median", "candidate median", "change",
            "shift [\(DecimalText.compact((1 - gate.alpha) * 100))% CI]", "p", "p (Holm)", "Cliff's delta", "verdict",
        ]
    }

    /// The cells of `row`.
    func cells(_ row: Row) -> [String] {
        [
            row.metric.key, "\(row.baseline.count)/\(row.candidate.count)",
            row.baselineMedian.map(row.metric.format) ?? "-", row.candidateMedian.map(row.metric.format) ?? "-",
            row.medianChange.map(signedPercent) ?? "-", row.shiftText, pValue(row.test?.p), pValue(row.adjustedP),
            row.test.map { signedFixed($0.cliffsDelta) } ?? "-", row.verdict,
        ]
    }

    /// The violations table's header.
    static let violationHeader = ["rule", "severity", "baseline", "candidate", "per run base/cand", "p", "p (Holm)", "verdict"]

    /// The cells of a violations row.
    func cells(_ row: ViolationRow) -> [String] {
        [
            row.rule.id, row.rule.severity.rawValue, "\(row.baselineCount)", "\(row.candidateCount)",
            "\(DecimalText.compact(row.baselinePerRun))/\(DecimalText.compact(row.candidatePerRun))",
            pValue(row.test?.p), pValue(row.adjustedP), row.verdict,
        ]
    }

    /// The first line.
    var headline: String {
        "Comparing \(plural(candidate.count, "candidate run")) with \(plural(baseline.count, "baseline run")) "
            + "(Mann-Whitney U, two-sided, with the Hodges-Lehmann shift; warnings per run by the conditional Poisson test, "
            + "one-sided; \(plural(testCount, "test")), Holm-adjusted; alpha \(DecimalText.compact(gate.alpha)))" + statisticsNote
    }

    /// Past ``CappedCounts/lifetimeLimit`` lifetimes in a trace, where its samples come from.
    private var statisticsNote: String {
        let capped = (baseline + candidate).count { $0.omittedLifetimes > 0 }
        guard capped > 0 else { return "" }
        return "; the samples of \(plural(capped, "trace")) come from the first \(CappedCounts.lifetimeLimit) lifetimes of each"
    }

    /// The last line: the gate's verdict, naming what failed by kind (`Failed: 2 regressions over
    /// +10%, 1 budget exceeded.`), or what held; budgets only when some were given.
    var outcome: String {
        let failed = checks.filter(\.failed)
        let limit = gate.maxRegression.map { "+" + DecimalText.compact($0) + "%" } ?? ""
        if !failed.isEmpty {
            let parts = Check.Kind.allCases.compactMap { kind -> String? in
                let count = failed.count { $0.kind == kind }
                guard count > 0 else { return nil }
                switch kind {
                case .budget: return plural(count, "budget") + " exceeded"
                case .regression: return plural(count, "regression") + " over " + limit
                case .violations: return "more violations than the baseline"
                }
            }
            return "Failed: " + parts.joined(separator: ", ") + "."
        }
        var held: [String] = []
        if !gate.budgets.isEmpty { held.append("within budget") }
        if gate.maxRegression != nil { held.append("no regression over " + limit) }
        if gate.failsOnMoreViolations {
            // Warnings that rose without a significant test result are named, so the verdict does
            // not read as "no more" next to a row that says "more, not significant".
            let rose = violationRows.filter { $0.rule.severity != .error && !$0.failed && $0.candidatePerRun > $0.baselinePerRun }
            held.append("no more errors per run than the baseline")
            if !rose.isEmpty {
                held.append("more " + rose.map(\.rule.id).joined(separator: ", ") + " warnings per run, not significant")
            }
        }
        guard let first = held.first else { return "Nothing gated: compared only." }
        return first.prefix(1).uppercased() + first.dropFirst() + (held.count > 1 ? ", " : "")
            + held.dropFirst().joined(separator: ", ") + "."
    }

    /// The text form.
    public var text: String {
        var lines = [headline, ""]
        lines += TextTable.render([header] + rows.map(cells), indent: 0)
        if !violationRows.isEmpty {
            lines += ["", "Violations:"]
            lines += TextTable.render([Self.violationHeader] + violationRows.map(cells), indent: 2)
        }
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
        lines += markdownTable(header, rows.map { row in
            var cells = cells(row)
            cells[0] = "`\(cells[0])`"
            if row.isRegression { cells[cells.count - 1] = "**\(cells[cells.count - 1])**" }
            return cells
        })
        if !violationRows.isEmpty {
            lines += ["", "### Violations", ""]
            lines += markdownTable(Self.violationHeader, violationRows.map { row in
                var cells = cells(row)
                cells[0] = "`\(cells[0])`"
                if row.failed { cells[cells.count - 1] = "**\(cells[cells.count - 1])**" }
                return cells
            })
        }
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
        func number(_ row: Row, _ value: Double) -> JSONValue {
            row.metric.unit == .duration ? .int(TraceTime.nanoseconds(value)) : .number(value)
        }
        // The same percentiles as the summary's (docs/REPORTS.md, "Percentiles").
        func stats(_ row: Row, _ distribution: SampleDistribution) -> JSONValue {
            .object([
                JSONMember("n", .int(Int64(distribution.count))),
                JSONMember("median", row.metric.unit.percentile(distribution, 50) ?? .null),
                JSONMember("p90", row.metric.unit.percentile(distribution, 90) ?? .null),
                JSONMember("min", row.metric.unit.percentile(distribution, 0) ?? .null),
                JSONMember("max", row.metric.unit.percentile(distribution, 100) ?? .null),
            ])
        }
        let document = JSONValue.object([
            JSONMember("schema", .int(Self.schemaVersion)),
            JSONMember("baselineRuns", .int(Int64(baseline.count))),
            JSONMember("candidateRuns", .int(Int64(candidate.count))),
            JSONMember("alpha", .number(gate.alpha)),
            JSONMember("tests", .int(Int64(testCount))),
            JSONMember("correction", .string("holm")),
            JSONMember("metrics", .array(rows.map { row in
                .object([
                    JSONMember("metric", .string(row.metric.key)),
                    JSONMember("unit", .string(row.metric.unit == .duration ? "ns" : "count")),
                    JSONMember("baseline", stats(row, row.baseline)),
                    JSONMember("candidate", stats(row, row.candidate)),
                    JSONMember("medianChangePercent", row.medianChange.map(JSONValue.number) ?? .null),
                    JSONMember("u", row.test.map { .number($0.u) } ?? .null),
                    JSONMember("p", row.test.map { .number($0.p) } ?? .null),
                    JSONMember("pAdjusted", row.adjustedP.map(JSONValue.number) ?? .null),
                    JSONMember("shift", row.shift.map { shift in
                        .object([
                            JSONMember("estimate", number(row, shift.estimate)),
                            JSONMember("low", shift.lower.map { number(row, Double($0)) } ?? .null),
                            JSONMember("high", shift.upper.map { number(row, Double($0)) } ?? .null),
                            JSONMember("confidence", .number(shift.confidence)),
                        ])
                    } ?? .null),
                    JSONMember("method", row.test.map { .string($0.method.rawValue) } ?? .null),
                    JSONMember("cliffsDelta", row.test.map { .number($0.cliffsDelta) } ?? .null),
                    JSONMember("regression", .bool(row.isRegression)),
                    JSONMember("improvement", .bool(row.isImprovement)),
                    JSONMember("verdict", .string(row.verdict)),
                ])
            })),
            JSONMember("violations", .array(violationRows.map { row in
                .object([
                    JSONMember("rule", .string(row.rule.id)), JSONMember("severity", .string(row.rule.severity.rawValue)),
                    JSONMember("baseline", .int(Int64(row.baselineCount))), JSONMember("candidate", .int(Int64(row.candidateCount))),
                    JSONMember("baselinePerRun", .number(row.baselinePerRun)),
                    JSONMember("candidatePerRun", .number(row.candidatePerRun)),
                    JSONMember("test", row.test == nil ? .null : .string("conditional-poisson")),
                    JSONMember("dispersion", row.test.map { .number($0.dispersion) } ?? .null),
                    JSONMember("p", row.test.map { .number($0.p) } ?? .null),
                    JSONMember("pAdjusted", row.adjustedP.map(JSONValue.number) ?? .null),
                    JSONMember("failed", .bool(row.failed)),
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
