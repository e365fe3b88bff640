import ArgumentParser
import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import LifetraceReports
import LifetraceRules
import LifetraceRunner

/// The limits, rule files and rule selection shared by every command that analyses traces
/// (`check`, `report`, `replay`, `export`, `diff`), and the project configuration file they read
/// (``ProjectConfiguration``). The limits' option names are the rules' (``RuleOption``). Each value comes from the command line, else the configuration
/// file, else the defaults of ``AnalysisOptions``, the one place they are written.
struct AnalysisArguments: ParsableArguments {
    @Option(name: .customLong(RuleOption.stallThreshold.name), parsing: .unconditional, help: ArgumentHelp("Main-thread busy time that counts as a stall; also launch-stall's threshold when given. (default: \(Defaults.stallThreshold), \(Defaults.launchStallThreshold) in the launch window)", valueName: "duration"), transform: DurationArgument.parseThreshold)
    var stallThreshold: DurationArgument?

    @Option(name: .customLong(RuleOption.hangThreshold.name), parsing: .unconditional, help: ArgumentHelp("Main-thread busy time after the launch, in the foreground, that counts as a hang. (default: \(Defaults.hangThreshold))", valueName: "duration"), transform: DurationArgument.parseThreshold)
    var hangThreshold: DurationArgument?

    @Option(name: .customLong(RuleOption.launchWatchdog.name), parsing: .unconditional, help: ArgumentHelp("Longest allowed launch, from launch to the first frame. (default: \(Defaults.launchWatchdog))", valueName: "duration"), transform: DurationArgument.parseThreshold)
    var launchWatchdog: DurationArgument?

    @Option(name: .customLong(RuleOption.backgroundLimit.name), parsing: .unconditional, help: ArgumentHelp("Longest allowed time in Background with no background task open. (default: \(Defaults.backgroundLimit))", valueName: "duration"), transform: DurationArgument.parseThreshold)
    var backgroundLimit: DurationArgument?

    @Option(name: .customLong(RuleOption.backgroundCallbackLimit.name), parsing: .unconditional, help: ArgumentHelp("Longest didEnterBackground, sceneDidEnterBackground or willTerminate may run. (default: \(Defaults.backgroundCallbackLimit))", valueName: "duration"), transform: DurationArgument.parseThreshold)
    var backgroundCallbackLimit: DurationArgument?

    @Flag(name: .long, inversion: .prefixedNo, help: "Check the textbook model: no allowance for the sequences real iOS produces (docs/LIFECYCLE.md, Real iOS). (default: off)")
    var textbook: Bool?

    @Option(
        name: .customLong("rules"),
        help: ArgumentHelp("Also check the rules of this rule file (repeatable; docs/RULES.md).", valueName: "file"))
    var ruleFiles: [String] = []

    @Option(name: .long, help: ArgumentHelp("Check only this rule (repeatable).", valueName: "rule"))
    var only: [String] = []

    @Option(name: .long, help: ArgumentHelp("Do not report this rule (repeatable).", valueName: "rule"))
    var disable: [String] = []

    @OptionGroup var configurationFile: ConfigurationArguments

    /// The defaults as the help shows them, read from ``AnalysisOptions`` and written the way
    /// the tool prints durations (which the options read back).
    enum Defaults {
        static let options = AnalysisOptions()
        static var stallThreshold: String { DurationFormat.fixed.exact(options.stallThreshold) }
        static var launchStallThreshold: String { DurationFormat.fixed.exact(options.launchStallThreshold) }
        static var hangThreshold: String { DurationFormat.fixed.exact(options.hangThreshold) }
        static var launchWatchdog: String { DurationFormat.fixed.exact(options.launchWatchdog) }
        static var backgroundLimit: String { DurationFormat.fixed.exact(options.backgroundLimit) }
        static var backgroundCallbackLimit: String { DurationFormat.fixed.exact(options.backgroundCallbackLimit) }
    }

    @Flag(name: .long, inversion: .prefixedNo, help: "Name the functions, files and lines of stack samples from the images' files and the symbol files given, when they are at hand (llvm-symbolizer or addr2line, swift-demangle). (default: on)")
    var symbolicate: Bool?

    @Option(name: .long, help: ArgumentHelp("Symbols of Apple images: a .dSYM bundle, a folder of them, or an unstripped Mach-O file, matched to the trace's images by UUID (repeatable).", valueName: "path"))
    var symbols: [String] = []

    @Option(name: .customLong("in-app"), help: ArgumentHelp("Images that hold the app's own code: a file name or path pattern with * and ? (repeatable; docs/REPORTS.md, In-app frames).", valueName: "pattern"))
    var inApp: [String] = []

    @Option(name: .customLong("not-in-app"), help: ArgumentHelp("Images that do not hold the app's own code, unless --in-app names them (repeatable).", valueName: "pattern"))
    var notInApp: [String] = []

    /// The configuration file that applies, read, or nil.
    func configuration() throws -> ProjectConfiguration? {
        try configurationFile.load()
    }

    /// The options these arguments stand for, over the configuration file's.
    func options() throws -> AnalysisOptions {
        try options(configuration: configuration())
    }

    /// The options these arguments stand for: each from the command line, else `configuration`,
    /// else the default. A hang threshold given below the stall threshold is warned about.
    func options(configuration: ProjectConfiguration?) throws -> AnalysisOptions {
        let options = try resolvedOptions(configuration: configuration)
        if let warning = hangBelowStall(options, configuration: configuration) { printError("warning: " + warning) }
        return options
    }

