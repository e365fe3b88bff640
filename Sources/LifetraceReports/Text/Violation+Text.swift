import LifetraceAnalysis

extension Violation {
    /// The violation in one line, as every text output writes it:
    /// `error[launch-stall] +0.010 s: The main thread was busy…`. `namingLifetime` adds
    /// `lifetime 2, ` before the time (times are relative to each lifetime's launch, so a trace
    /// with several lifetimes needs it); without `timed` the time is left out, for a line under
    /// the event that revealed the violation.
    public func line(namingLifetime: Bool = false, timed: Bool = true) -> String {
        let head = "\(severity.rawValue)[\(rule.id)]"
        guard timed else { return head + ": " + message }
        return head + " " + (namingLifetime ? "lifetime \(lifetime + 1), " : "") + statement
    }

    /// When and what, `+0.010 s: The main thread was busy…`: the line without the rule, for the
    /// outputs that name the rule on their own (JUnit, GitHub annotations, Markdown, HTML).
    public var statement: String { "\(when): \(message)" }
}
