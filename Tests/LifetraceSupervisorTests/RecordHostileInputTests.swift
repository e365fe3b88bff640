import Foundation
import Testing

/// `lifetrace record` against hostile scenarios and apps (docs/RELIABILITY.md): one-line errors
/// with a location and exit 2, no trace left behind when nothing was recorded, and nothing the
/// app started left running.
@Suite struct RecordHostileInputTests {
    struct Run {
        var status: Int32
        var standardError: String
        var leftovers: [String]
        var pid: Int32
        /// The app's processes seen when the signal was sent.
        var app: [Int32] = []
    }

    /// Runs `record` in a fresh directory with `scenario` (when given) and `app`.
    func record(scenario: String?, app: [String], signal: Int32? = nil) throws -> Run {
        let directory = NSTemporaryDirectory() + "record-hostile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var arguments = ["record", "-o", directory + "/run.ltrace"]
        if let scenario {
            try scenario.write(toFile: directory + "/s.yaml", atomically: true, encoding: .utf8)
            arguments += ["--scenario", directory + "/s.yaml"]
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("lifetrace"))
        process.arguments = arguments + ["--"] + app
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        var app: [Int32] = []
        if let signal {
            // Signalled as soon as the app runs, the moment a signal could once leave it behind.
            let deadline = ContinuousClock.now + .seconds(30)
            while app.isEmpty && ContinuousClock.now < deadline {
                app = Self.children(of: process.processIdentifier)
                if app.isEmpty { usleep(1_000) }
            }
            kill(process.processIdentifier, signal)
        }
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "s.yaml" }.sorted()
        return Run(
            status: process.terminationStatus, standardError: text, leftovers: leftovers,
            pid: process.processIdentifier, app: app)
    }

    func expectOneLine(_ run: Run, containing fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(run.status == 2, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.contains(fragment), "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(!run.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, sourceLocation: sourceLocation)
    }

    @Test("durations that are infinite, huge or past 2^60 ns are one-line errors")
    func hostileDurations() throws {
        let cases: [(String, String)] = [
            ("steps:\n  - launch\n  - wait: .inf\n", "step 2: expected a number of seconds"),
            ("steps:\n  - launch\n  - wait: 99999999999999999999s\n", "step 2: invalid duration \"99999999999999999999s\""),
            ("steps:\n  - launch\ntimeouts: {command: 1e300s}\n", "timeouts.command: invalid duration \"1e300s\""),
            ("steps:\n  - launch\n  - interruption: 1e300\n", "step 2: expected a number of seconds"),
        ]
        for (scenario, fragment) in cases {
            let run = try record(scenario: scenario, app: ["/bin/true"])
            expectOneLine(run, containing: fragment)
            #expect(run.leftovers.isEmpty)
        }
    }

    @Test("a YAML alias bomb is refused before it expands")
    func aliasBomb() throws {
        var yaml = "a: &a [x, x, x, x, x, x, x, x, x]\n"
        var previous = "a"
        for level in 1..<10 {
            let name = String(UnicodeScalar(UInt8(97 + level)))
            yaml += "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ", ") + "]\n"
            previous = name
        }
        yaml += "steps:\n  - launch\n"
        let run = try record(scenario: yaml, app: ["/bin/true"])
        expectOneLine(run, containing: "expands to more than 100000 values")
    }

    @Test("a YAML syntax error is one line with its place, control characters escaped")
    func syntaxError() throws {
        let run = try record(scenario: "steps:\n  - launch\n  - wait: [\u{1B}[31m\n", app: ["/bin/true"])
        expectOneLine(run, containing: "s.yaml: not YAML: ")
        #expect(!run.standardError.contains("\u{1B}"))
    }

    @Test("an app that cannot start leaves no trace behind")
    func missingApp() throws {
        let run = try record(scenario: nil, app: ["/nonexistent/app"])
        #expect(run.status == 8)
        #expect(run.leftovers.isEmpty)
    }

    @Test("what the app started ends with it: the app runs in its own process group")
    func processGroup() throws {
        let directory = NSTemporaryDirectory() + "record-group-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pidFile = directory + "/pid"
        let app = ["/bin/sh", "-c", "trap '' TERM INT HUP; sleep 1000 & echo $! > \(pidFile); wait"]
        let run = try record(scenario: "steps:\n  - launch\ntimeouts: {launch: 500ms, command: 500ms}\n", app: app)
        #expect(run.status == 5)
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(Int32(text))
        #expect(Self.endsSoon(pid), "the app's child \(pid) is still running")
    }

    @Test("SIGINT ends the app's group, closes the trace and removes the region")
    func interrupted() throws {
        let run = try record(scenario: nil, app: ["/bin/sh", "-c", "trap '' TERM INT HUP; sleep 1000"], signal: SIGINT)
        #expect(run.status == SIGINT)
        #expect(run.leftovers == ["run.ltrace"])
        #expect(!run.app.isEmpty)
        for pid in run.app {
            #expect(Self.endsSoon(pid), "the app \(pid) is still running")
        }
        // The regions of this run are named after its process id (other tests record at once).
        let regions = ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
            .filter { $0.hasPrefix("lifetrace-\(run.pid)-") }
        #expect(regions.isEmpty)
    }

    /// The children of every thread of `pid`, from /proc.
    private static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { Int32($0) }
        }
    }

    /// Whether `pid` has ended (or is a zombie) within two seconds; killed if not, so that a
    /// failing test leaves nothing running.
    private static func endsSoon(_ pid: Int32) -> Bool {
        var gone = false
        for _ in 0..<200 where !gone {
            gone = kill(pid, 0) != 0 || isZombie(pid)
            if !gone { usleep(10_000) }
        }
        if !gone { kill(pid, SIGKILL) }
        return gone
    }

    private static func isZombie(_ pid: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return true }
        return status.contains("State:\tZ")
    }
}
