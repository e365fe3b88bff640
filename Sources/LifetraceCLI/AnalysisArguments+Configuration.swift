import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports

extension AnalysisArguments {
    /// The configuration file `configuration` with what it changed of what these arguments give
    /// alone: the rules it turned off or on, the rule files it added, every limit it moved, the
    /// allowances it set aside or restored (`textbook`), `symbolicate`; nil when no file was read.
    /// Every format of `check` names it (docs/CLI.md, "Configuration file").
    func applied(_ configuration: ProjectConfiguration?) throws -> CheckConfiguration? {
        guard let configuration else { return nil }
        let with = try resolvedOptions(configuration: configuration)
        let without = try resolvedOptions(configuration: nil)
        var changes: [String] = []
        let added = Set(with.userRules?.rules ?? []).subtracting(without.userRules?.rules ?? [])
        if !added.isEmpty, let files = configuration.ruleFiles {
            changes.append("rule files added: " + files.joined(separator: ", ") + " (\(added.count) rule\(added.count == 1 ? "" : "s"))")
        }
        let before = Self.checked(without)
        let after = Self.checked(with)
        let off = before.filter { !after.contains($0) }
        let on = after.filter { !before.contains($0) && !added.contains($0) }
        if !off.isEmpty { changes.append("rules turned off: " + off.map(\.id).joined(separator: ", ")) }
        if !on.isEmpty { changes.append("rules turned on: " + on.map(\.id).joined(separator: ", ")) }
        let limits: [(String, KeyPath<AnalysisOptions, Int64>)] = [
            (RuleOption.stallThreshold.name, \.stallThreshold), ("launch-stall threshold", \.launchStallThreshold),
            (RuleOption.hangThreshold.name, \.hangThreshold), (RuleOption.launchWatchdog.name, \.launchWatchdog),
            (RuleOption.backgroundLimit.name, \.backgroundLimit),
            (RuleOption.backgroundCallbackLimit.name, \.backgroundCallbackLimit),
        ]
        for (name, limit) in limits where with[keyPath: limit] != without[keyPath: limit] {
            changes.append("\(name) \(DurationFormat.fixed.exact(with[keyPath: limit])) instead of \(DurationFormat.fixed.exact(without[keyPath: limit]))")
        }
        if with.textbook != without.textbook {
            changes.append(with.textbook
                ? "textbook: the allowances for the sequences real iOS produces are not applied"
                : "no textbook: the allowances for the sequences real iOS produces are applied")
        }
        if with.symbolicates != without.symbolicates {
            changes.append(with.symbolicates ? "symbolicate: stack samples named from the images' files" : "no symbolicate")
        }
        return CheckConfiguration(file: configuration.path, changes: changes)
    }

    /// Every rule `options` checks: the built-in ones in table order, then the rule files' enabled.
    private static func checked(_ options: AnalysisOptions) -> [Rule] {
        Rule.allCases.filter { options.rules.contains($0) }
            + (options.userRules.map { user in user.rules.filter { user.enabled.contains($0) } } ?? [])
    }
}
