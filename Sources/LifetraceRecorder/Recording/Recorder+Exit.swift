import CRecorderSignals

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Recorder {
    /// How long a crash handler waits for the writer thread to seal the trace before it hands the
    /// signal on; past it, what the writer had not written stays in the region.
    static let crashSealTimeout: Duration = .seconds(2)

    /// Makes a standalone recorder write the process's `exit`: with the code on `exit()` or a
    /// return from `main`, with the signal on SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP
    /// (the handler chains to the one installed before it). Called once, by ``start(_:)``.
    func installExitHandlers() {
        _ = lifetrace_install_crash_handlers(region.exitWords(sealTimeout: Recorder.crashSealTimeout))
        #if canImport(Glibc)
        on_exit({ status, _ in Recorder.processExiting(code: status) }, nil)
        #else
        // Darwin has no `on_exit`: the code is not known there, so no `exit` is written; the
        // trace is still closed.
        atexit { Recorder.processExiting(code: nil) }
        #endif
    }

    /// The process is exiting: writes the exit fact (when the code is known) and seals the trace.
    static func processExiting(code: Int32?) {
        guard let recorder = shared else { return }
        if let code { _ = lifetrace_store_exit_fact(1, Int64(code)) }
        try? recorder.stop()
    }
}
