import LifecycleModel
import LifetraceFormat
import LifetraceOutput

/// What a built-in rule is, declared once (``BuiltInRule/spec``): how bad a violation is, the
/// documented fact it rests on, one line saying when it is violated, and the options that tune
/// it. The command line's help, `--list-rules`, the defaults of ``AnalysisOptions`` and the
/// rule table of docs/LIFECYCLE.md derive from it.
public struct RuleSpec: Sendable, Hashable {
    /// How bad a violation is.
    public var severity: Severity
    /// The documented fact the rule rests on.
    public var fact: LifecycleFact
    /// One line saying when the rule is violated.
    public var summary: String
    /// The options that tune the rule, with their defaults (none for the ordering rules).
    public var options: [RuleOption]

    /// Creates a specification.
    public init(_ severity: Severity, _ fact: LifecycleFact, _ summary: String, options: [RuleOption] = []) {
        self.severity = severity
        self.fact = fact
        self.summary = summary
        self.options = options
    }
}

/// A limit that tunes a rule: its command-line option and its default, written once.
public struct RuleOption: Sendable, Hashable {
    /// The option as written on the command line, without the dashes (`hang-threshold`).
    public var name: String
    /// The default as the help shows it (`250ms`), in the grammar of ``DurationParser``.
    public var defaultText: String
    /// The default in nanoseconds.
    public var defaultValue: Int64

    /// An option whose default is the duration `defaultText`; it must be valid.
    init(_ name: String, default defaultText: String) {
        self.name = name
        self.defaultText = defaultText
        // The defaults are literals of this file; a bad one is a programming error caught by the tests.
        defaultValue = (try? DurationParser.nanoseconds(defaultText)) ?? 0
    }

    /// `--stall-threshold`: main-thread busy time that counts as a stall (every stall listed).
    public static let stallThreshold = RuleOption("stall-threshold", default: "250ms")
    /// `launch-stall`'s threshold: Apple's launch budget, or `--stall-threshold` when given.
    public static let launchStallThreshold = RuleOption("stall-threshold", default: "400ms")
    /// `launch-watchdog`'s limit.
    public static let launchWatchdog = RuleOption("launch-watchdog", default: "20s")
    /// `background-time`'s limit for Background with no task open.
    public static let backgroundLimit = RuleOption("background-limit", default: "30s")
    /// `hang`'s threshold.
    public static let hangThreshold = RuleOption("hang-threshold", default: "250ms")
    /// `background-callback`'s limit.
    public static let backgroundCallbackLimit = RuleOption("background-callback-limit", default: "5s")
}
