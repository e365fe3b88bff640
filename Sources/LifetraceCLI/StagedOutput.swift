import Foundation

/// An output file written under a temporary name in its directory and renamed into place by
/// ``commit()``, so that a failed command leaves nothing behind; `-` is standard output.
final class StagedOutput {
    /// The file descriptor to write to.
    let descriptor: Int32
    private let path: String
    private let temporaryPath: String?

    /// Creates the temporary file beside `path`, or uses standard output for `-`.
    init(path: String) throws {
        self.path = path
        if path == "-" {
            descriptor = 1
            temporaryPath = nil
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let template = (directory.isEmpty ? "." : directory) + "/.\((path as NSString).lastPathComponent).XXXXXX"
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw StagedOutputError(message: "\(path): cannot create: \(String(cString: strerror(errno)))")
        }
        fchmod(descriptor, 0o644)
        self.descriptor = descriptor
        temporaryPath = String(cString: bytes)
    }

    /// Closes the file and moves it into place.
    func commit() throws {
        guard let temporaryPath else { return }
        close(descriptor)
        guard rename(temporaryPath, path) == 0 else {
            let message = String(cString: strerror(errno))
            unlink(temporaryPath)
            throw StagedOutputError(message: "\(path): cannot write: \(message)")
        }
    }

    /// Closes and removes the temporary file.
    func discard() {
        guard let temporaryPath else { return }
        close(descriptor)
        unlink(temporaryPath)
    }
}

/// An output file that could not be created or moved into place.
struct StagedOutputError: Error, CustomStringConvertible {
    /// The one-line message.
    let message: String
    var description: String { message }
}
