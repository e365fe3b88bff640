import Foundation
import LifetraceRunner
import LifetraceZstd
import Testing

@testable import LifetraceFormat

/// Copies of a symbol table share their strings: a snapshot costs nothing and later interning
/// never changes it, so a reader that hands each block a snapshot keeps one table however many
/// distinct names the trace holds.
@Suite struct SymbolSnapshotTests {
    @Test("a snapshot shares the table's storage and still sees only its own strings after more are interned")
    func snapshotsShareStorage() {
        var table = SymbolTable()
        for index in 0..<5_000 { _ = table.intern("scene \(index)") }
        let snapshot = table
        for index in 5_000..<10_000 { _ = table.intern("scene \(index)") }
        #expect(snapshot.storage === table.storage)
        #expect(snapshot.count == 5_001)
        #expect(table.count == 10_001)
        #expect(snapshot.lookup("scene 4999") == Symbol(rawValue: 5_000))
        #expect(snapshot.lookup("scene 5000") == nil)
        #expect(table.lookup("scene 5000") == Symbol(rawValue: 5_001))
        for index in stride(from: 0, to: 10_000, by: 997) {
            #expect(table[Symbol(rawValue: UInt32(index + 1))] == "scene \(index)")
        }
        #expect(snapshot[Symbol(rawValue: 5_000)] == "scene 4999")
    }

    @Test("a copy that interns after another copy did continues on its own strings; neither sees the other's")
    func divergingCopiesKeepValueSemantics() {
        var first = SymbolTable()
        _ = first.intern("shared")
        var second = first
        let a = first.intern("only in first")
        let b = second.intern("only in second")
        #expect(a == b)
        #expect(first[a] == "only in first")
        #expect(second[b] == "only in second")
        #expect(first.lookup("only in second") == nil)
        #expect(second.lookup("only in first") == nil)
        #expect(second.intern("shared") == first.intern("shared"))
        #expect(first.storage !== second.storage)
        let active = second.intern("didBecomeActive")
        #expect(second.callback(active) == .didBecomeActive)
    }

    @Test("canonically equivalent names stay two symbols, and the table grows past many chunks")
    func bytesAndGrowth() {
        var table = SymbolTable()
        let decomposed = table.intern("cafe\u{301}")
        let precomposed = table.intern("caf\u{E9}")
        let angstrom = table.intern("\u{212B}")
        let ring = table.intern("\u{C5}")
        #expect(decomposed != precomposed && angstrom != ring)
        #expect(Array(table[decomposed].utf8) == Array("cafe\u{301}".utf8))
        #expect(Array(table[ring].utf8) == [0xC3, 0x85])
        #expect(table.intern("") != .none)
        for index in 0..<70_000 { _ = table.intern("n\(index)") }
        for index in stride(from: 0, to: 70_000, by: 1_001) { #expect(table.lookup("n\(index)").map { table[$0] } == "n\(index)") }
        #expect(table.count == 70_006)
    }

    @Test("every block the prefetching reader hands over shares one table with the reader's own")
    func prefetchedBlocksShareOneTable() throws {
        let names = 3 * PrefetchingTraceReader.blockCapacity + 100
        var symbols = SymbolTable()
        var events = [TraceEvent(timestamp: 1_000, payload: .launch(reason: .none, background: false, prewarm: false, pid: nil))]
        for index in 0..<names {
            events.append(TraceEvent(timestamp: Int64(2_000 + index), payload: .state(to: .inactive, scene: symbols.intern("scene \(index)"))))
        }
        let bytes = try BinaryTraceFixture.write(events, symbols: symbols, flushEvery: 1_000)
        var reader = PrefetchingTraceReader(try BinaryTraceReader(bytes: bytes, name: "scenes.ltrace"))
        var storages: [ObjectIdentifier] = []
        var seen = 0
        while try reader.nextBatch({ batch, symbols in
            storages.append(ObjectIdentifier(symbols.storage))
            for event in batch {
                if case .state(_, let scene) = event.payload, !scene.isNone {
                    #expect(symbols[scene] == "scene \(seen)")
                    seen += 1
                }
            }
        }) {}
        #expect(seen == names)
        #expect(storages.count >= 4)
        #expect(Set(storages).count == 1)
        #expect(ObjectIdentifier(reader.symbols.storage) == storages.first)
    }
}