    /// Why the thresholds do not agree, when a hang threshold was given (on the command line or
    /// in the configuration file) below the stall threshold: a hang is a main-thread stall
    /// (docs/LIFECYCLE.md, `hang`), yet a hang shorter than the stall threshold would be reported
    /// without being among the stalls. Analysed all the same: each rule keeps its own threshold.
    func hangBelowStall(_ options: AnalysisOptions, configuration: ProjectConfiguration?) -> String? {
        guard hangThreshold != nil || configuration?.hangThreshold != nil, options.hangThreshold < options.stallThreshold else {
            return nil
        }
        let hang = DurationFormat.fixed.exact(options.hangThreshold)
        let stall = DurationFormat.fixed.exact(options.stallThreshold)
        return "the hang threshold (\(hang)) is below the stall threshold (\(stall)): a hang is a main-thread stall, "
            + "so hangs from \(hang) are reported that are not among the stalls (from \(stall)); "
            + "give a --\(RuleOption.hangThreshold.name) of at least --\(RuleOption.stallThreshold.name)"
    }

    /// The options, each from the command line, else `configuration`, else the default.
    func resolvedOptions(configuration: ProjectConfiguration?) throws -> AnalysisOptions {
        var options = AnalysisOptions(
            stallThreshold: stallThreshold?.nanoseconds ?? configuration?.stallThreshold,
            textbook: textbook ?? configuration?.textbook ?? false)
        if symbolicate ?? configuration?.symbolicate ?? true {
            let files = symbols.isEmpty ? configuration?.symbols ?? [] : symbols
            options.symbolication = StackSymbolication(Symbolizer(symbolFiles: files))
        }
        options.inAppImages = InAppImages(
            included: inApp.isEmpty ? configuration?.inApp ?? [] : inApp,
            excluded: notInApp.isEmpty ? configuration?.notInApp ?? [] : notInApp)
        if let value = launchWatchdog?.nanoseconds ?? configuration?.launchWatchdog { options.launchWatchdog = value }
        if let value = backgroundLimit?.nanoseconds ?? configuration?.backgroundLimit { options.backgroundLimit = value }
        if let value = hangThreshold?.nanoseconds ?? configuration?.hangThreshold { options.hangThreshold = value }
        if let value = backgroundCallbackLimit?.nanoseconds ?? configuration?.backgroundCallbackLimit {
            options.backgroundCallbackLimit = value
        }
        // Rule files are read before any trace: a bad one stops the command here. Lists given
        // on the command line replace the file's.
        let fileRules = try self.fileRules(configuration: configuration)
        let known = Rule.allCases + fileRules.map(\.rule)
        let only = self.only.isEmpty ? configuration?.only ?? [] : self.only.map(Self.given)
        let disable = self.disable.isEmpty ? configuration?.disable ?? [] : self.disable.map(Self.given)
        var selected = Set(only.isEmpty ? known : [])
        for id in only { selected.insert(try rule(id, among: known, in: configuration)) }
        for id in disable { selected.remove(try rule(id, among: known, in: configuration)) }
        options.rules = RuleSet(selected.filter { $0.builtIn != nil })
        if !fileRules.isEmpty { options.userRules = UserRules(fileRules, enabled: selected.filter { $0.builtIn == nil }) }
        return options
    }

    /// The rules of the rule files given (on the command line, else in `configuration`).
    func fileRules(configuration: ProjectConfiguration?) throws -> [FileRule] {
        do throws(RuleFileError) {
            return try RuleFileParser.load(paths: ruleFiles.isEmpty ? configuration?.ruleFiles ?? [] : ruleFiles)
        } catch {
            // A rule file of the configuration file that cannot be read at all is named where the
            // configuration file names it; a problem inside one, where it is in that file.
            if ruleFiles.isEmpty, error.line == 0, let configuration,
                let entry = configuration.ruleFileEntries.first(where: { $0.value == error.file })
            {
                throw ValidationError(ConfigurationError(
                    file: configuration.path, line: entry.line, column: entry.column, "`rules`: \(error.description)").description)
            }
            throw ValidationError(error.description)
        }
    }

    /// A rule id given on the command line (no place in a file).
    private static func given(_ id: String) -> ProjectConfiguration.Located { .init(value: id, line: 0, column: 0) }

    private func rule(_ id: ProjectConfiguration.Located, among known: [Rule], in configuration: ProjectConfiguration?) throws -> Rule {
        guard let rule = known.first(where: { $0.id == id.value }) else {
            let problem = "unknown rule \"\(id.value)\"; the rules are: " + known.map(\.id).joined(separator: ", ")
            if id.line > 0, let configuration {
                throw ValidationError(ConfigurationError(file: configuration.path, line: id.line, column: id.column, problem).description)
            }
            throw ValidationError(problem)
        }
        return rule
    }

    func validate() throws { _ = try resolvedOptions(configuration: configuration()) }
}

/// `--config PATH` and `--no-config`: which project configuration file applies.
struct ConfigurationArguments: ParsableArguments {
    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "Read this configuration file instead of the \(ProjectConfiguration.fileName) found from the working directory upward (docs/CLI.md).",
            valueName: "file"))
    var path: String?

    @Flag(name: .customLong("no-config"), help: "Read no configuration file.")
    var ignoresConfiguration = false

    func validate() throws {
        if path != nil && ignoresConfiguration { throw ValidationError("give either --config or --no-config, not both") }
    }

    /// The configuration that applies, read, or nil; a file that cannot be used is a usage error
    /// naming its line and column.
    func load() throws -> ProjectConfiguration? {
        guard !ignoresConfiguration else { return nil }
        // A file found upward is named, in errors, relative to the working directory when it is
        // there, as trace paths are.
        let found = { ProjectConfiguration.find(from: FileManager.default.currentDirectoryPath).map { WorkingDirectoryPath.display($0) } }
        guard let path = path ?? found() else { return nil }
        do throws(ConfigurationError) {
            return try ProjectConfiguration.load(path: path, found: self.path == nil)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
