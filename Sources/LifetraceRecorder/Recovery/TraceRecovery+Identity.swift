import Foundation
import LifetraceFormat

extension TraceRecovery {
    /// Refuses, before anything is written, a file beside a region that is not the region's
    /// trace: a recovery replaces the file, so a region's name alone (`notes.txt.lifetrace-region`
    /// beside `notes.txt`, a stale region beside a later, unrelated trace) must never be enough.
    ///
    /// - No file, or an empty one (killed between creating the trace and writing its header):
    ///   nothing of anyone's is there; the trace is made from the region.
    /// - A file that does not start as a binary trace does (a zstd skippable frame, docs/FORMAT.md)
    ///   is not a trace: left as it is, with its region.
    /// - A region with an identity (``RecorderRegion/traceIdentity``): the trace's header must
    ///   carry the same one (metadata `traceIdentity`), or the file is another trace, left as it
    ///   is. A region made before identities were written is recovered as before, over a file that
    ///   is a trace.
    static func refuseAnotherFile(tracePath: String, region: RecorderRegion, codec: some TraceCodec) throws(RecoveryError) {
        let file = open(tracePath, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard file >= 0 else {
            if errno == ENOENT { return }
            throw RecoveryError(.writeFailed, path: tracePath, detail: "cannot open: " + String(cString: strerror(errno)))
        }
        defer { close(file) }
        let size = lseek(file, 0, SEEK_END)
        guard size > 0 else { return }
        lseek(file, 0, SEEK_SET)
        var magic: UInt32 = 0
        let count = withUnsafeMutableBytes(of: &magic) { read(file, $0.baseAddress, 4) }
        lseek(file, 0, SEEK_SET)
        // A skippable frame's magic, little-endian: 0x184D2A50 to 0x184D2A5F.
        guard count == 4, UInt32(littleEndian: magic) & 0xFFFF_FFF0 == 0x184D_2A50 else {
            throw RecoveryError(
                .notARegularTrace, path: tracePath,
                detail: "not a lifetrace trace, so not the trace of the region beside it; both are left as they are")
        }
        guard let identity = region.traceIdentity else { return }
        let reader = try? BinaryTraceReader(descriptor: file, name: tracePath, byteLimit: Int64(size), codec: codec)
        let written = reader?.metadata[RecorderRegion.traceIdentityKey]
        guard written == identity else {
            throw RecoveryError(
                .notARegularTrace, path: tracePath,
                detail: "another trace (" + (written.map { "identity \($0)" } ?? "no identity in its header")
                    + "), not the one the region beside it was made for (identity \(identity)); both are left as they are")
        }
    }
}
