import LifetraceAnalysis
import LifetraceFormat
import LifetraceRules

/// A trace written as JSONL lines, checked against rules written as YAML.
enum RuleTrace {
    /// The violations of the rules in `yaml` (built-in rules off) on the trace `lines`, as
    /// `id@ms` (milliseconds on the trace's clock).
    static func check(_ yaml: String, _ lines: [String], stallThreshold: Int64 = 250_000_000) throws -> [String] {
        try analyze(yaml, lines, stallThreshold: stallThreshold).violations.map { "\($0.rule.id)@\($0.timestamp / 1_000_000)" }
    }

    /// The analysis with the rules of `yaml` only.
    static func analyze(_ yaml: String, _ lines: [String], stallThreshold: Int64 = 250_000_000) throws -> TraceAnalysis {
        let rules = try RuleFileParser.parse(yaml: yaml, file: "team.yml")
        var options = AnalysisOptions(stallThreshold: stallThreshold, rules: RuleSet())
        options.userRules = UserRules(rules)
        var reader = try JSONLTraceReader(bytes: Array(lines.joined(separator: "\n").utf8), name: "test.jsonl")
        return try LifecycleAnalyzer.analyze(&reader, path: "test.jsonl", options: options)
    }

    /// One rule of `pattern` (a YAML mapping's lines, indented by four) in `scope`.
    static func rule(_ pattern: String, scope: String = "lifetime") -> String {
        "rules:\n  - id: r\n    scope: \(scope)\n    \(pattern)\n"
    }

    /// A foreground launch with state events: launch at 0, Active at 100 ms, the first frame at 150 ms.
    static let launch = [
        #"{"ts":0,"type":"launch","reason":"user"}"#,
        #"{"ts":1000000,"type":"callback","name":"willFinishLaunching","dur":5000000}"#,
        #"{"ts":10000000,"type":"callback","name":"didFinishLaunching","dur":80000000}"#,
        #"{"ts":100000000,"type":"state","to":"active"}"#,
        #"{"ts":100000000,"type":"callback","name":"didBecomeActive","dur":2000000}"#,
        #"{"ts":150000000,"type":"frame","first":true}"#,
    ]

    /// Active to Background at `ms`, then Suspended at `ms` + 500.
    static func toBackground(_ ms: Int64, suspend: Bool = true) -> [String] {
        var lines = [
            #"{"ts":\#(ms * 1_000_000),"type":"state","to":"inactive"}"#,
            #"{"ts":\#(ms * 1_000_000),"type":"callback","name":"willResignActive","dur":1000000}"#,
            #"{"ts":\#((ms + 5) * 1_000_000),"type":"state","to":"background"}"#,
            #"{"ts":\#((ms + 5) * 1_000_000),"type":"callback","name":"didEnterBackground","dur":3000000}"#,
        ]
        if suspend { lines.append(#"{"ts":\#((ms + 500) * 1_000_000),"type":"state","to":"suspended"}"#) }
        return lines
    }

    /// A line at `ms`: `event("mark", 300, #""name":"x""#)`.
    static func event(_ type: String, _ ms: Int64, _ fields: String = "") -> String {
        #"{"ts":\#(ms * 1_000_000),"type":"\#(type)"\#(fields.isEmpty ? "" : "," + fields)}"#
    }

    static func mark(_ ms: Int64, _ name: String) -> String { event("mark", ms, #""name":"\#(name)""#) }
    static func exit(_ ms: Int64) -> String { event("exit", ms, #""code":0"#) }
}
