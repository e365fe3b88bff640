/// `lifetrace check --format json` for a check already made: the document of docs/JSON.md,
/// written by ``CheckJSONDocument`` as the streamed form writes it piece by piece (the command
/// streams it while the traces are read, and writes the same bytes).
public struct CheckJSONReport: CheckRenderer {
    /// The check.
    public var check: CheckOutput

    /// The document of `check`.
    public init(_ check: CheckOutput) { self.check = check }

    /// The JSON document, ending with a newline.
    public var document: String { CheckJSONDocument.rendered(check.analyses, strict: check.strict, configuration: check.configuration, history: check.history) }
}
