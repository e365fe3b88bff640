extension RunComparison {
    /// The formats `lifetrace diff` writes.
    public enum Format: String, Sendable, CaseIterable {
        /// A table for a terminal.
        case text
        /// The document of docs/REPORTS.md, "Comparing builds".
        case json
        /// Markdown, for a pull-request comment.
        case markdown
    }

    /// The comparison in `format`, ending with a newline.
    public func rendered(_ format: Format) -> String {
        switch format {
        case .text: text
        case .json: json
        case .markdown: markdown
        }
    }
}
