import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import Yams

/// A project's configuration file, `.lifetrace.yml`: the thresholds, rule files, rule selection
/// and budgets a team checks its traces with, so that every command and every CI job uses the
/// same (docs/CLI.md, "Configuration file"). Each key is named as the command-line option it
/// stands for; an option given on the command line wins over the file. Paths in it are relative
/// to the file's directory.
struct ProjectConfiguration: Sendable {
    /// The file's name, looked for from the working directory upward.
    static let fileName = ".lifetrace.yml"
    /// The largest configuration file read (bytes).
    static let maximumFileSize = 1 << 20

    /// A value and where it is written (line and column, from 1).
    struct Located: Sendable, Hashable {
        var value: String
        var line: Int
        var column: Int
    }

    /// The keys, each the long name of the option it stands for, and what it holds.
    enum Key: CaseIterable, Sendable {
        case stallThreshold
        case hangThreshold
        case launchWatchdog
        case backgroundLimit
        case backgroundCallbackLimit
        case textbook
        case symbolicate
        case symbols
        case inApp
        case notInApp
        case rules
        case only
        case disable
        case strict
        case maxRegression
        case alpha
        case budget
        case budgets
        case allowMoreViolations
        case history

        /// The key as written in the file: the option's long name, the rules' limits' from their
        /// specs (``RuleOption``).
        var name: String {
            switch self {
            case .stallThreshold: RuleOption.stallThreshold.name
            case .hangThreshold: RuleOption.hangThreshold.name
            case .launchWatchdog: RuleOption.launchWatchdog.name
            case .backgroundLimit: RuleOption.backgroundLimit.name
            case .backgroundCallbackLimit: RuleOption.backgroundCallbackLimit.name
            case .textbook: "textbook"
            case .symbolicate: "symbolicate"
            case .symbols: "symbols"
            case .inApp: "in-app"
            case .notInApp: "not-in-app"
            case .rules: "rules"
            case .only: "only"
            case .disable: "disable"
            case .strict: "strict"
            case .maxRegression: "max-regression"
            case .alpha: "alpha"
            case .budget: "budget"
            case .budgets: "budgets"
            case .allowMoreViolations: "allow-more-violations"
            case .history: "history"
            }
        }

        /// The key written `name`, or nil.
        init?(name: String) {
            guard let key = Key.allCases.first(where: { $0.name == name }) else { return nil }
            self = key
        }
    }

    /// The file as named (found, or given with `--config`).
    let path: String
    /// Durations, in nanoseconds.
    var stallThreshold: Int64?
    var hangThreshold: Int64?
    var launchWatchdog: Int64?
    var backgroundLimit: Int64?
    var backgroundCallbackLimit: Int64?
    var textbook: Bool?
    /// `--symbolicate`: name the stack samples' frames from the images' files.
    var symbolicate: Bool?
    /// `--symbols`: symbol files (dSYM bundles, folders of them, unstripped Mach-O files),
    /// relative to the working directory (the file's own paths resolved).
    var symbols: [String]?
    /// `--in-app` and `--not-in-app`: image patterns (``InAppImages``).
    var inApp: [String]?
    var notInApp: [String]?
    /// Rule files, relative to the working directory (the file's own paths resolved).
    var ruleFiles: [String]?
    /// The same, with where each is written, so that one that cannot be read is named there.
    var ruleFileEntries: [Located] = []
    /// Rule ids, with where each is written, so that an unknown one is named there.
    var only: [Located]?
    var disable: [Located]?
    /// `check`'s `--strict`.
    var strict: Bool?
    /// `diff`'s gate.
    var maxRegression: Double?
    var alpha: Double?
    var budgets: [Budget]?
    var budgetFile: String?
    var allowMoreViolations: Bool?
    /// The history store (`history:`, a path relative to the file).
    var history: String?

    /// The configuration file that applies in `directory`: `.lifetrace.yml` there or in the
    /// nearest directory above it that has one, or nil. Whatever has that name is found, a
    /// directory too: ``load(path:found:)`` refuses what is not a file, rather than reading a
    /// configuration further up that the project did not mean.
    ///
    /// The search stops at the repository's root (the first directory holding `.git`) and at
    /// `home`, each searched itself; and before a directory others can write
    /// (``ConfigurationTrust/othersCanWrite(_:)``): a file there may have been put by anyone, so
    /// neither that directory nor any above it is searched.
    static func find(from directory: String, home: String? = ConfigurationTrust.home) -> String? {
        var current = URL(fileURLWithPath: directory).standardizedFileURL
        let home = home.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        while true {
            var status = stat()
            guard lstat(current.path, &status) == 0, ConfigurationTrust.othersCanWrite(status) == nil else { return nil }
            let candidate = current.appendingPathComponent(fileName).path
            // lstat, not stat: a symbolic link to nothing is found, and refused by `load`.
            if lstat(candidate, &status) == 0 {
                return candidate
            }
            if current.path == home || lstat(current.appendingPathComponent(".git").path, &status) == 0 { return nil }
            let parent = current.deletingLastPathComponent()
            guard parent.path != current.path else { return nil }
            current = parent
        }
    }

