import Foundation
import LifetraceFormat
import Testing

@testable import LifetraceRecorder

/// The recorder tells names apart by their UTF-8 bytes, as the trace format does: canonically
/// equivalent names are two names, and each comes back out of the trace byte for byte.
@Suite struct RecordedNameBytesTests {
    static let pairs: [(String, String)] = [("cafe\u{301}", "caf\u{E9}"), ("\u{212B}", "\u{C5}")]

    @Test("canonically equivalent names recorded one after the other read back as recorded, byte for byte")
    func equivalentNamesStayApart() throws {
        let sink = TraceEventCollection()
        let recorder = try Recorder(layout: RegionLayout(ringCount: 2, ringCapacity: 1024), sink: sink, flushInterval: .milliseconds(10))
        var recorded: [String] = []
        for (first, second) in Self.pairs {
            let a = recorder.name(first)
            let b = recorder.name(second)
            #expect(a != b, "\(first.unicodeScalars.map(\.value)) and \(second.unicodeScalars.map(\.value)) got one id")
            recorder.mark(a)
            recorder.mark(b)
            recorded += [first, second]
        }
        try recorder.stop()
        let (events, symbols) = sink.snapshot
        let names = events.compactMap { event -> [UInt8]? in
            if case .mark(let name) = event.payload { return Array(symbols[name].utf8) }
            return nil
        }
        #expect(names == recorded.map { Array($0.utf8) })
    }
}
