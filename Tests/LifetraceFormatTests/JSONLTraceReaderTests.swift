import Foundation
import Testing

@testable import LifetraceFormat

/// Reads every event of `text`, or returns the error that stopped the reading.
private func read(_ text: String) -> Result<(TraceMetadata, [TraceEvent], SymbolTable), TraceError> {
    do throws(TraceError) {
        var reader = try JSONLTraceReader(bytes: Array(text.utf8), name: "t.jsonl")
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return .success((reader.metadata, events, reader.symbols))
    } catch {
        return .failure(error)
    }
}

/// The error reading `text` stops with, or nil if it reads fine.
private func failure(_ text: String) -> TraceError? {
    if case .failure(let error) = read(text) { return error }
    return nil
}

@Suite struct JSONLTraceReaderTests {
    @Test func defaultsApplyWhenFieldsAreOmitted() throws {
        let text = """
            {"ts":1,"type":"launch"}
            {"ts":2,"type":"state","to":"inactive"}
            {"ts":3,"type":"callback.begin","name":"didFinishLaunching"}
            {"ts":4,"type":"frame"}
            {"ts":5,"type":"mark","name":"x","stream":"system","thread":7}
            """
        let (metadata, events, symbols) = try read(text).get()
        #expect(metadata.isEmpty)
        #expect(events.count == 5)
        #expect(events[0].payload == .launch(reason: .none, background: false, prewarm: false, pid: nil))
        #expect(events[0].stream == .system)
        #expect(events[1].stream == .system)
        #expect(events[1].payload == .state(to: .inactive, scene: .none))
        #expect(events[2].stream == .app)
        #expect(events[2].thread == .main)
        #expect(symbols.callback(symbolOf(events[2])) == .didFinishLaunching)
        #expect(events[3].payload == .frame(first: nil))
        #expect(events[4].stream == .system)
        #expect(events[4].thread == .numbered(7))
    }

    @Test func metadataIsTheFirstNonBlankLine() throws {
        let text = "\n  \n{\"type\":\"meta\",\"app\":\"com.example.Notes\",\"os\":\"iOS 17.4\"}\n{\"ts\":1,\"type\":\"runloop.wake\"}\n"
        let (metadata, events, _) = try read(text).get()
        #expect(metadata.fields.map(\.key) == ["app", "os"])
        #expect(metadata["app"] == "com.example.Notes")
        #expect(events == [TraceEvent(timestamp: 1, payload: .runloopWake)])
    }

    @Test func blankLinesAreSkippedButCounted() {
        let error = failure("{\"ts\":1,\"type\":\"frame\"}\n\n   \r\n{\"ts\":2,\"type\":\"bogus\"}\n")
        #expect(error?.location == .line(4, column: 16))
    }