    /// Reads the file at `path`; `found` when it was found from the working directory upward
    /// rather than given with `--config`, which its errors say.
    static func load(path: String, found: Bool = false) throws(ConfigurationError) -> ProjectConfiguration {
        var isDirectory: ObjCBool = false
        let remedy = "rename or remove it, or give --config FILE or --no-config"
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ConfigurationError(
                file: path, line: 0, column: 0,
                found ? "is a symbolic link to nothing, where the configuration file is looked for (\(remedy))"
                    : "no such configuration file")
        }
        // A file found (not named with --config) that others could have written is not the
        // project's word: refused, never read.
        var status = stat()
        if found, stat(path, &status) == 0, let writer = ConfigurationTrust.othersCanWrite(status) {
            throw ConfigurationError(
                file: path, line: 0, column: 0,
                "is not used: \(writer) can write it, so it may not be the project's (make it the project's own, "
                    + "writable by its owner only, or give --config FILE or --no-config)")
        }
        guard !isDirectory.boolValue else {
            throw ConfigurationError(
                file: path, line: 0, column: 0,
                found ? "is a directory, not a configuration file; it stands where \(fileName) is looked for, "
                    + "from the working directory upward (\(remedy))"
                    : "is a directory, not a configuration file (give the file, such as \(fileName))")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, line: 0, column: 0, "cannot read the configuration file")
        }
        guard data.count <= maximumFileSize else {
            throw ConfigurationError(file: path, line: 0, column: 0, "the file is larger than \(maximumFileSize) bytes")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, line: 0, column: 0, "the file is not UTF-8 text")
        }
        return try parse(yaml: text, file: path)
    }

    /// Reads a configuration's text; `file` names it in errors, and its directory is where the
    /// paths in it start.
    static func parse(yaml: String, file: String) throws(ConfigurationError) -> ProjectConfiguration {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw ConfigurationError(yaml: error, file: file)
        } catch {
            throw ConfigurationError(file: file, line: 1, column: 1, "not YAML")
        }
        var configuration = ProjectConfiguration(path: file)
        // An empty file (or one of comments only) configures nothing.
        guard let root else { return configuration }
        let reader = ConfigurationReader(file: file)
        guard case .mapping(let mapping) = root else {
            throw reader.error(root, "the file must be a mapping of option names to values, such as `hang-threshold: 250ms`")
        }
        var seen: Set<Key> = []
        for (keyNode, value) in mapping {
            guard case .scalar(let scalar) = keyNode, let key = Key(name: scalar.string) else {
                let name = keyNode.scalar?.string ?? "\(keyNode)"
                throw reader.error(
                    keyNode, "unknown key `\(name)`; the keys are " + Key.allCases.map { "`\($0.name)`" }.joined(separator: ", "))
            }
            guard seen.insert(key).inserted else { throw reader.error(keyNode, "`\(key.name)` is given twice") }
            if case .alias = value { throw reader.error(value, "aliases are not allowed in the configuration file") }
            try configuration.set(key, value, reader: reader)
        }
        return configuration
    }

    private mutating func set(_ key: Key, _ value: Node, reader: ConfigurationReader) throws(ConfigurationError) {
        let name = "`\(key.name)`"
        switch key {
        case .stallThreshold: stallThreshold = try reader.threshold(value, what: name)
        case .hangThreshold: hangThreshold = try reader.threshold(value, what: name)
        case .launchWatchdog: launchWatchdog = try reader.threshold(value, what: name)
        case .backgroundLimit: backgroundLimit = try reader.threshold(value, what: name)
        case .backgroundCallbackLimit: backgroundCallbackLimit = try reader.threshold(value, what: name)
        case .textbook: textbook = try reader.bool(value, what: name)
        case .symbolicate: symbolicate = try reader.bool(value, what: name)
        case .symbols: symbols = try reader.strings(value, what: name).map { reader.resolve($0.value) }
        case .inApp: inApp = try reader.strings(value, what: name).map(\.value)
        case .notInApp: notInApp = try reader.strings(value, what: name).map(\.value)
        case .strict: strict = try reader.bool(value, what: name)
        case .allowMoreViolations: allowMoreViolations = try reader.bool(value, what: name)
        case .rules:
            ruleFileEntries = try reader.strings(value, what: name).map { .init(value: reader.resolve($0.value), line: $0.line, column: $0.column) }
            ruleFiles = ruleFileEntries.map(\.value)
        case .only: only = try reader.strings(value, what: name)
        case .disable: disable = try reader.strings(value, what: name)
        case .budgets: budgetFile = reader.resolve(try reader.string(value, what: name).value)
        case .history: history = reader.resolve(try reader.string(value, what: name).value)
        case .maxRegression:
            let text = try reader.string(value, what: name)
            do throws(BudgetError) {
                maxRegression = try Budget.percentage(text.value, source: name)
            } catch {
                throw reader.error(value, error.description)
            }
        case .alpha:
            let text = try reader.string(value, what: name)
            do throws(SignificanceLevel.Invalid) {
                alpha = try SignificanceLevel.value(text.value)
            } catch {
                throw reader.error(value, "\(name) \"\(text.value)\": \(error.description)")
            }
        case .budget:
            guard case .mapping(let limits) = value else {
                throw reader.error(value, "\(name) must be a mapping of METRIC.STATISTIC to a limit, such as `launch.cold.p50: 400ms`")
            }
            var budgets: [Budget] = []
            for (metric, limit) in limits {
                let key = try reader.string(metric, what: "a budget's metric")
                let text = try reader.string(limit, what: "the limit of `\(key.value)`")
                do throws(BudgetError) {
                    budgets.append(try Budget(key: key.value, value: text.value, source: name))
                } catch {
                    throw reader.error(limit, error.reason)
                }
            }
            self.budgets = budgets
        }
    }
}

