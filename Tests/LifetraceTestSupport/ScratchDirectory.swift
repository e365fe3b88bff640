import Foundation

/// New empty directories for what a test writes.
public enum ScratchDirectory {
    /// Creates a new directory under the temporary directory, named after `label`, and returns
    /// its path.
    public static func make(_ label: String) throws -> String {
        let path = NSTemporaryDirectory() + "lifetrace-\(label)-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
