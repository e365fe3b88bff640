import ArgumentParser
import LifetraceRecorder
import LifetraceZstd

/// `lifetrace recover`: seals the trace of a standalone recorder that was killed.
struct RecoverCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recover",
        abstract: "Seal the trace of a self-recording app that was killed, from the region beside it.",
        discussion: """
            PATH is the trace path the app's recorder was given. A recorder writing its own trace \
            keeps a region file beside it (PATH.lifetrace-region) holding every event not yet in \
            the trace. recover appends those events and an exit event (the process's own code or \
            signal if its handlers wrote one, else an exit marked as inferred, with no code and no \
            signal, at the last event's time), closes the trace and removes the region. A trace \
            whose process still runs is refused; a trace with no region is left as it is, so \
            recovering twice changes nothing. The recorder does the same for leftovers in its \
            directory when it starts. Recovery never passes damage off as a whole trace: a damaged \
            chunk, a committed length the file does not hold, or region records that cannot be \
            events are listed on standard error, one line each, and the sealed trace is marked as \
            missing data (info lists it, check fails it). Nothing is written through a symbolic \
            link: a trace path or region that is one is refused. Exit status: 0 sealed whole or \
            nothing to recover, 2 still recording, being recovered by another process, unreadable \
            region, or a trace path that is a link or not a file, 3 sealed with data missing, 7 the \
            trace could not be written (docs/CLI.md).
            """)

    @Argument(help: "The trace path the recorder was given.")
    var path: String

    func run() throws {
        let outcome: TraceRecovery.Outcome
        do throws(RecoveryError) {
            outcome = try TraceRecovery.recover(tracePath: path, codec: ZstdCodec())
        } catch {
            printError(error.description)
            throw (error.kind == .writeFailed ? ExitStatus.outputFailed : .badInput).exit
        }
        switch outcome {
        case .nothingToRecover:
            try StandardOutput.print("\(path): nothing to recover (no region beside it)\n")
        case .sealed(let fromFile, let fromRegion, let inferredExit, let losses):
            try StandardOutput.print(
                "\(path): \(losses.isEmpty ? "sealed" : "sealed with data missing"): \(fromFile) events were in the file, \(fromRegion) recovered from the region, "
                    + (inferredExit ? "exit inferred (the process left no code or signal)" : "exit as the process wrote it") + "\n")
            for loss in losses { printError("\(path): lost: \(loss)") }
            if !losses.isEmpty { throw ExitStatus.dataMissing.exit }
        }
    }
}
