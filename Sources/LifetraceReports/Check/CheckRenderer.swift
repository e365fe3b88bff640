/// One output format of `lifetrace check`: made from the whole check (``CheckOutput``: the
/// analyses, the rules that ran, the traces that could not be read, `--strict`), written as one
/// document that ends with a newline. Every case of ``CheckOutput/Format`` has one
/// (``CheckOutput/Format/renderer``), and nothing else goes in: a renderer reads the analyses'
/// results only, never a trace file (an event's line comes with its witness,
/// ``LifetraceAnalysis/EventSummary/line``).
///
/// ```swift
/// let xml = JUnitReport(check).document
/// let same = check.rendered(.junit)
/// ```
public protocol CheckRenderer: Sendable {
    /// The renderer of `check`.
    init(_ check: CheckOutput)
    /// The whole document, ending with a newline.
    var document: String { get }
}

extension CheckOutput.Format {
    /// The renderer that writes this format.
    public var renderer: any CheckRenderer.Type {
        switch self {
        case .text: CheckTextReport.self
        case .json: CheckJSONReport.self
        case .junit: JUnitReport.self
        case .github: GitHubAnnotations.self
        case .markdown: CheckMarkdownSummary.self
        case .sarif: SARIFReport.self
        }
    }
}