/// A configuration file could not be used: `FILE:LINE:COLUMN: what is wrong`.
struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as named.
    var file: String
    /// The line (from 1; 0 when the file could not be read at all).
    var line: Int
    /// The column (from 1).
    var column: Int
    /// What is wrong, in one line.
    var problem: String

    init(file: String, line: Int, column: Int, _ problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// The YAML parser's error, where it found it.
    init(yaml error: YamlError, file: String) {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            self.init(file: file, line: mark.line, column: mark.column, "not YAML: " + (context.map { "\($0.text), " } ?? "") + problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            // YAML names the first key that is given twice where it is first written; the error
            // is where it is written again.
            let key = duplicates.first ?? ""
            let place = Self.repetition(of: key, after: context.mark, in: context.text)
            self.init(file: file, line: place.line, column: place.column, "`\(key)` is given twice")
        default:
            let text = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "not YAML"
            self.init(file: file, line: 1, column: 1, "not YAML: \(text)")
        }
    }

    /// Where `key`, first written at `first`, is written again in the same block mapping: the
    /// next line that has it at the same column, before the mapping ends (a line less indented);
    /// `first` itself when it cannot be told (a flow mapping, `{a: 1, a: 2}`).
    static func repetition(of key: String, after first: Mark, in text: String) -> (line: Int, column: Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = first.column - 1
        guard first.line >= 1, indent >= 0 else { return (first.line, first.column) }
        let spellings = [key, "'\(key)'", "\"\(key)\""]
        for index in first.line..<lines.count {
            let line = Array(lines[index])
            let content = line.drop { $0 == " " }
            if content.isEmpty || content.first == "#" { continue }
            let leading = line.count - content.count
            if leading < indent { break }
            guard leading == indent else { continue }
            let rest = String(content)
            for spelling in spellings where rest.hasPrefix(spelling) {
                if rest.dropFirst(spelling.count).drop(while: { $0 == " " || $0 == "\t" }).first == ":" {
                    return (index + 1, first.column)
                }
            }
        }
        return (first.line, first.column)
    }

    var description: String { line == 0 ? "\(file): \(problem)" : "\(file):\(line):\(column): \(problem)" }
}

/// Reads the values of one configuration file, naming where each problem is.
private struct ConfigurationReader {
    let file: String

    func error(_ node: Node, _ problem: String) -> ConfigurationError {
        ConfigurationError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, problem)
    }

    func string(_ node: Node, what: String) throws(ConfigurationError) -> ProjectConfiguration.Located {
        guard case .scalar(let scalar) = node else { throw error(node, "\(what) must be a single value") }
        return .init(value: scalar.string, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// A list of strings, or one string for a list of one.
    func strings(_ node: Node, what: String) throws(ConfigurationError) -> [ProjectConfiguration.Located] {
        guard case .sequence(let sequence) = node else { return [try string(node, what: what)] }
        var values: [ProjectConfiguration.Located] = []
        for item in sequence { values.append(try string(item, what: "every entry of \(what)")) }
        return values
    }

    func bool(_ node: Node, what: String) throws(ConfigurationError) -> Bool {
        let text = try string(node, what: what).value
        switch text {
        case "true": return true
        case "false": return false
        default: throw error(node, "\(what) must be true or false, not \"\(text)\"")
        }
    }

    /// A threshold or limit, in the range ``Threshold`` decides.
    func threshold(_ node: Node, what: String) throws(ConfigurationError) -> Int64 {
        let text = try string(node, what: what).value
        do throws(Threshold.Invalid) {
            return try Threshold.nanoseconds(text)
        } catch {
            throw self.error(node, "\(what): \(error.description)")
        }
    }

    /// `path` as written in the file, relative to the file's directory unless absolute.
    func resolve(_ path: String) -> String {
        let directory = (file as NSString).deletingLastPathComponent
        guard !path.hasPrefix("/"), !directory.isEmpty else { return path }
        return directory + "/" + path
    }
}
