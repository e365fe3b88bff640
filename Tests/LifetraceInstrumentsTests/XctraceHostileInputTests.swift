import LifetraceFormat
import LifetraceInstruments
import Testing

/// Broken, unknown and hostile documents: each stops at its first problem with one line naming
/// the file, line and column, within the limits that bound memory.
@Suite("xctrace export: bad and hostile input")
struct XctraceHostileInputTests {
    @Test func brokenXMLNamesTheLineAndColumn() throws {
        let document = InstrumentsSamples.signpostDocument([
            "<event-time>1</event-time><event-type>Event</event-type><signpost-name>a</signpost-name>",
            "<event-time>2</event-time><event-type>Event</event-type><signpost-name>b</signpost-name",
        ])
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.kind == .syntax)
        #expect(error.description.hasPrefix("test.xml:5:"), "\(error)")
        #expect(error.description.contains("not well-formed XML"))
        #expect(!error.description.contains("\n"))
    }

    @Test func aTableLifetraceDoesNotReadIsRefusedByName() throws {
        let document = """
            <?xml version="1.0"?>
            <trace-query-result>
            <node xpath="x">
              <schema name="time-profile"><col><mnemonic>time</mnemonic></col></schema>
            </node></trace-query-result>
            """
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.kind == .unknownType)
        #expect(
            error.description
                == "test.xml:4:30: table schema \"time-profile\" is not one lifetrace reads; it reads life-cycle-period and os-signpost")
    }

    @Test func aDocumentThatIsNotAnExportIsRefusedAtItsRoot() throws {
        let error = try #require(InstrumentsSamples.error(of: "<?xml version=\"1.0\"?>\n<html><body/></html>\n"))
        #expect(error.description == "test.xml:2:6: root element <html> is not an xctrace export's (trace-query-result or trace-toc)")
    }

    @Test func aDanglingRefIsAnError() throws {
        let document = InstrumentsSamples.signpostDocument([
            "<event-time>1</event-time><event-type>Event</event-type>\n<signpost-name ref=\"99\"/>"
        ])
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.kind == .invalidValue)
        #expect(error.description == "test.xml:5:24: ref \"99\" on <signpost-name> names no earlier id")
    }

    @Test func aRefToAnotherKindOfValueIsAnError() throws {
        let document = InstrumentsSamples.signpostDocument([
            "<event-time id=\"1\">1</event-time><event-type>Event</event-type><signpost-name ref=\"1\"/>"
        ])
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.message == "ref \"1\" on <signpost-name> names a <event-time>")
    }

    @Test func refsNestedIntoRefsStopAtTheValueBound() throws {
        // Each id holds the previous one twice: the value doubles per row, and the reading stops
        // at the first value past the bound instead of growing with what the refs claim.
        var rows = ["<event-time>1</event-time><event-type>Event</event-type><signpost-name id=\"1\">\(String(repeating: "x", count: 1000))</signpost-name>"]
        for id in 2...40 {
            rows.append(
                "<event-time>1</event-time><event-type>Event</event-type><signpost-name id=\"\(id)\"><signpost-name ref=\"\(id - 1)\"/><signpost-name ref=\"\(id - 1)\"/></signpost-name>"
            )
        }
        let error = try #require(InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(rows)))
        #expect(error.kind == .limitExceeded)
        #expect(error.message.contains("passes \(XctraceLimits().maxValueSize) bytes"), "\(error)")
        // About 1 KiB doubled per id: id 9 is the first past 256 KiB, on the ninth row (line 12).
        #expect(error.description.hasPrefix("test.xml:12:"), "\(error)")
    }

    @Test func theIDTableIsBoundedInCountAndSize() throws {
        let rows = (1...10).map { "<event-time id=\"t\($0)\">\($0)</event-time><event-type>Event</event-type><signpost-name>a</signpost-name>" }
        let count = try #require(InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(rows), limits: XctraceLimits(maxStoredValues: 5)))
        #expect(count.description.hasPrefix("test.xml:9:"), "the sixth id, on the sixth row: \(count)")
        #expect(count.message == "more than 5 ids; the limit keeps memory bounded")
        let size = try #require(InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(rows), limits: XctraceLimits(maxStoredSize: 500)))
        #expect(size.kind == .limitExceeded)
        #expect(size.message.contains("pass 500 bytes"), "\(size)")
    }

    @Test func aHugeAttributeIsRefusedByLength() throws {
        let huge = String(repeating: "y", count: 1 << 20)
        let document = InstrumentsSamples.signpostDocument([
            "<event-time fmt=\"\(huge)\">1</event-time><event-type>Event</event-type><signpost-name>a</signpost-name>"
        ])
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.kind == .limitExceeded)
        #expect(error.message == "attribute fmt of <event-time> is 1048576 bytes long; the limit is 65536")
        #expect(error.description.hasPrefix("test.xml:4:"))
    }

    @Test func aHugeTextIsRefusedByLength() throws {
        let document = InstrumentsSamples.signpostDocument([
            "<event-time>1</event-time><event-type>Event</event-type><signpost-name>\(String(repeating: "z", count: 100_000))</signpost-name>"
        ])
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.message == "the text of <signpost-name> is longer than 65536 bytes")
    }

    @Test func aDTDIsRefusedBeforeItsEntitiesExpand() throws {
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
             <!ENTITY lol "lol">
             <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
            ]>
            <trace-query-result>&lol2;</trace-query-result>
            """
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.description == "test.xml:2:1: a DTD (<!DOCTYPE): an xctrace export has none, and its entities are not expanded here")
    }

    @Test func deepNestingStopsAtTheDepthBound() throws {
        let cells = String(repeating: "<a>", count: 5000) + String(repeating: "</a>", count: 5000)
        let error = try #require(InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument([cells])))
        #expect(error.message == "elements nest deeper than 32")
    }

    @Test func theEventCountIsBounded() throws {
        let rows = (1...10).map { "<event-time>\($0)</event-time><event-type>Event</event-type><signpost-name>a</signpost-name>" }
        let error = try #require(InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(rows), limits: XctraceLimits(maxEvents: 4)))
        #expect(error.description == "test.xml:8:5: more than 4 events; the limit keeps memory bounded")
    }

    @Test func aRowThatDoesNotMatchItsSchemaIsAnError() throws {
        let short = try #require(InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(["<event-time>1</event-time>"])))
        #expect(short.message == "this os-signpost row has 1 cells for 3 columns")
        let missing = try #require(
            InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(["<sentinel/><event-type>Event</event-type><signpost-name>a</signpost-name>"])))
        #expect(missing.kind == .missingField)
        #expect(missing.message == "this os-signpost row has no value for column \"time\"")
        let kind = try #require(
            InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(["<event-time>1</event-time><event-type>Start</event-type><signpost-name>a</signpost-name>"])))
        #expect(kind.message == "os-signpost event-type \"Start\" is not Begin, End or Event")
        let time = try #require(
            InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(["<event-time>-5</event-time><event-type>Event</event-type><signpost-name>a</signpost-name>"])))
        #expect(time.message == "<event-time> \"-5\" is not a time in nanoseconds")
        #expect(time.description.hasPrefix("test.xml:4:"))
        let late = try #require(
            InstrumentsSamples.error(of: InstrumentsSamples.signpostDocument(["<event-time>18446744073709551615</event-time><event-type>Event</event-type><signpost-name>a</signpost-name>"])))
        #expect(late.message == "<event-time> 18446744073709551615 ns is past the trace clock's range (2^60 ns)")
    }

    @Test func rowsBeforeAnySchemaAreAnError() throws {
        let document = "<?xml version=\"1.0\"?>\n<trace-query-result><node>\n<row><event-time>1</event-time></row></node></trace-query-result>\n"
        let error = try #require(InstrumentsSamples.error(of: document))
        #expect(error.kind == .missingField)
        #expect(error.message.hasPrefix("a row before any schema"))
    }
}
