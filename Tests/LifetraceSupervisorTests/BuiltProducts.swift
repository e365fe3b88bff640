import Foundation
import LifetraceFormat
import LifetraceRecorder

/// The executables built next to the test bundle.
enum BuiltProducts {
    static var directory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }
}

/// A recorded trace kept in memory, with helpers to read it in tests.
struct RecordedTrace {
    var events: [TraceEvent]
    var symbols: SymbolTable
    var issues: [TraceError] = []
    /// The trace's metadata (read from a file; empty for a collection).
    var metadata = TraceMetadata()

    init(_ collection: TraceEventCollection) {
        (events, symbols) = collection.snapshot
    }

    /// The events in time order (system and app streams merged).
    var merged: [TraceEvent] {
        events.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }.map(\.element)
    }

    /// A one-line text for an event: `type name` or `state to`.
    func line(_ event: TraceEvent) -> String {
        switch event.payload {
        case .launch(let reason, let background, _, _): "launch \(symbols[reason])\(background ? " background" : "")"
        case .state(let to, let scene): "state \(to.name)" + (scene.isNone ? "" : " \(symbols[scene])")
        case .callbackBegin(let name, let scene): "begin \(symbols[name])" + (scene.isNone ? "" : " \(symbols[scene])")
        case .callbackEnd(let name, let scene): "end \(symbols[name])" + (scene.isNone ? "" : " \(symbols[scene])")
        case .signpostBegin(let name, _): "signpost.begin \(symbols[name])"
        case .signpostEnd(let name, _): "signpost.end \(symbols[name])"
        case .mark(let name): "mark \(symbols[name])"
        case .bgtaskBegin(_, let name): "bgtask.begin \(symbols[name])"
        case .bgtaskEnd(_, let name): "bgtask.end \(symbols[name])"
        case .bgtaskExpire(_, let name): "bgtask.expire \(symbols[name])"
        case .exit(let code, let signal): "exit " + (signal.map { "signal \($0)" } ?? "code \(code ?? 0)")
        default: event.type.name
        }
    }

    /// The merged lines without run-loop events.
    var lifecycleLines: [String] {
        merged.filter { $0.type != .runloopWake && $0.type != .runloopSleep }.map(line)
    }
}
