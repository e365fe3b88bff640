import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput
import Yams

/// Reads rule files (docs/RULES.md) into rules, refusing anything it cannot use with one
/// `FILE:LINE:COLUMN: what is wrong` line.
public enum RuleFileParser {
    /// The most rules all files together may hold.
    public static let maximumRules = 1000
    /// The largest `max-count` limit: 2^60, the bound of every other number a rule holds
    /// (durations, docs/RELIABILITY.md), far past the events any trace holds.
    public static let maximumCount = 1 << 60
    /// The largest rule file read (bytes).
    public static let maximumFileSize = 1 << 20

    /// Reads the files at `paths`, in order; ids must be unique over all of them.
    public static func load(paths: [String]) throws(RuleFileError) -> [FileRule] {
        var rules: [FileRule] = []
        for path in paths {
            let text: String
            do {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                guard data.count <= maximumFileSize else {
                    throw RuleFileError(file: path, line: 0, column: 0, "the file is larger than \(maximumFileSize) bytes")
                }
                guard let decoded = String(data: data, encoding: .utf8) else {
                    throw RuleFileError(file: path, line: 0, column: 0, "the file is not UTF-8 text")
                }
                text = decoded
            } catch let error as RuleFileError {
                throw error
            } catch {
                throw RuleFileError(file: path, line: 0, column: 0, "cannot read the file")
            }
            rules += try parse(yaml: text, file: path, after: rules)
        }
        return rules
    }

    /// Reads one file's text; `file` names it in errors and in each rule's `FILE:LINE`, and
    /// `earlier` are the rules of the files before it.
    public static func parse(yaml: String, file: String, after earlier: [FileRule] = []) throws(RuleFileError) -> [FileRule] {
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw yamlError(error, file: file)
        } catch {
            throw RuleFileError(file: file, line: 1, column: 1, "not YAML")
        }
        var reader = Reader(file: file, ids: Set(earlier.map(\.rule.id)), order: RuleDefinition.firstOrder + earlier.count)
        guard let root else { throw RuleFileError(file: file, line: 1, column: 1, "the file is empty; expected a mapping with `rules:`") }
        let top = try reader.mapping(root, what: "the file", keys: ["rules"])
        guard let list = top["rules"] else {
            throw reader.error(root, "the file has no `rules:` list")
        }
        guard case .sequence(let sequence) = list else { throw reader.error(list, "`rules` must be a list") }
        var rules: [FileRule] = []
        for node in sequence {
            rules.append(try reader.rule(node))
            guard earlier.count + rules.count <= maximumRules else {
                throw reader.error(node, "more than \(maximumRules) rules")
            }
        }
        return rules
    }

    private static func yamlError(_ error: YamlError, file: String) -> RuleFileError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return RuleFileError(file: file, line: mark.line, column: mark.column, "not YAML: " + (context.map { "\($0.text), " } ?? "") + problem)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return RuleFileError(
                file: file, line: context.mark.line, column: context.mark.column,
                "duplicate key \(duplicates.joined(separator: ", "))")
        default:
            let text = "\(error)".split(whereSeparator: \.isNewline).first.map(String.init) ?? "not YAML"
            return RuleFileError(file: file, line: 1, column: 1, "not YAML: \(text)")
        }
    }
}

/// Walks one file's nodes, keeping what errors and ids need.
private struct Reader {
    let file: String
    var ids: Set<String>
    var order: Int

    static let ruleKeys = ["id", "severity", "scope", "message", "why"] + patternKeys
    static let patternKeys = ["never", "require", "precedence", "response", "max-duration", "max-count"]

