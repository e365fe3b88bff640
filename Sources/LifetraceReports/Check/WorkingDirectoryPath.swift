import Foundation

/// Paths as the tool prints them: relative to the working directory when they are under it, as
/// trace paths given relative stay relative; absolute otherwise.
public enum WorkingDirectoryPath {
    /// `path` (absolute, or relative to `directory`) relative to `directory` when it is under it,
    /// with `.` and `..` resolved; nil when it is not under it (or is `directory` itself).
    public static func relative(_ path: String, under directory: String) -> String? {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let absolute = URL(fileURLWithPath: path, relativeTo: root).standardizedFileURL.path
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        guard absolute.hasPrefix(prefix), absolute.count > prefix.count else { return nil }
        return String(absolute.dropFirst(prefix.count))
    }

    /// `path` to print: relative to the working directory when it is under it, else as it is.
    public static func display(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        guard path.hasPrefix("/") else { return path }
        return relative(path, under: workingDirectory) ?? path
    }
}
