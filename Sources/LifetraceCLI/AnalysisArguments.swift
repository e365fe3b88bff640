import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRules

/// The limits and rule selection shared by `check`, `report` and `replay`.
struct AnalysisArguments: ParsableArguments {
    @Option(name: .long, help: "Main-thread busy time that counts as a stall (e.g. 250ms); also launch-stall's threshold when given. (default: \(Defaults.stallThreshold), \(Defaults.launchStallThreshold) in the launch window)", transform: DurationArgument.parse)
    var stallThreshold: DurationArgument?

    @Option(name: .long, help: "Longest allowed launch, from launch to the first frame (e.g. 20s). (default: \(Defaults.launchWatchdog))", transform: DurationArgument.parse)
    var launchWatchdog = Defaults.launchWatchdog

    @Option(name: .long, help: "Longest allowed time in Background with no background task open (e.g. 30s). (default: \(Defaults.backgroundLimit))", transform: DurationArgument.parse)
    var backgroundLimit = Defaults.backgroundLimit

    @Option(name: .long, help: "Main-thread busy time after the launch, in the foreground, that counts as a hang (e.g. 250ms). (default: \(Defaults.hangThreshold))", transform: DurationArgument.parse)
    var hangThreshold = Defaults.hangThreshold

    @Option(name: .long, help: "Longest didEnterBackground, sceneDidEnterBackground or willTerminate may run (e.g. 5s). (default: \(Defaults.backgroundCallbackLimit))", transform: DurationArgument.parse)
    var backgroundCallbackLimit = Defaults.backgroundCallbackLimit

    @Flag(name: .long, help: "Check the textbook model: no allowance for the sequences real iOS produces (docs/LIFECYCLE.md, Real iOS).")
    var textbook = false

    @Option(
        name: .customLong("rules"),
        help: ArgumentHelp("Also check the rules of this rule file (repeatable; docs/RULES.md).", valueName: "file"))
    var ruleFiles: [String] = []

    @Option(name: .long, help: ArgumentHelp("Check only this rule (repeatable).", valueName: "rule"))
    var only: [String] = []

    @Option(name: .long, help: ArgumentHelp("Do not report this rule (repeatable).", valueName: "rule"))
    var disable: [String] = []

    /// The defaults, shown in the help: an option read by a transform shows no default of its own.
    private enum Defaults {
        static let stallThreshold: DurationArgument = "250ms"
        static let launchStallThreshold: DurationArgument = "400ms"
        static let launchWatchdog: DurationArgument = "20s"
        static let backgroundLimit: DurationArgument = "30s"
        static let hangThreshold: DurationArgument = "250ms"
        static let backgroundCallbackLimit: DurationArgument = "5s"
    }

    /// The options these arguments stand for.
    @Flag(name: .long, help: "Name the functions, files and lines of stack samples from the images' files when they are at hand (llvm-symbolizer or addr2line, swift-demangle).")
    var symbolicate = false

    func options() throws -> AnalysisOptions {
        var options = AnalysisOptions(stallThreshold: stallThreshold?.nanoseconds, textbook: textbook)
        options.symbolicates = symbolicate
        options.launchWatchdog = launchWatchdog.nanoseconds
        options.backgroundLimit = backgroundLimit.nanoseconds
        options.hangThreshold = hangThreshold.nanoseconds
        options.backgroundCallbackLimit = backgroundCallbackLimit.nanoseconds
        // Rule files are read before any trace: a bad one stops the command here.
        let fileRules: [FileRule]
        do throws(RuleFileError) {
            fileRules = try RuleFileParser.load(paths: ruleFiles)
        } catch {
            throw ValidationError(error.description)
        }
        let known = Rule.allCases + fileRules.map(\.rule)
        var selected = Set(only.isEmpty ? known : [])
        for id in only { selected.insert(try rule(id, among: known)) }
        for id in disable { selected.remove(try rule(id, among: known)) }
        options.rules = RuleSet(selected.filter { $0.builtIn != nil })
        if !fileRules.isEmpty { options.userRules = UserRules(fileRules, enabled: selected.filter { $0.builtIn == nil }) }
        return options
    }

    private func rule(_ id: String, among known: [Rule]) throws -> Rule {
        guard let rule = known.first(where: { $0.id == id }) else {
            throw ValidationError("unknown rule \"\(id)\"; the rules are: " + known.map(\.id).joined(separator: ", "))
        }
        return rule
    }

    func validate() throws { _ = try options() }
}

extension CheckOutput.Format: ExpressibleByArgument {}
extension TraceReport.Format: ExpressibleByArgument {}
