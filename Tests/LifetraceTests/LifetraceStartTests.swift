import Foundation
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `Lifetrace.start` and `Lifetrace.stop` in processes of their own (the recorder is one per
/// process): a second start, a stop that seals the trace, and a start that cannot record.
struct LifetraceStartTests {
    static func built(_ product: String) -> String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(product).path
    }

    @Test("LIFETRACE_OUTPUT naming a FIFO never holds the app's start: one line, the app runs unrecorded, the FIFO untouched")
    func fifoOutputIsRefusedWithoutWaiting() throws {
        let directory = try ScratchDirectory.make("lifetrace-fifo")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/trace.ltrace"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Under `timeout`: a start that opened the FIFO for a reader to come would never return (124).
        let result = try ChildProcess.run(
            "/usr/bin/timeout", ["30", Self.built("LifetraceStartProbe"), directory], environment: ["HOME": directory, "LIFETRACE_OUTPUT": fifo])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("start false\n"), "\(result.output)")
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines.first == "lifetrace: cannot start recording: cannot write trace \(fifo): a FIFO, not a regular file: "
            + "an app's trace is never waited on", "\(result.error)")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        // No region was left beside it for a later start to take for a trace's.
        #expect(!FileManager.default.fileExists(atPath: fifo + ".lifetrace-region"))
    }

    @Test("a second start with another configuration returns false and says so; stop seals the trace and nothing is recorded after it")
    func secondStartAndStop() throws {
        let directory = try ScratchDirectory.make("lifetrace-start")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try ChildProcess.run(Self.built("LifetraceStartProbe"), [directory], environment: ["HOME": directory])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(lines)")
        guard lines.count == 7 else { return }
        #expect(lines[0] == "start true")
        #expect(lines[1] == "start same true")
        #expect(lines[2] == "start other false")
        #expect(lines[3] == "stop true")
        // Sealed at the stop: the trace and no region beside it.
        let files = lines[4].split(separator: " ").dropFirst().map(String.init)
        #expect(files.count == 1 && files[0].hasSuffix(".ltrace"), "\(files)")
        #expect(lines[5] == "start after stop false")
        #expect(lines[6] == "stop again true")
        #expect(result.error.split(separator: "\n").map(String.init) == [
            "lifetrace: already recording; a second start with another configuration changes nothing",
            "lifetrace: recording was stopped; it does not start again in this process",
        ])
        #expect(!FileManager.default.fileExists(atPath: directory + "/other"))

        guard let trace = files.first else { return }
        var source = try TraceInputs.open(path: directory + "/" + trace)
        var marks: [String] = []
        var types: [String] = []
        while let event = try source.next() {
            types.append(event.type.name)
            if case .mark(let name) = event.payload { marks.append(source.symbols[name]) }
        }
        #expect(marks == ["BeforeStop"])
        #expect(!types.contains("exit"), "\(types)")
    }

    @Test("a start that cannot write its trace says why on one line that names the file once")
    func startFailure() throws {
        let scratch = try ScratchDirectory.make("lifetrace-start-failure")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // The home directory is a file: no directory can be made in it.
        let home = scratch + "/home"
        #expect(FileManager.default.createFile(atPath: home, contents: Data()))
        let result = try ChildProcess.run(Self.built("AdoptionDemo"), [], environment: ["HOME": home])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.error.split(separator: "\n").map(String.init).filter { $0.hasPrefix("lifetrace: ") }
        #expect(lines.count == 1, "\(result.error)")
        let line = lines.first ?? ""
        #expect(line.hasPrefix("lifetrace: cannot start recording: cannot write trace \(home)/Library/Caches/Lifetrace/lifetrace-"), "\(line)")
        #expect(line.hasSuffix(".ltrace: cannot create: Not a directory"), "\(line)")
        #expect(line.components(separatedBy: home).count == 2, "\(line)")
    }
}
