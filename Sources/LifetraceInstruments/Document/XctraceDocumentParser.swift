#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation
import LifetraceFormat

/// Reads one export document as `XMLParser` streams it: a table export's rows, `ref`s resolved,
/// go to a closure one at a time; a table of contents gives its first run's facts.
///
/// Nothing but the open elements, the current row and the `id` table is kept (each bounded by
/// ``XctraceLimits``). The first problem stops the reading: broken XML, a root or an element an
/// export does not have, a table lifetrace does not read, a `ref` to no earlier `id`, a bound
/// passed, a DTD. Every error names the line and column.
final class XctraceDocumentParser: NSObject, XMLParserDelegate {
    /// The two kinds of document `xcrun xctrace export` writes.
    enum Root: String {
        /// A table export (`--xpath`).
        case tableQuery = "trace-query-result"
        /// A table of contents (`--toc`).
        case tableOfContents = "trace-toc"
    }

    /// The tables lifetrace reads, by schema name.
    static let knownSchemas = ["life-cycle-period", "os-signpost"]
    /// The most columns a schema may have.
    static let maxColumns = 256
    /// The most attributes an element may have.
    static let maxAttributes = 64

    private struct OpenElement {
        var name: String
        var id: String?
        var ref: String?
        var fmt: String?
        var text = ""
        var children: [XctraceValue] = []
        var size: Int
        var collectsText: Bool
        var line: Int
        var column: Int
    }

    /// The input's name, for errors.
    let name: String
    private let limits: XctraceLimits
    private let onRow: (XctraceRow) throws(TraceError) -> Void
    private let stream: XctraceInputStream
    private weak var parser: XMLParser?
    private var values: XctraceValueTable
    private var open: [OpenElement] = []
    private var schema: XctraceSchema?
    private var pendingSchema: XctraceSchema?
    private var rowIndex: Int?
    private var runCount = 0
    private var error: TraceError?
    /// The document's kind, once its root element is read.
    private(set) var root: Root?
    /// The first run's facts, from a table of contents.
    private(set) var tableOfContents = XctraceTableOfContents()

    private init(input: TraceConverterInput, limits: XctraceLimits, onRow: @escaping (XctraceRow) throws(TraceError) -> Void) {
        name = input.name
        self.limits = limits
        self.onRow = onRow
        stream = XctraceInputStream(input)
        values = XctraceValueTable(limits: limits)
    }

    /// Reads `input` whole, calling `onRow` with each row; returns the parser for its ``root``
    /// and ``tableOfContents``.
    static func read(
        _ input: TraceConverterInput, limits: XctraceLimits, onRow: @escaping (XctraceRow) throws(TraceError) -> Void
    ) throws(TraceError) -> XctraceDocumentParser {
        let document = XctraceDocumentParser(input: input, limits: limits, onRow: onRow)
        let parser = XMLParser(stream: document.stream)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.delegate = document
        document.parser = parser
        let parsed = parser.parse()
        if let readError = document.stream.readError { throw readError }
        if let doctype = document.stream.doctype {
            throw TraceError(
                .syntax, file: input.name, at: .line(doctype.line, column: doctype.column),
                "a DTD (<!DOCTYPE): an xctrace export has none, and its entities are not expanded here")
        }
        if let error = document.error { throw error }
        if !parsed {
            throw document.located(.syntax, "not well-formed XML (\(describe(parser.parserError)))")
        }
        guard document.root != nil else {
            throw TraceError(.unknownInput, file: input.name, "no root element: not an xctrace export")
        }
        return document
    }

