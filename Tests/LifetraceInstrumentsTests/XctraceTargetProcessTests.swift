import LifetraceFormat
import LifetraceInstruments
import Testing

/// The recording's target process decides which rows are imported; the rest are named, an
/// import that keeps nothing fails, and nothing of the text is dropped in silence: a pid that is
/// not an integer, a DTD however it is hidden in the prolog, text in a CDATA section.
@Suite("xctrace export: the target process, and text never dropped")
struct XctraceTargetProcessTests {
    /// A life-cycle-period export of `rows`: (start ms, duration ms, process cell, period).
    static func lifeCycleDocument(_ rows: [(Int, Int, String, String)]) -> String {
        """
        <?xml version="1.0"?>
        <trace-query-result>
        <node xpath="x"><schema name="life-cycle-period"><col><mnemonic>start</mnemonic></col><col><mnemonic>duration</mnemonic></col><col><mnemonic>process</mnemonic></col><col><mnemonic>period</mnemonic></col></schema>
        \(rows.map { start, duration, process, period in
            "<row><start-time>\(start * 1_000_000)</start-time><duration>\(duration * 1_000_000)</duration>\(process)<app-period>\(period)</app-period></row>"
        }.joined(separator: "\n"))
        </node></trace-query-result>

        """
    }

    static func process(_ name: String, _ pid: String) -> String { "<process fmt=\"\(name) (\(pid))\"><pid>\(pid)</pid></process>" }

    static func tableOfContents(pid: String) -> String {
        """
        <?xml version="1.0"?>
        <trace-toc><run number="1"><info><target>
        <process type="launched" name="Notes" pid="\(pid)"/>
        </target></info></run></trace-toc>

        """
    }

    /// A widget launched first, then the app with a 25 s didFinishLaunching.
    static let widgetFirst = lifeCycleDocument([
        (0, 30, process("NotesWidget", "900"), "Initializing - Process Creation"),
        (40, 10, process("NotesWidget", "900"), "Launching - UIKit Initialization"),
        (100, 40, process("Notes", "4121"), "Initializing - Process Creation"),
        (200, 25_000, process("Notes", "4121"), "Launching - didFinishLaunchingWithOptions()"),
        (25_300, 100, process("Notes", "4121"), "Launching - Initial Frame Rendering"),
    ])

    static func read(_ documents: [(String, String)]) throws -> DecodedTrace {
        try XctraceExport.convert(documents.map { TraceConverterInput(name: $0.0, bytes: Array($0.1.utf8)) })
    }

    @Test func theTableOfContentsTargetProcessIsImportedWhenAnotherProcessComesFirst() throws {
        let trace = try Self.read([("toc.xml", Self.tableOfContents(pid: "4121")), ("periods.xml", Self.widgetFirst)])
        let lines = InstrumentsSamples.lines(trace)
        #expect(lines.first == "100000000 launch pid 4121")
        #expect(lines.contains("200000000 callback.begin didFinishLaunching"))
        #expect(lines.contains("25200000000 callback.end didFinishLaunching"))
        #expect(!lines.contains { $0.contains("pid 900") })
        #expect(trace.metadata["app"] == "Notes")
        #expect(trace.metadata["omitted"] == "2 life-cycle-period rows of other processes (NotesWidget (900)): "
            + "the trace is of process 4121, the recording's target process in the table of contents")
    }

    @Test func severalProcessesWithoutATableOfContentsAreAnError() throws {
        let error = try #require(InstrumentsSamples.error(of: Self.widgetFirst, name: "periods.xml"))
        #expect(error.description == "periods.xml: the life-cycle-period rows are of 2 processes (NotesWidget (900), Notes (4121)); "
            + "only the table of contents says which one was recorded: import its export (xctrace export --toc) with the tables")
    }

    @Test func anImportThatWouldKeepNothingIsAnError() throws {
        #expect(throws: TraceError(
            .invalidValue, file: "toc.xml",
            "no row is of process 77, the recording's target process in the table of contents: all 5 rows are of other processes "
                + "(NotesWidget (900), Notes (4121)); nothing would be imported")
        ) {
            try Self.read([("toc.xml", Self.tableOfContents(pid: "77")), ("periods.xml", Self.widgetFirst)])
        }
    }

    @Test func aPidThatIsNotAnIntegerIsAnErrorAtItsRow() throws {
        let document = Self.lifeCycleDocument([(0, 30, Self.process("Notes", "41x21"), "Initializing - Process Creation")])
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.kind == .invalidValue)
        #expect(error.description.hasPrefix("test.xml:4:"), "\(error)")
        #expect(error.message == "<pid> \"41x21\" is not a process ID (an integer)")
        let contents = try #require(InstrumentsSamples.error(of: Self.tableOfContents(pid: "four"), name: "toc.xml"))
        #expect(contents.message == "the target process's pid \"four\" is not an integer")
    }

    @Test("a DTD is refused however the prolog hides it", arguments: [
        "<!-- <x -->\n", "<?pi <x ?>\n", "<!-- -- > <x --->\n", "<?pi ?<x?>\n",
    ])
    func aDTDIsRefusedWhereverItIs(_ hiding: String) throws {
        let document = "<?xml version=\"1.0\"?>\n" + hiding + "<!DOCTYPE trace-query-result [<!ENTITY e \"Hidden\">]>\n"
            + InstrumentsSamples.signpostDocument([
                "<event-time>1</event-time><event-type>Event</event-type><signpost-name>&e;</signpost-name>",
            ]).split(separator: "\n", maxSplits: 1)[1]
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.description == "test.xml:3:1: a DTD (<!DOCTYPE): an xctrace export has none, and its entities are not expanded here")
    }

    @Test func textInACDATASectionIsKept() throws {
        let document = InstrumentsSamples.signpostDocument([
            "<event-time>1</event-time><event-type>Event</event-type><signpost-name><![CDATA[Load<Database>]]></signpost-name>",
        ])
        let trace = try Self.read([("test.xml", document)])
        #expect(InstrumentsSamples.lines(trace) == ["1 mark Load<Database>"])
    }
}
