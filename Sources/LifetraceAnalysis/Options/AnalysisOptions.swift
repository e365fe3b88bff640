import LifecycleModel

/// The limits and rules an analysis runs with.
public struct AnalysisOptions: Sendable, Hashable {
    /// A main-thread busy interval at least this long (ns) is a stall. Default 250 ms.
    public var stallThreshold: Int64
    /// A stall at least this long (ns) inside the launch window is a `launch-stall`. Default 400 ms,
    /// Apple's whole launch budget (``RealIOSTimes/launchBudget``); a stall threshold the user sets
    /// applies here too.
    public var launchStallThreshold: Int64
    /// The longest a launch may take (ns) before `launch-watchdog`. Default 20 s.
    public var launchWatchdog: Int64
    /// The longest the app may run in Background with no task open (ns). Default 30 s.
    public var backgroundLimit: Int64
    /// A stall at least this long (ns) after the launch, in the foreground, is a `hang`. Default 250 ms.
    public var hangThreshold: Int64
    /// The longest didEnterBackground or sceneDidEnterBackground may run (ns). Default 5 s.
    public var backgroundCallbackLimit: Int64
    /// The rules that are reported. A rule that is off still takes part in the exclusivity of the
    /// ordering rules, so turning one off never makes another report the same event.
    public var rules: RuleSet
    /// Whether the result keeps a ``LifetimeReport`` per lifetime. Without, it keeps their count
    /// only, and memory no longer grows with the number of lifetimes (`check` in a format that
    /// prints no lifetime).
    public var keepsLifetimes: Bool
    /// The most violations a trace's analysis keeps in full; later ones are only counted by rule
    /// (``ViolationList``), and every output says how many it left out. Default 1000.
    public var violationLimit: Int
    /// The rules of rule files checked besides the built-in ones, or nil (docs/RULES.md).
    public var userRules: UserRules?
    /// Whether the analysis keeps the textbook model (`--textbook`): no allowance for the sequences
    /// real iOS produces (``Allowance``), every rule as the App Programming Guide draws it.
    public var textbook: Bool

    /// The most lifetime reports the result keeps in full (with ``keepsLifetimes``); later ones
    /// are counted (``CappedCounts/lifetimes``). Default ``CappedCounts/lifetimeLimit``.
    public var lifetimeLimit = CappedCounts.lifetimeLimit
    /// What symbolicates stack samples from the images' files when they are at hand
    /// (docs/REPORTS.md "Stack samples": LifetraceRunner's `Symbolizer`, which the command line
    /// gives unless `--no-symbolicate`); none by default here: frames are then named by the
    /// trace's own symbols, or by image and offset.
    public var symbolication: StackSymbolication?

    /// Which images hold the app's own code, for the stack samples' blame (`--in-app`,
    /// `--not-in-app`; docs/REPORTS.md, "In-app frames").
    public var inAppImages = InAppImages()

    /// Whether stack samples are symbolicated (``symbolication``).
    public var symbolicates: Bool { symbolication != nil }

    /// The defaults of the rules' options (``RuleOption``, declared with the rules' specs): 250 ms
    /// stalls (400 ms in the launch window), a 20 s launch watchdog, 30 s in Background, 250 ms
    /// hangs, 5 s for the enter-background and terminate callbacks; every rule, lifetime reports
    /// kept, the allowances for real iOS on. A `stallThreshold` given here is the launch window's too.
    public init(
        stallThreshold: Int64? = nil,
        launchWatchdog: Int64 = RuleOption.launchWatchdog.defaultValue,
        backgroundLimit: Int64 = RuleOption.backgroundLimit.defaultValue,
        hangThreshold: Int64 = RuleOption.hangThreshold.defaultValue,
        backgroundCallbackLimit: Int64 = RuleOption.backgroundCallbackLimit.defaultValue,
        rules: RuleSet = .all,
        keepsLifetimes: Bool = true,
        violationLimit: Int = ViolationList.defaultLimit,
        textbook: Bool = false
    ) {
        self.stallThreshold = stallThreshold ?? RuleOption.stallThreshold.defaultValue
        launchStallThreshold = stallThreshold ?? RuleOption.launchStallThreshold.defaultValue
        self.textbook = textbook
        self.launchWatchdog = launchWatchdog
        self.backgroundLimit = backgroundLimit
        self.hangThreshold = hangThreshold
        self.backgroundCallbackLimit = backgroundCallbackLimit
        self.rules = rules
        self.keepsLifetimes = keepsLifetimes
        self.violationLimit = violationLimit
    }
}

extension AnalysisOptions {
    /// The shortest busy interval the analyzer keeps as a stall: the shorter of the stall and the
    /// hang thresholds, so that each rule can apply its own.
    var recordedStallThreshold: Int64 { min(stallThreshold, hangThreshold, launchStallThreshold) }
}
