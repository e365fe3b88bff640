import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

/// The limits and rule selection shared by `check`, `report` and `replay`.
struct AnalysisArguments: ParsableArguments {
    @Option(name: .long, help: "Main-thread busy time that counts as a stall (e.g. 250ms). (default: \(Defaults.stallThreshold))", transform: DurationArgument.parse)
    var stallThreshold = Defaults.stallThreshold

    @Option(name: .long, help: "Longest allowed launch, from launch to the first frame (e.g. 20s). (default: \(Defaults.launchWatchdog))", transform: DurationArgument.parse)
    var launchWatchdog = Defaults.launchWatchdog

    @Option(name: .long, help: "Longest allowed time in Background with no background task open (e.g. 30s). (default: \(Defaults.backgroundLimit))", transform: DurationArgument.parse)
    var backgroundLimit = Defaults.backgroundLimit

    @Option(name: .long, help: "Main-thread busy time after the launch, in the foreground, that counts as a hang (e.g. 250ms). (default: \(Defaults.hangThreshold))", transform: DurationArgument.parse)
    var hangThreshold = Defaults.hangThreshold

    @Option(name: .long, help: "Longest didEnterBackground or sceneDidEnterBackground may run (e.g. 5s). (default: \(Defaults.backgroundCallbackLimit))", transform: DurationArgument.parse)
    var backgroundCallbackLimit = Defaults.backgroundCallbackLimit

    @Option(name: .long, help: ArgumentHelp("Check only this rule (repeatable).", valueName: "rule"))
    var only: [String] = []

    @Option(name: .long, help: ArgumentHelp("Do not report this rule (repeatable).", valueName: "rule"))
    var disable: [String] = []

    /// The defaults, shown in the help: an option read by a transform shows no default of its own.
    private enum Defaults {
        static let stallThreshold: DurationArgument = "250ms"
        static let launchWatchdog: DurationArgument = "20s"
        static let backgroundLimit: DurationArgument = "30s"
        static let hangThreshold: DurationArgument = "250ms"
        static let backgroundCallbackLimit: DurationArgument = "5s"
    }

    /// The options these arguments stand for.
    func options() throws -> AnalysisOptions {
        var options = AnalysisOptions()
        options.stallThreshold = stallThreshold.nanoseconds
        options.launchWatchdog = launchWatchdog.nanoseconds
        options.backgroundLimit = backgroundLimit.nanoseconds
        options.hangThreshold = hangThreshold.nanoseconds
        options.backgroundCallbackLimit = backgroundCallbackLimit.nanoseconds
        var rules = only.isEmpty ? RuleSet.all : RuleSet()
        for id in only { rules.insert(RuleSet(try rule(id))) }
        for id in disable { rules.remove(RuleSet(try rule(id))) }
        options.rules = rules
        return options
    }

    private func rule(_ id: String) throws -> Rule {
        guard let rule = Rule(id: id) else {
            throw ValidationError(
                "unknown rule \"\(id)\"; the rules are: " + Rule.allCases.map(\.id).joined(separator: ", "))
        }
        return rule
    }

    func validate() throws { _ = try options() }
}

extension CheckOutput.Format: ExpressibleByArgument {}
extension TraceReport.Format: ExpressibleByArgument {}