    @Test func callbackShorthandExpandsIntoBeginAndEndInTimestampOrder() throws {
        let text = """
            {"ts":100,"type":"runloop.wake"}
            {"ts":110,"type":"callback","name":"didFinishLaunching","dur":50}
            {"ts":120,"type":"callback","name":"inner","dur":40}
            {"ts":130,"type":"signpost.begin","name":"load"}
            {"ts":140,"type":"state","to":"active"}
            {"ts":155,"type":"signpost.end","name":"load"}
            {"ts":160,"type":"runloop.sleep"}
            {"ts":170,"type":"callback","name":"didBecomeActive"}
            {"ts":170,"type":"frame"}
            """
        let (_, events, symbols) = try read(text).get()
        let described = events.map { event -> String in
            switch event.payload {
            case .callbackBegin(let name, _): "begin \(symbols[name])@\(event.timestamp)"
            case .callbackEnd(let name, _): "end \(symbols[name])@\(event.timestamp)"
            default: "\(event.type.name)@\(event.timestamp)"
            }
        }
        #expect(
            described == [
                "runloop.wake@100", "begin didFinishLaunching@110", "begin inner@120", "signpost.begin@130",
                "state@140", "signpost.end@155", "end inner@160", "end didFinishLaunching@160",
                "runloop.sleep@160", "begin didBecomeActive@170", "end didBecomeActive@170", "frame@170",
            ])
    }

    @Test func shorthandEndsAreDeliveredAtTheEndOfTheInput() throws {
        let text = #"{"ts":5,"type":"callback","name":"willTerminate","dur":10,"thread":2,"scene":"s"}"#
        let (_, events, symbols) = try read(text).get()
        #expect(events.count == 2)
        #expect(events[1].timestamp == 15)
        #expect(events[1].thread == .numbered(2))
        guard case .callbackEnd(let name, let scene) = events[1].payload else {
            Issue.record("expected a callback.end")
            return
        }
        #expect(symbols[name] == "willTerminate")
        #expect(symbols[scene] == "s")
    }

    @Test func crlfLineEndsAreAccepted() throws {
        let (_, events, _) = try read("{\"ts\":1,\"type\":\"frame\",\"first\":true}\r\n").get()
        #expect(events == [TraceEvent(timestamp: 1, payload: .frame(first: true))])
    }

    @Test func everyTypeDecodes() throws {
        let text = """
            {"ts":1,"type":"launch","reason":"fetch","background":true,"prewarm":false,"pid":42}
            {"ts":2,"type":"state","to":"background","scene":"main"}
            {"ts":3,"type":"callback.end","name":"x","scene":"main"}
            {"ts":4,"type":"runloop.sleep"}
            {"ts":5,"type":"signpost.begin","name":"n","id":3}
            {"ts":6,"type":"signpost.end","name":"n","id":3}
            {"ts":7,"type":"bgtask.begin","id":1,"name":"upload"}
            {"ts":8,"type":"bgtask.end","id":1}
            {"ts":9,"type":"bgtask.expire","id":2}
            {"ts":10,"type":"exit","code":-1,"signal":9}
            {"ts":11,"type":"dropped","count":12}
            """
        let (_, events, symbols) = try read(text).get()
        #expect(events.map(\.type) == [
            .launch, .state, .callbackEnd, .runloopSleep, .signpostBegin, .signpostEnd, .bgtaskBegin, .bgtaskEnd,
            .bgtaskExpire, .exit, .dropped,
        ])
        #expect(events[0].payload == .launch(reason: symbols.lookup("fetch")!, background: true, prewarm: false, pid: 42))
        #expect(events[4].payload == .signpostBegin(name: symbols.lookup("n")!, id: 3))
        #expect(events[7].payload == .bgtaskEnd(id: 1, name: .none))
        #expect(events[9].payload == .exit(code: -1, signal: 9))
        #expect(events[10].payload == .dropped(count: 12))
    }

    @Test func aLineLongerThanTheLimitIsRejectedWithoutReadingItWhole() {
        var lines = JSONLLineReader(
            bytes: Array(("{\"ts\":1,\"type\":\"frame\"}\n" + String(repeating: " ", count: 100)).utf8),
            name: "big.jsonl", maxLineLength: 64)
        #expect((try? lines.nextLine()) != nil)
        #expect(throws: TraceError(.limitExceeded, file: "big.jsonl", at: .line(2, column: 65), "line longer than 64 bytes")) {
            _ = try lines.nextLine()
        }
    }

    @Test func aHugeLineInAFileIsRejectedAtTheLimit() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("huge-\(getpid()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = Array("{\"ts\":1,\"type\":\"frame\"}\n{\"ts\":2,\"type\":\"mark\",\"name\":\"".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var reader = try JSONLTraceReader(path: path)
        #expect(try reader.next()?.timestamp == 1)
        #expect(throws: TraceError(.limitExceeded, file: path, at: .line(2, column: 1_048_577), "line longer than 1048576 bytes")) {
            _ = try reader.next()
        }
    }

    @Test func standardInputStyleReadingContinuesAfterAPrefix() throws {
        var descriptors: [Int32] = [0, 0]
        #expect(pipe(&descriptors) == 0)
        let text = "{\"ts\":1,\"type\":\"frame\"}\n{\"ts\":2,\"type\":\"frame\"}\n"
        let bytes = Array(text.utf8)
        // The first 10 bytes were read already (to tell the input's kind); the rest come from the pipe.
        _ = bytes[10...].withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) }
        close(descriptors[1])
        let handle = FileDescriptorHandle(descriptor: descriptors[0], owned: true)
        var reader = try JSONLTraceReader(handle: handle, name: "-", prefix: Array(bytes[..<10]))
        #expect(try reader.next()?.timestamp == 1)
        #expect(try reader.next()?.timestamp == 2)
        #expect(try reader.next() == nil)
    }

    private func symbolOf(_ event: TraceEvent) -> Symbol {
        if case .callbackBegin(let name, _) = event.payload { return name }
        return .none
    }
}
