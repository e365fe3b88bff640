import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports

/// The limits and rule selection shared by `check`, `report` and `replay`.
struct AnalysisArguments: ParsableArguments {
    @Option(name: .long, help: "Main-thread busy time that counts as a stall (e.g. 250ms).")
    var stallThreshold: String = "250ms"

    @Option(name: .long, help: "Longest allowed launch, from launch to the first frame (e.g. 20s).")
    var launchWatchdog: String = "20s"

    @Option(name: .long, help: "Longest allowed time in Background with no background task open (e.g. 30s).")
    var backgroundLimit: String = "30s"

    @Option(name: .long, help: "Main-thread busy time after the launch, in the foreground, that counts as a hang (e.g. 250ms).")
    var hangThreshold: String = "250ms"

    @Option(name: .long, help: "Longest didEnterBackground or sceneDidEnterBackground may run (e.g. 5s).")
    var backgroundCallbackLimit: String = "5s"

    @Option(name: .long, help: ArgumentHelp("Check only this rule (repeatable).", valueName: "rule"))
    var only: [String] = []

    @Option(name: .long, help: ArgumentHelp("Do not report this rule (repeatable).", valueName: "rule"))
    var disable: [String] = []

    /// The options these arguments stand for.
    func options() throws -> AnalysisOptions {
        var options = AnalysisOptions()
        do throws(DurationError) {
            options.stallThreshold = try DurationParser.nanoseconds(stallThreshold)
            options.launchWatchdog = try DurationParser.nanoseconds(launchWatchdog)
            options.backgroundLimit = try DurationParser.nanoseconds(backgroundLimit)
            options.hangThreshold = try DurationParser.nanoseconds(hangThreshold)
            options.backgroundCallbackLimit = try DurationParser.nanoseconds(backgroundCallbackLimit)
        } catch {
            throw ValidationError(error.description)
        }
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
