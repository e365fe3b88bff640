import Foundation
import LifetraceOutput
import LifetraceRunner
import Testing

@testable import LifetraceFormat
import LifetraceZstd

/// The text form of the stack-sample records, `image`, `stack`, `sample` and `symbol`
/// (docs/JSONL.md, "Stack samples"): written after the events, read back exactly, and every
/// hostile line refused with its line and column.
@Suite struct JSONLStackSampleTests {
    typealias Fixture = BinaryTraceFixture

    /// The text form of a binary trace: its events, then its samples, as `dump` writes it.
    static func dump(_ bytes: [UInt8]) throws -> String {
        var reader = try BinaryTraceReader(bytes: bytes, name: "test.ltrace")
        let path = Fixture.temporaryPath()
        defer { unlink(path) }
        let writer = try JSONLTraceWriter(path: path, metadata: reader.metadata)
        while let event = try reader.next() { try writer.append(event, symbols: reader.symbols) }
        try writer.appendSampledStacks(reader.sampledStacks)
        try writer.close()
        return String(decoding: try Fixture.readFile(path), as: UTF8.self)
    }

    /// Reads `text` whole; the reader, holding what it collected.
    static func read(_ text: String) throws(TraceError) -> JSONLTraceReader {
        var reader = try JSONLTraceReader(bytes: Array(text.utf8), name: "s.jsonl")
        while try reader.next() != nil {}
        return reader
    }

