import ArgumentParser
import Foundation
import LifetraceFormat
import LifetraceZstd
import LifetraceRecorder
import LifetraceSupervisor

/// `lifetrace record`: runs an app under a scenario, playing the system, and writes one trace.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Run an app on the lifecycle host under a scenario and record its life cycle.",
        discussion: """
            The app is started as a child process and must use LifecycleHost. The system's events \
            (launch, state, exit) and the app's events go to one binary trace. Without --scenario \
            the default scenario runs (docs/RECORDING.md).

            Exit status: 0 the scenario completed; 2 bad usage, scenario or fault name; 4 the app \
            crashed or exited before the scenario ended; 5 the app stopped answering and was \
            killed; 6 the app refused a command; 7 the trace could not be written; 8 the app could \
            not be started (docs/CLI.md).
            """)

    @Option(name: .shortAndLong, help: "The trace file to write (not needed with --list-faults).")
    var output: String?

    @Option(name: .long, help: "A scenario file (YAML); the default scenario runs without it.")
    var scenario: String?

    @Option(
        name: .customLong("parameter"),
        help: "Set a parameter the scenario declares, NAME=DURATION (repeatable): --parameter away=2s.")
    var parameters: [String] = []

    @Option(name: .customLong("fault"), help: "Inject a fault (repeatable); --list-faults shows them.")
    var faults: [String] = []

    @Flag(
        name: .customLong("list-faults"),
        help: "List the faults, the rule that catches each and the scenario it needs (tab-separated), then exit.")
    var listFaults = false

    @Argument(parsing: .postTerminator, help: "The app and its arguments, after --.")
    var command: [String] = []

    func run() throws {
        if listFaults {
            try StandardOutput.print(RecordFault.allCases.map { fault in
                let scenario = fault.scenario == "default" ? "default" : "Samples/scenarios/\(fault.scenario).yaml"
                return "\(fault.name)\t\(fault.rule)\t\(scenario)\n"
            }.joined())
            return
        }
        guard let output else { throw fail("give the trace file to write with -o", code: .badInput) }
        // Checked here, after --list-faults, which needs neither.
        guard !command.isEmpty else { throw fail("give the app to run after --", code: .badInput) }
        if let unknown = faults.first(where: { RecordFault(name: $0) == nil }) {
            throw fail("unknown fault '\(unknown)' (see --list-faults)", code: .badInput)
        }
        var values: [String: String] = [:]
        for parameter in parameters {
            guard let equals = parameter.firstIndex(of: "="), equals != parameter.startIndex else {
                throw fail("--parameter takes NAME=DURATION, not '\(parameter)'", code: .badInput)
            }
            values[String(parameter[..<equals])] = String(parameter[parameter.index(after: equals)...])
        }
        guard values.isEmpty || self.scenario != nil else {
            throw fail("--parameter needs a --scenario that declares it", code: .badInput)
        }
        let scenario: Scenario
        do {
            scenario = try self.scenario.map { path throws(SupervisorError) in
                try Scenario.load(path: path, parameters: values)
            } ?? .standard
        } catch {
            throw fail(error.description, code: .badInput)
        }
        let configuration = RecordSession.Configuration(
            executable: command[0], arguments: Array(command.dropFirst()), scenario: scenario,
            faults: faults.compactMap(RecordFault.init(name:)))
        // The inputs of the run (the scenario, the app, the app's arguments that name files, and
        // the files named in their option values, `--config=PATH`) are never replaced by the
        // trace: refused before anything is written.
        do throws(TraceError) {
            let arguments = command.dropFirst()
            let optionValues = arguments.compactMap { argument in
                argument.firstIndex(of: "=").map { String(argument[argument.index(after: $0)...]) }
            }
            let inputs = [self.scenario, Self.executablePath(command[0])].compactMap { $0 } + arguments + optionValues
            try StagedOutputFile.refuseOverwriting(inputs, with: output)
        } catch {
            throw fail(error.description, code: .badInput)
        }
        // Written under a temporary name beside -o and renamed into place once the run has a
        // trace to show: an app that never started, or a trace that could not be written (a full
        // disk), leaves what was at -o as it was, and nothing new.
        let staged: StagedOutputFile
        let writer: TraceWriter
        do {
            staged = try StagedOutputFile(path: output)
            writer = try TraceWriter(
                fileDescriptor: staged.descriptor, name: output, metadata: RecordSession.metadata(for: configuration))
        } catch {
            throw fail(error.description, code: .outputFailed)
        }
        // On SIGINT, SIGTERM or SIGHUP the app's group is killed first (ChildProcess); the session
        // then ends as it does when the app dies, and the trace is closed here before the signal
        // is raised again.
        let stop = SignalStop()
        let token = OutputCleanup.onSignal { stop.awaitClose() }
        defer { OutputCleanup.cancel(token) }
        let outcome: RecordOutcome
        let session = RecordSession(configuration: configuration, sink: writer)
        do {
            outcome = try session.run()
            // Records of the app's region that could not be read are data missing from the run,
            // as in a recovered trace: every reader reports it (docs/FORMAT.md, End_Flags).
            writer.marksDataLost = session.lostEvents.rejected > 0
            try writer.close()
            try staged.commit()
            stop.closed()
        } catch let error as SupervisorError {
            // A trace not written whole, or one without an event (an app that never started),
            // goes; the run of an app that started once and could not be started again is kept.
            if error.kind != .traceFailed && writer.writtenEventCount > 0 {
                try? writer.close()
                try? staged.commit()
            } else {
                staged.discard()
            }
            stop.closed()
            throw fail(error.description, code: error.kind == .traceFailed ? .outputFailed : .appNotStarted)
        } catch let error as TraceError {
            staged.discard()
            stop.closed()
            throw fail(error.description, code: .outputFailed)
        }
        let lost = session.lostEvents
        if lost.dropped > 0 {
            let rejected = lost.rejected > 0
                ? " (\(lost.rejected) of them records in its region that cannot be events: an unknown or system type, or a time out of range)"
                : ""
            writeToStandardError(
                "lifetrace: warning: the app's recorder lost \(lost.dropped) events\(rejected); the trace counts them in dropped events\(rejected.isEmpty ? "" : " and is marked as missing data")\n")
        }
        if outcome != .completed { throw fail(outcome.description, code: ExitStatus(rawValue: outcome.exitCode) ?? .appEnded) }
    }

    /// The file `lifetrace record` will run for `executable`: the path itself when it has a
    /// slash, else the first executable of that name in `PATH` (as `posix_spawnp` looks), or nil.
    static func executablePath(_ executable: String) -> String? {
        if executable.contains("/") { return executable }
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory.isEmpty ? "." : String(directory))/\(executable)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Lets the signal thread wait, a bounded time, for the trace to be closed.
    private final class SignalStop: Sendable {
        private let done = DispatchSemaphore(value: 0)
        private let signalled = Locked(false)

        /// On the signal thread: waits up to five seconds for ``closed()``.
        func awaitClose() {
            signalled.withLock { $0 = true }
            _ = done.wait(timeout: .now() + 5)
        }

        /// The trace is closed. After a signal, the process waits here to be ended by it, so
        /// that nothing is printed about the app the signal killed.
        func closed() {
            done.signal()
            if signalled.withLock({ $0 }) { while true { pause() } }
        }
    }

    private func fail(_ message: String, code: ExitStatus) -> ExitCode {
        printError(message)
        return code.exit
    }
}
