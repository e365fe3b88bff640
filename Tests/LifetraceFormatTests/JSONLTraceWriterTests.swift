import Foundation
import LifetraceOutput
import Testing

@testable import LifetraceFormat

/// Reads `text` and writes it back in canonical form.
func canonicalRewrite(_ bytes: [UInt8], name: String) throws -> String {
    var reader = try JSONLTraceReader(bytes: bytes, name: name)
    var output: [UInt8] = []
    if !reader.metadata.isEmpty { JSONLTraceWriter.encode(reader.metadata, into: &output) }
    while let event = try reader.next() {
        JSONLTraceWriter.encode(event, symbols: reader.symbols, into: &output)
    }
    return String(decoding: output, as: UTF8.self)
}

@Suite struct JSONLTraceWriterTests {
    static let canonical = """
        {"type":"meta","app":"com.example.Notes","note":"tab\\there \\"quoted\\" back\\\\slash \\u0001 é"}
        {"ts":0,"type":"launch","reason":"user","pid":812}
        {"ts":5,"type":"launch","background":true,"prewarm":true}
        {"ts":10,"type":"state","to":"inactive","scene":"main"}
        {"ts":20,"type":"callback.begin","name":"willFinishLaunching"}
        {"ts":30,"type":"callback.end","name":"willFinishLaunching"}
        {"ts":40,"type":"runloop.wake"}
        {"ts":41,"type":"runloop.sleep","stream":"system","thread":3}
        {"ts":50,"type":"signpost.begin","name":"load","id":7}
        {"ts":60,"type":"signpost.end","name":"load"}
        {"ts":70,"type":"mark","thread":0,"name":"ready"}
        {"ts":80,"type":"frame","first":true}
        {"ts":81,"type":"frame","first":false}
        {"ts":82,"type":"frame"}
        {"ts":90,"type":"bgtask.begin","id":1,"name":"upload"}
        {"ts":95,"type":"bgtask.expire","id":1}
        {"ts":99,"type":"bgtask.end","id":1,"name":"upload"}
        {"ts":100,"type":"state","stream":"app","to":"background"}
        {"ts":-4,"type":"dropped","count":3}
        {"ts":120,"type":"exit","code":0,"signal":9}

        """

    @Test func canonicalTextIsReproducedByteForByte() throws {
        let rewritten = try canonicalRewrite(Array(Self.canonical.utf8), name: "canonical.jsonl")
        #expect(rewritten == Self.canonical)
    }

    @Test func nonCanonicalTextIsNormalised() throws {
        let input = """
            { "type" : "frame", "ts" : 3, "stream": "app", "thread": "main" }
            {"name":"didBecomeActive","type":"callback","ts":10,"dur":5}
            {"ts":20,"type":"launch","background":false,"prewarm":false}
            """
        let expected = """
            {"ts":3,"type":"frame"}
            {"ts":10,"type":"callback.begin","name":"didBecomeActive"}
            {"ts":15,"type":"callback.end","name":"didBecomeActive"}
            {"ts":20,"type":"launch"}

            """
        #expect(try canonicalRewrite(Array(input.utf8), name: "loose.jsonl") == expected)
    }

    @Test func lineForAnEventHasNoLineBreak() {
        var symbols = SymbolTable()
        let name = symbols.intern("didEnterBackground")
        let event = TraceEvent(timestamp: 42, payload: .callbackBegin(name: name, scene: .none))
        #expect(
            JSONLTraceWriter.line(for: event, symbols: symbols)
                == #"{"ts":42,"type":"callback.begin","name":"didEnterBackground"}"#)
        #expect(JSONLTraceWriter.line(for: TraceMetadata([("os", "iOS 18")])) == #"{"type":"meta","os":"iOS 18"}"#)
    }

    @Test func aFileAppearsOnlyWhenClosed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jsonl-writer-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("out.jsonl").path
        let writer = try JSONLTraceWriter(path: path, metadata: TraceMetadata([("app", "x")]))
        try writer.append(TraceEvent(timestamp: 1, payload: .runloopWake), symbols: SymbolTable())
        #expect(!FileManager.default.fileExists(atPath: path))
        try writer.close()
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == "{\"type\":\"meta\",\"app\":\"x\"}\n{\"ts\":1,\"type\":\"runloop.wake\"}\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.jsonl"])
    }
}
