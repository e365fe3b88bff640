import Foundation
import LifetraceFormat

extension RecorderOutput {
    /// Refuses, at once and without waiting, a trace path that is not a regular file: a FIFO
    /// (whose `open` for writing waits for a reader: on the main thread at launch, a watchdog
    /// kill; and whose reader going away makes the next write a SIGPIPE, which kills the app), a
    /// device, a socket, a directory. The file is opened without blocking (`O_NONBLOCK`: a FIFO
    /// without a reader is refused with ENXIO rather than waited on) and not through a link, as
    /// the trace writer opens it; a path that does not exist yet is created, a regular file.
    /// The app then runs unrecorded, with one line saying why (docs/RECORDING.md).
    static func refuseNonRegularFile(_ path: String) throws(RecorderError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o666)
        let what: String?
        if descriptor >= 0 {
            what = FileFacts.notRegularKind(descriptor: descriptor)
            close(descriptor)
        } else {
            // A FIFO without a reader (or a socket) refuses a writer that will not wait: ENXIO.
            // Every other failure is the trace writer's to say, as it always has.
            guard errno == ENXIO else { return }
            what = FileFacts.notRegularKind(path: path)
        }
        guard let what else { return }
        throw RecorderError(.writeFailed, path: path, errno: 0, detail: "\(what), not a regular file: an app's trace is never waited on")
    }
}
