import Foundation
import LifetraceFormat
import LifetraceInstruments

/// The hand-made Instruments exports under `Samples/instruments/`, and ways to read documents.
enum InstrumentsSamples {
    static let directory: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Samples/instruments/"
    }()

    static let lifeCycle = directory + "app-launch.life-cycle-period.xml"
    static let signposts = directory + "app-launch.os-signpost.xml"
    static let tableOfContents = directory + "app-launch.toc.xml"

    /// Reads the documents at `paths` together.
    static func read(_ paths: [String], limits: XctraceLimits = XctraceLimits()) throws -> DecodedTrace {
        let inputs = try paths.map { TraceConverterInput(name: $0, bytes: Array(try Data(contentsOf: URL(fileURLWithPath: $0)))) }
        return try XctraceExport.convert(inputs, limits: limits)
    }

    /// Reads `document`, named `name`, and returns the error it stops with.
    static func error(of document: String, name: String = "test.xml", limits: XctraceLimits = XctraceLimits()) -> TraceError? {
        do {
            _ = try XctraceExport.convert([TraceConverterInput(name: name, bytes: Array(document.utf8))], limits: limits)
            return nil
        } catch {
            return error
        }
    }

    /// An os-signpost export of `rows` (each a row's cells for the columns time, event-type, name).
    static func signpostDocument(_ rows: [String]) -> String {
        """
        <?xml version="1.0"?>
        <trace-query-result>
        <node xpath="//trace-toc[1]/run[1]/data[1]/table[1]"><schema name="os-signpost"><col><mnemonic>time</mnemonic></col><col><mnemonic>event-type</mnemonic></col><col><mnemonic>name</mnemonic></col></schema>
        \(rows.map { "<row>\($0)</row>" }.joined(separator: "\n"))
        </node></trace-query-result>

        """
    }

    /// The events of `trace` as text-form lines, for comparisons.
    static func lines(_ trace: DecodedTrace) -> [String] {
        trace.events.map { event in
            var line = "\(event.timestamp) \(event.type.name)"
            switch event.payload {
            case .launch(_, _, _, let pid): line += " pid \(pid.map(String.init) ?? "-")"
            case .state(let state, _): line += " \(state.name)"
            case .callbackBegin(let name, let scene), .callbackEnd(let name, let scene):
                line += " \(trace.symbols[name])" + (scene.isNone ? "" : " scene \(trace.symbols[scene])")
            case .signpostBegin(let name, let id), .signpostEnd(let name, let id):
                line += " \(trace.symbols[name]) \(id.map(String.init) ?? "-")"
            case .mark(let name): line += " \(trace.symbols[name])"
            case .frame(let first): line += first == true ? " first" : ""
            default: break
            }
            return event.thread.isMain ? line : line + " thread \(event.thread)"
        }
    }
}