    static func error(_ text: String) -> TraceError? {
        do throws(TraceError) {
            _ = try read(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func samplesImagesAndSymbolsComeBackFromTheirTextForm() throws {
        let (bytes, _, _) = try StackSampleRecordTests.traceWithSamples()
        let binary = try Fixture.read(bytes).reader.sampledStacks
        let text = try Self.dump(bytes)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"{"ts":2600,"type":"image","path":"/app/Sample","buildId":"0a1b2c","base":"0x555500000000","size":"0x100000"}"#))
        #expect(lines.contains(#"{"ts":2600,"type":"image","path":"/lib/libc.so.6","base":"0x7f0000000000","size":"0x1000"}"#))
        #expect(lines.contains(#"{"type":"stack","id":1,"frames":["0x555500001000","0x555500002040","0x7f0000000100"]}"#))
        #expect(lines.contains(#"{"ts":50000000,"type":"sample","stack":1}"#))
        #expect(lines.contains(#"{"ts":60000001,"type":"sample","thread":2,"stack":3}"#))
        let stacks = try Self.read(text).sampledStacks
        #expect(stacks.images == binary.images)
        #expect(stacks.samples.map(\.timestamp) == binary.samples.map(\.timestamp))
        #expect(stacks.samples.map(\.thread) == binary.samples.map(\.thread))
        #expect(stacks.samples.map { stacks.frames(of: $0.stack) } == binary.samples.map { binary.frames(of: $0.stack) })
        // Imported into a binary trace and written again, the text is the same, byte for byte.
        var reread = try JSONLTraceReader(bytes: Array(text.utf8), name: "s.jsonl")
        let imported = try Fixture.write([], symbols: SymbolTable(), metadata: reread.metadata, extra: { writer in
            while let event = try reread.next() { try writer.append(event, symbols: reread.symbols) }
            try writer.appendSampledStacks(reread.sampledStacks)
        })
        #expect(try Self.dump(imported) == text)
    }

    @Test func symbolsComeBackAndNameTheirAddresses() throws {
        let text = """
            {"type":"symbol","address":"0x5555000010a0","function":"static SearchIndex.rebuild()","file":"SearchIndex.swift","line":12}
            {"type":"symbol","address":"0x7F0000000100","function":"__GI___poll"}

            """
        let stacks = try Self.read(text).sampledStacks
        #expect(stacks.symbols[0x5555_0000_10A0] == FrameSymbol(function: "static SearchIndex.rebuild()", file: "SearchIndex.swift", line: 12))
        #expect(stacks.symbols[0x7F00_0000_0100] == FrameSymbol(function: "__GI___poll"))
        let path = Fixture.temporaryPath()
        defer { unlink(path) }
        let writer = try JSONLTraceWriter(path: path, metadata: TraceMetadata())
        try writer.appendSampledStacks(stacks)
        try writer.close()
        // Canonical: lower-case addresses, fields at their default left out.
        #expect(String(decoding: try Fixture.readFile(path), as: UTF8.self) == text.replacingOccurrences(of: "0x7F", with: "0x7f"))
    }

    @Test func aStackMayExtendAnEarlierOne() throws {
        let text = """
            {"type":"stack","id":1,"frames":["0x10","0x20"]}
            {"type":"stack","id":2,"parent":1,"frames":["0x30"]}
            {"ts":5,"type":"sample","stack":2}
            {"ts":6,"type":"sample","stack":1}
            """
        let stacks = try Self.read(text).sampledStacks
        #expect(stacks.samples.map { stacks.frames(of: $0.stack) } == [[0x10, 0x20, 0x30], [0x10, 0x20]])
        #expect(stacks.nodes.count == 3)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var input: String
        var kind: TraceError.Kind
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { message }
    }

    static let stack = #"{"type":"stack","id":1,"frames":["0x10"]}"#

    static let cases: [Case] = [
        Case(input: #"{"ts":1,"type":"sample","stack":1}"#, kind: .invalidValue, line: 1, column: 33,
             message: "stack 1 is not defined on an earlier line"),
        Case(input: stack + "\n" + #"{"ts":1,"type":"sample","stack":2}"#, kind: .invalidValue, line: 2, column: 33,
             message: "stack 2 is not defined on an earlier line"),
        Case(input: #"{"ts":1,"type":"sample","stack":0}"#, kind: .invalidValue, line: 1, column: 33,
             message: "\"stack\" must be a positive integer"),
        Case(input: #"{"ts":1,"type":"sample","stack":1,"stream":"app"}"#, kind: .unknownField, line: 1, column: 35,
             message: "unknown field \"stream\" for type \"sample\""),
        Case(input: #"{"type":"sample","stack":1}"#, kind: .missingField, line: 1, column: 1,
             message: "missing field \"ts\" for type \"sample\""),
        Case(input: #"{"type":"stack","id":2,"frames":["0x10"]}"#, kind: .invalidValue, line: 1, column: 22,
             message: "stack ids must be 1, 2, 3, ... in order: expected 1"),
        Case(input: stack + "\n" + stack, kind: .invalidValue, line: 2, column: 22,
             message: "stack ids must be 1, 2, 3, ... in order: expected 2"),
        Case(input: #"{"type":"stack","id":1,"parent":1,"frames":["0x10"]}"#, kind: .invalidValue, line: 1, column: 33,
             message: "\"parent\" must be a stack defined before this one (an id below 1)"),
        Case(input: #"{"ts":1,"type":"stack","id":1,"frames":["0x10"]}"#, kind: .unknownField, line: 1, column: 2,
             message: "unknown field \"ts\" for type \"stack\""),
        Case(input: #"{"type":"stack","id":1}"#, kind: .missingField, line: 1, column: 1,
             message: "missing field \"frames\" for type \"stack\""),
        Case(input: #"{"type":"stack","id":1,"frames":[]}"#, kind: .invalidValue, line: 1, column: 33,
             message: "\"frames\" must be an array of 1 to 1024 addresses (it has 0)"),
        Case(input: #"{"type":"stack","id":1,"frames":"0x10"}"#, kind: .invalidValue, line: 1, column: 33,
             message: "\"frames\" must be an array of 1 to 1024 addresses"),
        Case(input: #"{"type":"stack","id":1,"frames":["0x10", 16]}"#, kind: .invalidValue, line: 1, column: 42,
             message: "\"frames\" must hold addresses as strings of \"0x\" and 1 to 16 hexadecimal digits"),
        Case(input: #"{"type":"stack","id":1,"frames":["0x1ffffffffffffffff"]}"#, kind: .invalidValue, line: 1, column: 34,
             message: "\"frames\" must hold addresses as strings of \"0x\" and 1 to 16 hexadecimal digits"),
        Case(input: #"{"type":"stack","id":1,"frames":["0x"]}"#, kind: .invalidValue, line: 1, column: 34,
             message: "\"frames\" must hold addresses as strings of \"0x\" and 1 to 16 hexadecimal digits"),
        Case(input: #"{"type":"stack","id":1,"frames":["12"]}"#, kind: .invalidValue, line: 1, column: 34,
             message: "\"frames\" must hold addresses as strings of \"0x\" and 1 to 16 hexadecimal digits"),
        Case(input: #"{"type":"stack","id":1,"frames":["0xg"]}"#, kind: .invalidValue, line: 1, column: 34,
             message: "\"frames\" must hold addresses as strings of \"0x\" and 1 to 16 hexadecimal digits"),
        Case(input: #"{"type":"stack","id":1,"frames":["0x1"],"frames":["0x2"]}"#, kind: .syntax, line: 1, column: 41,
             message: "duplicate field \"frames\""),
        Case(input: #"{"ts":1,"type":"image","path":"/a","base":"0xffffffffffffff00","size":"0x101"}"#, kind: .invalidValue,
             line: 1, column: 71, message: "the image ends past the 64-bit address space (\"base\" + \"size\" > 2^64)"),
        Case(input: #"{"ts":1,"type":"image","path":"/a","base":4096,"size":"0x100"}"#, kind: .invalidValue, line: 1, column: 43,
             message: "\"base\" must be a string of \"0x\" and 1 to 16 hexadecimal digits"),
        Case(input: #"{"ts":1,"type":"image","path":"/a","buildId":"abc","base":"0x0","size":"0x1"}"#, kind: .invalidValue,
             line: 1, column: 46, message: "\"buildId\" must be an even number of hexadecimal digits, at most 128"),
        Case(input: #"{"ts":1,"type":"image","base":"0x0","size":"0x1"}"#, kind: .missingField, line: 1, column: 1,
             message: "missing field \"path\" for type \"image\""),
        Case(input: #"{"ts":1,"type":"image","path":"/a","base":"0x0"}"#, kind: .missingField, line: 1, column: 1,
             message: "missing field \"size\" for type \"image\""),
        Case(input: #"{"ts":1152921504606846977,"type":"image","path":"/a","base":"0x0","size":"0x1"}"#, kind: .invalidValue,
             line: 1, column: 7, message: TraceTime.outOfRangeMessage(1_152_921_504_606_846_977)),
        Case(input: #"{"type":"symbol","address":"0x10","function":"f","line":0}"#, kind: .invalidValue, line: 1, column: 57,
             message: "\"line\" must be a positive integer"),
        Case(input: #"{"type":"symbol","address":"0x10","function":"f","line":2147483648}"#, kind: .invalidValue, line: 1,
             column: 57, message: "\"line\" must be 1 to 2147483647 (left out when unknown)"),
        Case(input: #"{"type":"symbol","address":"0x10"}"#, kind: .missingField, line: 1, column: 1,
             message: "missing field \"function\" for type \"symbol\""),
        Case(input: #"{"type":"symbol","address":"0x10","function":"f","scene":"x"}"#, kind: .unknownField, line: 1, column: 50,
             message: "unknown field \"scene\" for type \"symbol\""),
        Case(input: stack + "\n" + #"{"type":"meta","app":"x"}"#, kind: .invalidValue, line: 2, column: 9,
             message: "\"meta\" is allowed only on the first line"),
    ]

    @Test(arguments: cases)
    func hostileLinesAreRefusedWhereTheyAre(_ testCase: Case) throws {
        let error = try #require(Self.error(testCase.input))
        #expect(error.kind == testCase.kind)
        #expect(error.location == .line(testCase.line, column: testCase.column))
        #expect(error.message == testCase.message)
    }

    @Test func tooLongATextIsRefused() throws {
        let long = String(repeating: "f", count: 4097)
        let error = try #require(Self.error(#"{"type":"symbol","address":"0x10","function":"\#(long)"}"#))
        #expect(error.message == "\"function\" must be at most 4096 bytes of UTF-8")
    }

    @Test func aStackOfMoreThan1024FramesIsRefused() throws {
        let frames = (0..<1025).map { "\"0x\(String($0, radix: 16))\"" }.joined(separator: ",")
        let error = try #require(Self.error(#"{"type":"stack","id":1,"frames":[\#(frames)]}"#))
        #expect(error.message == "\"frames\" must be an array of 1 to 1024 addresses (it has 1025)")
        #expect(error.location == .line(1, column: 33))
    }

    @Test func aChainOfParentsDeeperThan1024FramesIsRefused() throws {
        // A million-deep claim, one frame a line: refused at the 1,025th frame, nothing kept past it.
        var text = #"{"type":"stack","id":1,"frames":["0x1"]}"# + "\n"
        for id in 2...2_000 { text += #"{"type":"stack","id":\#(id),"parent":\#(id - 1),"frames":["0x\#(String(id, radix: 16))"]}"# + "\n" }
        let error = try #require(Self.error(text))
        #expect(error.location == .line(1025, column: 50))
        #expect(error.message == "the stack is deeper than 1024 frames (1024 in its parent and 1 here)")
    }

    @Test func theNumberOfStacksIsBounded() throws {
        // The cap is SampledStacks' node limit; a table of 4 shows the rule without a million lines.
        let stacks = JSONLSampledStacks(maxStacks: 4)
        for id in 1...4 {
            try stacks.apply(try #require(try Self.line(#"{"type":"stack","id":\#(id),"frames":["0x\#(id)"]}"#)))
        }
        do {
            try stacks.apply(try #require(try Self.line(#"{"type":"stack","id":5,"frames":["0x5"]}"#)))
            Issue.record("a fifth stack was taken")
        } catch let error as TraceError {
            #expect(error.kind == .limitExceeded)
            #expect(error.message == "more than 4 stacks")
        }
        #expect(JSONLSampledStacks.maxStacks == SampledStacks.maxNodes)
    }

    static func line(_ text: String) throws -> JSONLSampleLine? {
        let object = try JSONLObject(line: Data(text.utf8), lineNumber: 1, file: "s.jsonl")
        let fields = JSONLFields(object: object, line: 1, file: "s.jsonl")
        let type = try #require(fields.member("type").flatMap { object.string($0) })
        return try JSONLSampleLine.decode(type: type, fields: fields)
    }
}
