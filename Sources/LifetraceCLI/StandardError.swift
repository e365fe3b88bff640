import Foundation

/// Prints one line on standard error, prefixed with the tool's name.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("lifetrace: \(message)\n".utf8))
}
