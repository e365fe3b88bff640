@testable import LifetraceFormat
import LifetraceRunner
import LifetraceZstd

/// A small deterministic generator (SplitMix64) so random tests can be replayed from their seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E1CB
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random events of every type, on both streams and several threads, with unicode strings and
/// timestamps that mostly go forward but sometimes jump back.
struct RandomTrace {
    var symbols = SymbolTable()
    var events: [TraceEvent] = []

    static let names = [
        "didFinishLaunching", "sceneDidBecomeActive", "render", "😀 emoji", "Größe", "日本語", "", "a\"quote",
        "net.fetch", "db.query", "com.example.scene-1",
    ]

    init(seed: UInt64, count: Int, backwards: Bool = true) {
        var random = SeededGenerator(seed: seed)
        var timestamp = Int64.random(in: -1_000_000...1_000_000_000, using: &random)
        for _ in 0..<count {
            if backwards && Int.random(in: 0..<50, using: &random) == 0 {
                timestamp -= Int64.random(in: 1...5_000_000, using: &random)
            } else {
                timestamp += Int64.random(in: 0...20_000_000, using: &random)
            }
            let payload = randomPayload(&random)
            let thread: ThreadID = Int.random(in: 0..<4, using: &random) == 0
                ? .numbered(UInt64.random(in: 0...(Bool.random(using: &random) ? 5 : ThreadID.maxNumber), using: &random)) : .main
            let stream: TraceStream? = Int.random(in: 0..<10, using: &random) == 0 ? (Bool.random(using: &random) ? .system : .app) : nil
            events.append(TraceEvent(timestamp: timestamp, payload: payload, stream: stream, thread: thread))
        }
    }

    private mutating func name(_ random: inout SeededGenerator, optional: Bool = false) -> Symbol {
        if optional && Bool.random(using: &random) { return .none }
        return symbols.intern(RandomTrace.names.randomElement(using: &random)!)
    }

    private func optionalInt(_ random: inout SeededGenerator) -> Int64? {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: nil
        case 1: Int64.min
        case 2: Int64.max
        default: Int64.random(in: -1000...100_000, using: &random)
        }
    }

    private mutating func randomPayload(_ random: inout SeededGenerator) -> EventPayload {
        let type = EventType.allCases.randomElement(using: &random)!
        switch type {
        case .launch:
            return .launch(reason: name(&random, optional: true), background: .random(using: &random),
                           prewarm: .random(using: &random), pid: optionalInt(&random))
        case .state: return .state(to: LifecycleState.allCases.randomElement(using: &random)!, scene: name(&random, optional: true))
        case .callbackBegin: return .callbackBegin(name: name(&random), scene: name(&random, optional: true))
        case .callbackEnd: return .callbackEnd(name: name(&random), scene: name(&random, optional: true))
        case .runloopWake: return .runloopWake
        case .runloopSleep: return .runloopSleep
        case .signpostBegin: return .signpostBegin(name: name(&random), id: optionalInt(&random))
        case .signpostEnd: return .signpostEnd(name: name(&random), id: optionalInt(&random))
        case .mark: return .mark(name: name(&random))
        case .frame: return .frame(first: [nil, true, false].randomElement(using: &random)!)
        case .bgtaskBegin: return .bgtaskBegin(id: optionalInt(&random) ?? 7, name: name(&random, optional: true))
        case .bgtaskEnd: return .bgtaskEnd(id: optionalInt(&random) ?? 7, name: name(&random, optional: true))
        case .bgtaskExpire: return .bgtaskExpire(id: optionalInt(&random) ?? 7, name: name(&random, optional: true))
        case .exit:
            let code: Int32? = Bool.random(using: &random) ? Int32.random(in: Int32.min...Int32.max, using: &random) : nil
            let signal: Int32? = Bool.random(using: &random) ? Int32.random(in: 1...31, using: &random) : nil
            return .exit(code: code, signal: signal)
        case .dropped: return .dropped(count: Int64.random(in: 0...Int64.max, using: &random))
        }
    }
}

/// Helpers shared by the binary format tests.
enum BinaryTraceFixture {
    /// Writes `events` to an in-memory trace via a temporary file and returns its bytes.
    static func write(
        _ events: [TraceEvent], symbols: SymbolTable, metadata: TraceMetadata = TraceMetadata([("app", "com.example")]),
        options: TraceWriter.Options = .init(), flushEvery: Int? = nil, close: Bool = true,
        extra: ((TraceWriter) throws -> Void)? = nil
    ) throws -> [UInt8] {
        let path = temporaryPath()
        defer { unlink(path) }
        let writer = try TraceWriter(path: path, metadata: metadata, options: options)
        for (index, event) in events.enumerated() {
            try writer.append(event, symbols: symbols)
            if let flushEvery, (index + 1) % flushEvery == 0 { try writer.flush() }
        }
        try extra?(writer)
        if close { try writer.close() } else { try writer.flush() }
        return try readFile(path)
    }

    /// Reads every event of `bytes`, with the reader's symbols and issues.
    static func read(_ bytes: [UInt8], options: BinaryTraceReader.Options = .init()) throws -> (events: [TraceEvent], reader: BinaryTraceReader) {
        var reader = try BinaryTraceReader(bytes: bytes, name: "test.ltrace", options: options)
        var events: [TraceEvent] = []
        while let event = try reader.next() { events.append(event) }
        return (events, reader)
    }

    /// `event` with its symbols moved from the table `from` to the table `to`.
    static func remap(_ event: TraceEvent, from: SymbolTable, to: SymbolTable) -> TraceEvent {
        func map(_ symbol: Symbol) -> Symbol { symbol.isNone ? .none : to.lookup(from[symbol]) ?? Symbol(rawValue: UInt32.max) }
        var event = event
        event.payload = switch event.payload {
        case .launch(let reason, let background, let prewarm, let pid):
            .launch(reason: map(reason), background: background, prewarm: prewarm, pid: pid)
        case .state(let to, let scene): .state(to: to, scene: map(scene))
        case .callbackBegin(let name, let scene): .callbackBegin(name: map(name), scene: map(scene))
        case .callbackEnd(let name, let scene): .callbackEnd(name: map(name), scene: map(scene))
        case .signpostBegin(let name, let id): .signpostBegin(name: map(name), id: id)
        case .signpostEnd(let name, let id): .signpostEnd(name: map(name), id: id)
        case .mark(let name): .mark(name: map(name))
        case .bgtaskBegin(let id, let name): .bgtaskBegin(id: id, name: map(name))
        case .bgtaskEnd(let id, let name): .bgtaskEnd(id: id, name: map(name))
        case .bgtaskExpire(let id, let name): .bgtaskExpire(id: id, name: map(name))
        case .runloopWake, .runloopSleep, .frame, .exit, .dropped: event.payload
        }
        return event
    }

    static func temporaryPath() -> String {
        var template = Array("/tmp/lifetrace-test-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        close(descriptor)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func readFile(_ path: String) throws -> [UInt8] {
        let reader = try TraceInputBytes(path: path)
        return reader.all
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file (test fixtures only).
struct TraceInputBytes {
    var all: [UInt8] = []
    init(path: String) throws {
        guard let file = fopen(path, "rb") else { throw TraceError(.io, file: path, "cannot open") }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count == 0 { break }
            all.append(contentsOf: buffer[0..<count])
        }
    }
}
