import Foundation
import LifetraceFormat

/// Finds the sample traces under `Samples/traces/` and reads the JSONL subset they use.
///
/// The samples only use the canonical text form of the event model (`docs/FORMAT.md`), so this
/// reader covers exactly that: one JSON object per line, the `callback` shorthand expanded into
/// begin and end, `meta` skipped.
enum SampleTraces {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/traces")

    static func files(suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
    }

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func load(_ name: String) throws -> (events: [TraceEvent], symbols: SymbolTable) {
        let text = try String(contentsOfFile: path(name), encoding: .utf8)
        var symbols = SymbolTable()
        var events: [TraceEvent] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let type = object["type"] as! String
            if type == "meta" { continue }
            let ts = (object["ts"] as! NSNumber).int64Value
            func sym(_ key: String) -> Symbol { (object[key] as? String).map { symbols.intern($0) } ?? .none }
            func int(_ key: String) -> Int64? { (object[key] as? NSNumber)?.int64Value }
            let thread: ThreadID = (object["thread"] as? NSNumber).map { .numbered($0.uint64Value) } ?? .main
            let stream = (object["stream"] as? String).flatMap(TraceStream.init(name:))
            func add(_ at: Int64, _ payload: EventPayload) {
                events.append(TraceEvent(timestamp: at, payload: payload, stream: stream, thread: thread))
            }
            switch type {
            case "launch":
                add(ts, .launch(reason: sym("reason"), background: object["background"] as? Bool ?? false,
                                prewarm: object["prewarm"] as? Bool ?? false, pid: int("pid")))
            case "state":
                add(ts, .state(to: LifecycleState(name: object["to"] as! String)!, scene: sym("scene")))
            case "callback":
                add(ts, .callbackBegin(name: sym("name"), scene: sym("scene")))
                add(ts + (int("dur") ?? 0), .callbackEnd(name: sym("name"), scene: sym("scene")))
            case "callback.begin": add(ts, .callbackBegin(name: sym("name"), scene: sym("scene")))
            case "callback.end": add(ts, .callbackEnd(name: sym("name"), scene: sym("scene")))
            case "runloop.wake": add(ts, .runloopWake)
            case "runloop.sleep": add(ts, .runloopSleep)
            case "signpost.begin": add(ts, .signpostBegin(name: sym("name"), id: int("id")))
            case "signpost.end": add(ts, .signpostEnd(name: sym("name"), id: int("id")))
            case "mark": add(ts, .mark(name: sym("name")))
            case "frame": add(ts, .frame(first: object["first"] as? Bool))
            case "bgtask.begin": add(ts, .bgtaskBegin(id: int("id")!, name: sym("name")))
            case "bgtask.end": add(ts, .bgtaskEnd(id: int("id")!, name: sym("name")))
            case "bgtask.expire": add(ts, .bgtaskExpire(id: int("id")!, name: sym("name")))
            case "exit": add(ts, .exit(code: int("code").map { Int32($0) }, signal: int("signal").map { Int32($0) }))
            case "dropped": add(ts, .dropped(count: int("count")!))
            default: throw SampleError.unknownType(type)
            }
        }
        return (events, symbols)
    }

    enum SampleError: Error { case unknownType(String) }
}
