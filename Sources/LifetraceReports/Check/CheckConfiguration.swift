/// The project configuration file a check ran with, and what it changed: every rule it turned
/// off or on, every limit it moved from its default, the allowances it set aside (`textbook`),
/// the rule files it added, `strict`. Every format of `check` names it (docs/CLI.md,
/// "Configuration file"), so that a gate relaxed by a file is never relaxed in silence.
public struct CheckConfiguration: Sendable, Hashable {
    /// The file, as named in messages (relative to the working directory when it is there).
    public var file: String
    /// What it changed, one phrase each (`rules turned off: hang, launch-watchdog`,
    /// `hang-threshold 1s instead of 250ms`), in a fixed order; empty when it changed nothing the
    /// command line did not give itself.
    public var changes: [String]

    /// The configuration `file` and what it changed.
    public init(file: String, changes: [String]) {
        self.file = file
        self.changes = changes
    }

    /// One sentence: the file and its changes (`configuration .lifetrace.yml: rules turned off:
    /// hang; strict`), for the text, Markdown and GitHub outputs.
    public var sentence: String {
        "configuration \(file): " + (changes.isEmpty ? "changes no rule, limit or allowance" : changes.joined(separator: "; "))
    }
}
