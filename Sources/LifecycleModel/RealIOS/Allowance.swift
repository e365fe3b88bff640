/// A sequence real iOS produces that the textbook model (the App Programming Guide) forbids or
/// misreads, and that the analyzer accepts where its public source says it occurs.
///
/// Every allowance is one row of ``Allowance/table``, the one list a reviewer reads: its id, the
/// sequence, its sources by title and address, where it applies, and what is still a violation.
/// `--textbook` (``AllowanceSet/none``) turns every one of them off.
public enum Allowance: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A prewarmed launch is timed from the resume; the prewarm is reported apart.
    case prewarmResume
    /// A scene-based app's app-delegate transitions come before or after the scenes' own.
    case sceneAppOrder
    /// Quit from the app switcher while Inactive: willTerminate or sceneDidDisconnect from Inactive.
    case switcherQuit
    /// A launch recorded as foreground whose callbacks say it was a background launch.
    case backgroundLaunch
    /// The user left before the first activation: the launch is abandoned, not slow.
    case abandonedLaunch
    /// A long silence of the app in Background, without `state` events, is a suspension.
    case inferredSuspension
    /// Declared continuous background modes make a long stretch in Background legal.
    case backgroundModes
    /// willResignActive, willEnterForeground, didEnterBackground on a quick minimise.
    case quickMinimise
    /// didBecomeActive delivered twice on iOS 11.0 to 12.1.4.
    case doubleActivation
    /// The recorder started after the launch callbacks: the launch sequence is unknown.
    case lateRecording

    /// The allowance's id, as written in reports and docs.
    public var id: String { entry.id }

    /// The allowance's row of the table.
    public var entry: AllowanceEntry { Allowance.table[Int(rawValue)] }

    /// The id.
    public var description: String { id }

    /// The allowances that apply to a trace with these facts: every one whose conditions the facts
    /// meet (an OS-gated one only where the trace's `os` names a version it covers).
    public static func applicable(to facts: PlatformFacts) -> AllowanceSet {
        var set = AllowanceSet.none
        for allowance in allCases where allowance.entry.applies(to: facts) { set.insert(allowance) }
        return set
    }
}

/// One row of the table of allowances.
public struct AllowanceEntry: Sendable, Hashable {
    /// The id (`quick-minimise`).
    public var id: String
    /// The sequence of callbacks or events the allowance accepts, as the developer sees it.
    public var sequence: String
    /// The public sources that show the sequence on real devices, by title in English, each with
    /// its address.
    public var sources: [String]
    /// Where the allowance applies, in words (the OS versions, the kind of app, the metadata).
    public var appliesWhere: String
    /// The iOS versions the source names, or nil when it names none (then the allowance applies
    /// whatever the `os`).
    public var osVersions: ClosedRange<OSVersion>?
    /// The textbook rules that reported the sequence before (and still do under `--textbook`).
    public var textbookRules: [String]
    /// What is still a violation with the allowance on.
    public var stillViolation: String

    /// Whether the allowance applies to a trace with these facts: always without an OS range;
    /// with one, only when the trace's `os` names an iOS version inside it (an unknown OS keeps
    /// the textbook rule).
    public func applies(to facts: PlatformFacts) -> Bool {
        guard let osVersions else { return true }
        guard let version = facts.iOSVersion else { return false }
        return osVersions.contains(version)
    }
}

/// A set of allowances, a bit each: what the analyzer tests on its rare paths.
public struct AllowanceSet: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16

    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// The set with one allowance.
    public init(_ allowance: Allowance) { rawValue = 1 << UInt16(allowance.rawValue) }

    /// No allowance: the textbook model.
    public static let none = AllowanceSet([])

    /// Every allowance.
    public static var all: AllowanceSet { AllowanceSet(Allowance.allCases.map(AllowanceSet.init)) }

    /// Whether `allowance` is in the set.
    @inlinable
    public func contains(_ allowance: Allowance) -> Bool { rawValue & (1 << UInt16(allowance.rawValue)) != 0 }

    /// Adds `allowance`.
    public mutating func insert(_ allowance: Allowance) { formUnion(AllowanceSet(allowance)) }
}
