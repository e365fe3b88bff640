import LifetraceAnalysis
import LifetraceOutput

extension Violation {
    /// The violation in one line, as every text output writes it:
    /// `error[launch-stall] +0.010 s into the trace: The main thread was busy…`. `namingLifetime`
    /// adds `lifetime 2, ` before the time; without `timed` the time is left out, for a line
    /// under the event that revealed the violation.
    public func line(namingLifetime: Bool = false, timed: Bool = true) -> String {
        let head = "\(severity.rawValue)[\(rule.id)]"
        guard timed else { return head + ": " + message }
        return head + " " + (namingLifetime ? placedStatement : statement)
    }

    /// The statement after the lifetime it happened in, counted from 1 as every output for people
    /// counts lifetimes (`lifetime 4, +16.725 s into the trace: …`): for the outputs read apart
    /// from the trace's report (JUnit, GitHub annotations and the job summary, Markdown, SARIF).
    public var placedStatement: String { "lifetime \(lifetime + 1), \(statement)" }

    /// When and what, `+0.010 s into the trace: The main thread was busy…`: the line without the
    /// rule, for the outputs that name the rule on their own (JUnit, GitHub annotations,
    /// Markdown, SARIF). Its moment says what it counts from (``TraceClock``), and the moments in
    /// the message count from the same.
    public var statement: String { "\(when): \(message)" }

    /// What happened and what was expected, without the rule's reason that the message ends
    /// with (` Why: …`): for the outputs that show the reason on a line of its own (the HTML
    /// page's fact line), so that it is said once.
    public var account: String {
        guard let reason = rule.reason else { return message }
        let suffix = (" Why: " + reason).utf8
        guard message.utf8.count >= suffix.count, message.utf8.suffix(suffix.count).elementsEqual(suffix) else {
            return message
        }
        return String(decoding: message.utf8.dropLast(suffix.count), as: UTF8.self)
    }
}
