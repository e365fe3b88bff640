/// What `check --history` found in the history: the build it added (or found already added),
/// the builds it compared it with, and each change the build starts (docs/HISTORY.md, "check
/// --history"). Every format of `check` names it, as it names the configuration file: a gate's
/// verdict on the history is never silent.
public struct CheckHistoryVerdict: Sendable, Hashable {
    /// The store, as given.
    public var store: String
    /// The build judged (`build 17, version 1.17 (117), commit c0ffee17`).
    public var build: String
    /// Whether its runs were added now; false when the build already had every one of them (the
    /// same job run again), and nothing was written.
    public var added: Bool
    /// The build it is compared to: the last of the baseline builds (nil when there were none).
    public var comparedTo: String?
    /// The baseline, in words (`the 10 builds of main before it, 80 runs`), or why there is none.
    public var baseline: String
    /// The changes the build starts, one sentence each; empty when it starts none.
    public var changes: [String]

    /// A verdict from its parts.
    public init(store: String, build: String, added: Bool, comparedTo: String?, baseline: String, changes: [String]) {
        self.store = store
        self.build = build
        self.added = added
        self.comparedTo = comparedTo
        self.baseline = baseline
        self.changes = changes
    }

    /// Whether the build starts no change.
    public var passed: Bool { changes.isEmpty }

    /// One sentence for the text, Markdown and GitHub outputs: `history ci/history.sqlite: build
    /// 17 starts a change: launch.cold median ...` or `... starts no change against ...`.
    public var sentence: String {
        let prefix = "history \(store): \(build) " + (added ? "added" : "already there")
        guard !changes.isEmpty else { return prefix + "; starts no change (compared with \(baseline))" }
        return prefix + "; starts \(changes.count == 1 ? "a change" : "\(changes.count) changes"): "
            + changes.joined(separator: "; ")
    }
}
