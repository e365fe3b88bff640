import Foundation
import Lifetrace
import LifetraceFormat
import LifetraceRecorder
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `Lifetrace.start()` end to end on Linux, in `Samples/AdoptionDemo`, a process of its own: where
/// its traces land, what they hold, and the retention across many runs.
struct AdoptionDemoTests {
    static var demo: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("AdoptionDemo").path
    }

    static func traces(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".ltrace") }.sorted()
    }

    @Test("each run leaves a trace in Library/Caches/Lifetrace; 22 runs leave the newest 20 and a leftover region's trace")
    func defaultDirectoryAndRetention() throws {
        let home = try ScratchDirectory.make("adoption-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let directory = home + "/Library/Caches/Lifetrace"
        // A trace whose region was left by a run that cannot be recovered (not a region): kept.
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let leftover = "lifetrace-20000101-000000.000-1.ltrace"
        _ = FileManager.default.createFile(atPath: directory + "/" + leftover, contents: Data(count: 16))
        _ = FileManager.default.createFile(atPath: directory + "/" + leftover + TraceRecovery.regionSuffix, contents: Data(count: 16))
        var first = ""
        for run in 1...22 {
            let result = try ChildProcess.run(Self.demo, [], environment: ["HOME": home])
            #expect(result.status == 0, "\(result.error)")
            if run == 1 { first = Self.traces(in: directory).last ?? "" }
        }
        let left = Self.traces(in: directory)
        #expect(left.count == 20)
        #expect(left.first == leftover)
        #expect(!left.contains(first))

        var source = try TraceInputs.open(path: directory + "/" + left.last!)
        var lines: [String] = []
        while let event = try source.next() {
            switch event.payload {
            case .signpostBegin(let name, _): lines.append("signpost.begin \(source.symbols[name])")
            case .mark(let name): lines.append("mark \(source.symbols[name])")
            case .exit(let code, _): lines.append("exit \(code.map(String.init) ?? "-")")
            default: lines.append(event.type.name)
            }
        }
        #expect(lines == ["launch", "runloop.wake", "signpost.begin OpenDatabase", "signpost.end", "mark ScreenShown", "exit 0"])
        #expect(source.metadata["recorder"] == AppMetadata.recorderName)
        #expect(source.metadata[LaunchFacts.recordingStartKey] != nil)
    }

    @Test("LIFETRACE_OUTPUT naming a directory gets a file per run there, and nothing in the default directory")
    func environmentDirectory() throws {
        let home = try ScratchDirectory.make("adoption-env")
        defer { try? FileManager.default.removeItem(atPath: home) }
        for _ in 1...3 {
            let result = try ChildProcess.run(Self.demo, [], environment: ["HOME": home, "LIFETRACE_OUTPUT": "~/uitest/"])
            #expect(result.status == 0, "\(result.error)")
        }
        #expect(Self.traces(in: home + "/uitest").count == 3)
        #expect(Self.traces(in: home + "/Library/Caches/Lifetrace").isEmpty)
    }
}