    func error(_ node: Node, _ problem: String) -> RuleFileError {
        RuleFileError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1, problem)
    }

    /// A mapping with string keys among `keys`, in order; duplicate and unknown keys refused.
    func mapping(_ node: Node, what: String, keys: [String]) throws(RuleFileError) -> [String: Node] {
        guard case .mapping(let mapping) = node else { throw error(node, "\(what) must be a mapping") }
        var result: [String: Node] = [:]
        for (key, value) in mapping {
            guard case .scalar(let scalar) = key else { throw error(key, "a key must be a plain word") }
            guard keys.contains(scalar.string) else {
                throw error(key, "unknown key `\(scalar.string)` in \(what); expected " + keys.map { "`\($0)`" }.joined(separator: ", "))
            }
            guard result[scalar.string] == nil else { throw error(key, "`\(scalar.string)` is given twice") }
            if case .alias = value { throw error(value, "aliases are not allowed in rule files") }
            result[scalar.string] = value
        }
        return result
    }

    func string(_ node: Node, what: String) throws(RuleFileError) -> String {
        guard case .scalar(let scalar) = node else { throw error(node, "\(what) must be a string") }
        return scalar.string
    }

    func selector(_ node: Node, what: String) throws(RuleFileError) -> Selector {
        let text = try string(node, what: what)
        switch Selector.parse(text) {
        case .success(let selector): return selector
        case .failure(let failure): throw error(node, "\(what): \(failure.problem)")
        }
    }

    func duration(_ node: Node, what: String) throws(RuleFileError) -> Int64 {
        let text = try string(node, what: what)
        do throws(DurationError) {
            return try DurationParser.nanoseconds(text)
        } catch {
            throw self.error(node, "\(what): \(error.description)")
        }
    }

    func interval(_ node: Node) throws(RuleFileError) -> RuleInterval {
        let text = try string(node, what: "`of`")
        let words = text.split(separator: " ").map(String.init)
        let name = words.count == 2 ? words[1] : nil
        let kinds = "callback NAME, signpost NAME, bgtask NAME, stall, launch or state NAME"
        switch (words.first ?? "", name, words.count) {
        case ("callback", let name?, 2): return .callback(NamePattern(name))
        case ("signpost", let name?, 2): return .signpost(NamePattern(name))
        case ("bgtask", let name?, 2): return .bgtask(NamePattern(name))
        case ("stall", nil, 1): return .stall
        case ("launch", nil, 1): return .launch
        case ("state", let name?, 2):
            if name.contains("*") { throw error(node, "`of`: a glob in a place that takes none: state \(name)") }
            guard let state = LifecycleState(ruleWord: name) else {
                throw error(node, "`of`: unknown state \"\(name)\"; the states are " + LifecycleState.allCases.map(\.ruleWord).joined(separator: ", "))
            }
            return .state(state)
        default:
            throw error(node, "`of`: \"\(text)\" is not an interval; max-duration takes \(kinds)")
        }
    }

    func scope(_ node: Node) throws(RuleFileError) -> RuleScope {
        if case .mapping = node {
            let fields = try mapping(node, what: "`scope`", keys: ["from", "to"])
            guard let from = fields["from"] else { throw error(node, "`scope` needs `from` (and optionally `to`)") }
            return .between(
                from: try selector(from, what: "`from`"), to: try fields["to"].map { node throws(RuleFileError) in try selector(node, what: "`to`") })
        }
        switch try string(node, what: "`scope`") {
        case "lifetime": return .lifetime
        case "launch": return .launch
        case "foreground": return .states([.inactive, .active])
        case "active": return .states([.active])
        case "inactive": return .states([.inactive])
        case "background": return .states([.background])
        case "suspended": return .states([.suspended])
        case let other:
            throw error(
                node, "unknown scope \"\(other)\"; the scopes are lifetime, launch, foreground, active, inactive, "
                    + "background, suspended, or {from: SELECTOR, to: SELECTOR}")
        }
    }

    func pattern(_ key: String, _ node: Node) throws(RuleFileError) -> RulePattern {
        switch key {
        case "never": return .never(try selector(node, what: "`never`"))
        case "require": return .require(try selector(node, what: "`require`"))
        case "precedence":
            let fields = try mapping(node, what: "`precedence`", keys: ["first", "then"])
            guard let first = fields["first"], let then = fields["then"] else { throw error(node, "`precedence` needs `first` and `then`") }
            return .precedence(first: try selector(first, what: "`first`"), then: try selector(then, what: "`then`"))
        case "response":
            let fields = try mapping(node, what: "`response`", keys: ["after", "expect", "within"])
            guard let after = fields["after"], let expect = fields["expect"] else {
                throw error(node, "`response` needs `after` and `expect` (and optionally `within`)")
            }
            return .response(
                after: try selector(after, what: "`after`"), expect: try selector(expect, what: "`expect`"),
                within: try fields["within"].map { node throws(RuleFileError) in try duration(node, what: "`within`") })
        case "max-duration":
            let fields = try mapping(node, what: "`max-duration`", keys: ["of", "limit"])
            guard let of = fields["of"], let limit = fields["limit"] else { throw error(node, "`max-duration` needs `of` and `limit`") }
            return .maxDuration(of: try interval(of), limit: try duration(limit, what: "`limit`"))
        default:
            let fields = try mapping(node, what: "`max-count`", keys: ["of", "limit"])
            guard let of = fields["of"], let limitNode = fields["limit"] else { throw error(node, "`max-count` needs `of` and `limit`") }
            let text = try string(limitNode, what: "`limit`")
            guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), !text.isEmpty else {
                throw error(limitNode, "`limit`: \"\(text)\" is not a whole number from 0 to 2^60")
            }
            guard let limit = Int(text), limit <= RuleFileParser.maximumCount else {
                throw error(limitNode, "`limit`: \(text) is more than 2^60 (\(RuleFileParser.maximumCount)); a count limit is a whole number from 0 to 2^60")
            }
            return .maxCount(of: try selector(of, what: "`of`"), limit: limit)
        }
    }

    mutating func rule(_ node: Node) throws(RuleFileError) -> FileRule {
        let fields = try mapping(node, what: "a rule", keys: Self.ruleKeys)
        guard let idNode = fields["id"] else { throw error(node, "a rule needs an `id`") }
        let id = try string(idNode, what: "`id`")
        guard let first = id.unicodeScalars.first, ("a"..."z").contains(first),
            id.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" })
        else { throw error(idNode, "the id \"\(id)\" is not of the form [a-z][a-z0-9-]*") }
        guard BuiltInRule(rawValue: id) == nil else { throw error(idNode, "the id \"\(id)\" is a built-in rule's") }
        guard !Rule.reservedIDs.contains(id) else {
            throw error(idNode, "the id \"\(id)\" is reserved (the reports use it for a trace not read whole)")
        }
        guard ids.insert(id).inserted else { throw error(idNode, "the id \"\(id)\" is used by another rule") }
        var severity = Severity.error
        if let node = fields["severity"] {
            let text = try string(node, what: "`severity`")
            guard let value = Severity(rawValue: text) else { throw error(node, "`severity` must be error or warning, not \"\(text)\"") }
            severity = value
        }
        let patterns = Self.patternKeys.filter { fields[$0] != nil }
        guard patterns.count == 1, let key = patterns.first else {
            if patterns.isEmpty {
                throw error(node, "the rule \"\(id)\" has no pattern; give one of " + Self.patternKeys.joined(separator: ", "))
            }
            throw error(fields[patterns[1]]!, "the rule \"\(id)\" has two patterns (\(patterns.joined(separator: " and "))); give exactly one")
        }
        let pattern = try pattern(key, fields[key]!)
        let scope = try fields["scope"].map { node throws(RuleFileError) in try self.scope(node) } ?? RuleScope.lifetime
        let message = try fields["message"].map { node throws(RuleFileError) in try string(node, what: "`message`") }
        let why = try fields["why"].map { node throws(RuleFileError) in try string(node, what: "`why`") }
        let definition = RuleDefinition(
            id: id, severity: severity, summary: message ?? Self.summary(pattern, scope: scope), message: message, why: why,
            file: file, line: node.mark?.line ?? 1, order: order)
        order += 1
        return FileRule(rule: Rule(definition), scope: scope, pattern: pattern)
    }

    /// A sentence for a rule without `message`: what breaks it, and where.
    static func summary(_ pattern: RulePattern, scope: RuleScope) -> String {
        let what: String
        switch pattern {
        case .never(let selector): what = "a \(selector)"
        case .require(let selector): what = "no \(selector)"
        case .precedence(let first, let then): what = "a \(then) with no \(first) before it"
        case .response(let after, let expect, let within):
            what = "a \(after) not followed by a \(expect)" + (within.map { " within \(DurationFormat.fixed.string($0))" } ?? "")
        case .maxDuration(let interval, let limit): what = "a \(interval.text) longer than \(DurationFormat.fixed.string(limit))"
        case .maxCount(let selector, let limit): what = "more than \(limit) \(selector)"
        }
        switch scope {
        case .lifetime: return what + " in a lifetime"
        case .launch: return what + " during the launch"
        case .states: return what + " while \(scope.text)"
        case .between(let from, let to): return what + " after \(from)" + (to.map { " and before \($0)" } ?? "")
        }
    }
}
