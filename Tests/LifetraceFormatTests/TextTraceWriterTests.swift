import Foundation
import LifetraceOutput
import Testing

@testable import LifetraceFormat

@Suite struct TextTraceWriterTests {
    @Test func linesHaveAlignedColumns() {
        var symbols = SymbolTable()
        let user = symbols.intern("user")
        let name = symbols.intern("didFinishLaunching")
        let odd = symbols.intern("two words")
        let origin: Int64 = 5_000_000_000
        let launch = TraceEvent(timestamp: origin, payload: .launch(reason: user, background: false, prewarm: true, pid: 812))
        let begin = TraceEvent(
            timestamp: origin + 312_450_999, payload: .callbackBegin(name: name, scene: .none))
        let mark = TraceEvent(timestamp: origin + 1_234_567_000_000, payload: .mark(name: odd), thread: .numbered(12))
        let wake = TraceEvent(timestamp: origin - 1_500_000, payload: .runloopWake)
        #expect(TextTraceWriter.line(for: launch, symbols: symbols, origin: origin)
            == "     +0.000000 s  system  main     launch          reason=user prewarm=true pid=812")
        #expect(TextTraceWriter.line(for: begin, symbols: symbols, origin: origin)
            == "     +0.312450 s  app     main     callback.begin  name=didFinishLaunching")
        #expect(TextTraceWriter.line(for: mark, symbols: symbols, origin: origin)
            == "  +1234.567000 s  app     12       mark            name=\"two words\"")
        #expect(TextTraceWriter.line(for: wake, symbols: symbols, origin: origin)
            == "     -0.001500 s  app     main     runloop.wake")
    }

    @Test func metadataComesFirstAndTimeCountsFromTheFirstEvent() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(getpid()).txt").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TextTraceWriter(path: path, metadata: TraceMetadata([("app", "com.example.Notes")]))
        try writer.append(TraceEvent(timestamp: 7_000, payload: .frame(first: true)), symbols: SymbolTable())
        try writer.append(TraceEvent(timestamp: 16_674_000, payload: .frame(first: nil)), symbols: SymbolTable())
        try writer.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == """
            # app: com.example.Notes
            # time: since the trace's first event
                 +0.000000 s  app     main     frame           first=true
                 +0.016667 s  app     main     frame

            """)
    }

    @Test func writingToADeviceLeavesTheDeviceInPlace() throws {
        let writer = try JSONLTraceWriter(path: "/dev/null", metadata: TraceMetadata([("app", "x")]))
        try writer.append(TraceEvent(timestamp: 1, payload: .runloopWake), symbols: SymbolTable())
        try writer.close()
        var info = stat()
        #expect(stat("/dev/null", &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFCHR)
    }
}
