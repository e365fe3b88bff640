/// Standard error for messages, written as far as it can be.
public enum StandardError {
    /// Writes `text` to standard error. A failed write (a full disk, a file size limit, a closed
    /// descriptor) is ignored: there is nowhere left to report it, and `FileHandle.write` would
    /// trap, turning a documented exit code into a crash.
    public static func write(_ text: String) {
        let file = StagedOutputFile(fileDescriptor: 2, name: "standard error")
        do throws(TraceError) {
            try file.write(text)
            try file.flush()
        } catch {
            return
        }
    }
}
