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
            directory when it starts. Exit status: 0 sealed or nothing to recover, 2 still \
            recording, unreadable region, or write failure.
            """)

    @Argument(help: "The trace path the recorder was given.")
    var path: String

    func run() throws {
        do throws(RecoveryError) {
            switch try TraceRecovery.recover(tracePath: path, codec: ZstdCodec()) {
            case .nothingToRecover:
                print("\(path): nothing to recover (no region beside it; the trace is sealed)")
            case .sealed(let fromFile, let fromRegion, let inferredExit):
                print(
                    "\(path): sealed: \(fromFile) events were in the file, \(fromRegion) recovered from the region, "
                        + (inferredExit ? "exit inferred (the process left no code or signal)" : "exit as the process wrote it"))
            }
        } catch {
            printError(error.description)
            throw ExitCode(2)
        }
    }
}