    // MARK: XMLParserDelegate

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard error == nil else { return }
        let line = max(parser.lineNumber, 1)
        let column = max(parser.columnNumber, 1)
        guard open.count < limits.maxDepth else {
            return fail(.limitExceeded, "elements nest deeper than \(limits.maxDepth)", line, column)
        }
        guard attributes.count <= Self.maxAttributes else {
            return fail(.limitExceeded, "<\(elementName)> has more than \(Self.maxAttributes) attributes", line, column)
        }
        for (key, value) in attributes where value.utf8.count > limits.maxStringLength {
            return fail(
                .limitExceeded,
                "attribute \(key) of <\(elementName)> is \(value.utf8.count) bytes long; the limit is \(limits.maxStringLength)",
                line, column)
        }
        guard admit(elementName, attributes: attributes, line, column) else { return }
        let fmt = attributes["fmt"]
        open.append(
            OpenElement(
                name: elementName, id: attributes["id"], ref: attributes["ref"], fmt: fmt,
                size: XctraceLimits.elementCost + (fmt?.utf8.count ?? 0), collectsText: collectsText(elementName),
                line: line, column: column))
    }

    /// Text in a CDATA section is text like any other: kept, never dropped.
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard error == nil else { return }
        guard let text = String(data: CDATABlock, encoding: .utf8) else {
            return fail(.syntax, "a CDATA section that is not UTF-8", max(parser.lineNumber, 1), max(parser.columnNumber, 1))
        }
        self.parser(parser, foundCharacters: text)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard error == nil, let last = open.indices.last, open[last].collectsText else { return }
        let count = string.utf8.count
        guard open[last].text.utf8.count + count <= limits.maxStringLength else {
            return fail(
                .limitExceeded, "the text of <\(open[last].name)> is longer than \(limits.maxStringLength) bytes",
                open[last].line, open[last].column)
        }
        open[last].text += string
        open[last].size += count
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard error == nil, let element = open.popLast() else { return }
        if let rowIndex, open.count > rowIndex {
            guard let value = resolve(element) else { return }
            open[open.count - 1].children.append(value)
            open[open.count - 1].size += value.size
            if open[open.count - 1].size > limits.maxValueSize {
                return fail(
                    .limitExceeded, "<\(open[open.count - 1].name)> passes \(limits.maxValueSize) bytes with its values; the limit keeps memory bounded",
                    element.line, element.column)
            }
        } else if let rowIndex, open.count == rowIndex {
            self.rowIndex = nil
            endRow(element)
        } else if element.name == "mnemonic", pendingSchema != nil {
            guard pendingSchema!.columns.count < Self.maxColumns else {
                return fail(.limitExceeded, "a schema with more than \(Self.maxColumns) columns", element.line, element.column)
            }
            pendingSchema!.columns.append(element.text.trimmingCharacters(in: .whitespacesAndNewlines))
        } else if element.name == "schema", let pending = pendingSchema {
            pendingSchema = nil
            schema = pending
        } else if root == .tableOfContents {
            endTableOfContentsElement(element)
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        fail(.syntax, "not well-formed XML (\(Self.describe(parseError)))", max(parser.lineNumber, 1), max(parser.columnNumber, 1))
    }

    func parser(_ parser: XMLParser, validationErrorOccurred validationError: any Error) {
        fail(.syntax, "not well-formed XML (\(Self.describe(validationError)))", max(parser.lineNumber, 1), max(parser.columnNumber, 1))
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        refuseDeclaration(parser)
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuseDeclaration(parser)
    }

    func parser(_ parser: XMLParser, foundElementDeclarationWithName elementName: String, model: String) {
        refuseDeclaration(parser)
    }

    func parser(
        _ parser: XMLParser, foundAttributeDeclarationWithName attributeName: String, forElement elementName: String,
        type: String?, defaultValue: String?
    ) {
        refuseDeclaration(parser)
    }

    func parser(_ parser: XMLParser, foundNotationDeclarationWithName name: String, publicID: String?, systemID: String?) {
        refuseDeclaration(parser)
    }

    func parser(
        _ parser: XMLParser, foundUnparsedEntityDeclarationWithName name: String, publicID: String?, systemID: String?,
        notationName: String?
    ) {
        refuseDeclaration(parser)
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }

    // MARK: Structure

    /// Whether `element` may open here; fails and returns false when not.
    private func admit(_ element: String, attributes: [String: String], _ line: Int, _ column: Int) -> Bool {
        guard let parent = open.last?.name else {
            guard let root = Root(rawValue: element) else {
                fail(.unknownInput, "root element <\(element)> is not an xctrace export's (trace-query-result or trace-toc)", line, column)
                return false
            }
            self.root = root
            return true
        }
        switch root {
        case .tableQuery?:
            return admitInTableQuery(element, parent: parent, attributes: attributes, line, column)
        case .tableOfContents?:
            if element == "run" && open.count == 1 { runCount += 1 }
            if runCount == 1 { readTableOfContentsAttributes(element, attributes: attributes) }
            return true
        case nil:
            return true
        }
    }

    private func admitInTableQuery(
        _ element: String, parent: String, attributes: [String: String], _ line: Int, _ column: Int
    ) -> Bool {
        if rowIndex != nil || pendingSchema != nil { return true }
        switch (parent, element) {
        case ("trace-query-result", "node"):
            return true
        case ("node", "schema"):
            let name = attributes["name"] ?? ""
            guard Self.knownSchemas.contains(name) else {
                fail(
                    .unknownType,
                    "table schema \"\(name)\" is not one lifetrace reads; it reads \(Self.knownSchemas.joined(separator: " and "))",
                    line, column)
                return false
            }
            pendingSchema = XctraceSchema(name: name, columns: [])
            return true
        case ("node", "row"):
            guard schema != nil else {
                fail(
                    .missingField,
                    "a row before any schema: export one table per file (--xpath '/trace-toc/run[@number=\"1\"]/data/table[@schema=\"...\"]')",
                    line, column)
                return false
            }
            rowIndex = open.count
            return true
        default:
            fail(.invalidValue, "unexpected <\(element)> in <\(parent)>: not an xctrace table export", line, column)
            return false
        }
    }

    private func collectsText(_ element: String) -> Bool {
        if let rowIndex { return open.count > rowIndex }
        if pendingSchema != nil { return element == "mnemonic" }
        return root == .tableOfContents && runCount == 1 && open.last?.name == "summary"
    }

    // MARK: Rows and values

    /// The value of a closed element inside a row, `ref` resolved and `id` stored; nil after a failure.
    private func resolve(_ element: OpenElement) -> XctraceValue? {
        var value: XctraceValue
        if let ref = element.ref {
            guard let stored = values[ref] else {
                fail(.invalidValue, "ref \"\(ref)\" on <\(element.name)> names no earlier id", element.line, element.column)
                return nil
            }
            guard stored.element == element.name else {
                fail(.invalidValue, "ref \"\(ref)\" on <\(element.name)> names a <\(stored.element)>", element.line, element.column)
                return nil
            }
            value = stored
        } else {
            value = XctraceValue(
                element: element.name, text: element.text.trimmingCharacters(in: .whitespacesAndNewlines), fmt: element.fmt,
                children: element.children, size: element.size)
        }
        guard value.size <= limits.maxValueSize else {
            fail(
                .limitExceeded, "<\(element.name)> passes \(limits.maxValueSize) bytes with its values; the limit keeps memory bounded",
                element.line, element.column)
            return nil
        }
        if let id = element.id, let problem = values.store(value, for: id) {
            fail(.limitExceeded, problem, element.line, element.column)
            return nil
        }
        return value
    }

    private func endRow(_ row: OpenElement) {
        guard let schema else { return }
        guard row.children.count == schema.columns.count else {
            return fail(
                .invalidValue, "this \(schema.name) row has \(row.children.count) cells for \(schema.columns.count) columns",
                row.line, row.column)
        }
        do {
            try onRow(XctraceRow(schema: schema, cells: row.children, line: row.line, column: row.column))
        } catch {
            self.error = error
            stop()
        }
    }

    // MARK: Table of contents

    private func readTableOfContentsAttributes(_ element: String, attributes: [String: String]) {
        guard open.last?.name == "target" else { return }
        switch element {
        case "device":
            tableOfContents.deviceModel = attributes["model"]
            tableOfContents.platform = attributes["platform"]
            tableOfContents.osVersion = attributes["os-version"]
        case "process":
            tableOfContents.processName = attributes["name"]
            if let pid = attributes["pid"] {
                // Never dropped: the target process decides which rows are imported.
                guard let number = Int64(pid) else {
                    return fail(
                        .invalidValue, "the target process's pid \"\(pid)\" is not an integer",
                        max(parser?.lineNumber ?? 1, 1), max(parser?.columnNumber ?? 1, 1))
                }
                tableOfContents.pid = number
            }
        default:
            break
        }
    }

    private func endTableOfContentsElement(_ element: OpenElement) {
        guard element.collectsText else { return }
        let text = element.text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return }
        switch element.name {
        case "template-name": tableOfContents.templateName = text
        case "instruments-version": tableOfContents.instrumentsVersion = text
        case "start-date": tableOfContents.startDate = text
        default: break
        }
    }

    // MARK: Failures

    private func refuseDeclaration(_ parser: XMLParser) {
        fail(.syntax, "a DTD declaration: an xctrace export has none", max(parser.lineNumber, 1), max(parser.columnNumber, 1))
    }

    private func fail(_ kind: TraceError.Kind, _ message: String, _ line: Int, _ column: Int) {
        guard error == nil else { return }
        error = TraceError(kind, file: name, at: .line(line, column: column), message)
        stop()
    }

    private func stop() {
        stream.isStopped = true
        parser?.abortParsing()
    }

    private func located(_ kind: TraceError.Kind, _ message: String) -> TraceError {
        let line = max(parser?.lineNumber ?? 1, 1)
        let column = max(parser?.columnNumber ?? 1, 1)
        return TraceError(kind, file: name, at: .line(line, column: column), message)
    }

    /// The parser's error in words: `equalExpectedError` is "equal expected".
    private static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "the parser stopped" }
        let code = (error as NSError).code
        guard let known = XMLParser.ErrorCode(rawValue: code) else { return "XMLParser error \(code)" }
        if known == .outOfMemoryError { return "out of memory: a text or attribute past the XML parser's own size limit" }
        var words = ""
        for character in "\(known)".replacingOccurrences(of: "Error", with: "") {
            if character.isUppercase { words += " " }
            words += character.lowercased()
        }
        return words
    }
}
