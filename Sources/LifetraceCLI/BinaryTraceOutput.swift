import ArgumentParser
import Foundation

/// Where a command writes a binary trace (`synth`, `import`, `symbolicate`): a file, or standard
/// output when it is not a terminal.
enum BinaryTraceOutput {
    /// Refuses `output` when it is `-` (standard output) and standard output is a terminal: a
    /// binary trace is not text, and written there it would only garble the screen. `otherwise`
    /// names what else the command can do, after giving a file and piping.
    static func refuseTerminal(_ output: String, otherwise: String? = nil) throws {
        guard output == "-", isatty(STDOUT_FILENO) == 1 else { return }
        let ways = ["give a file with -o", "pipe the output"] + (otherwise.map { [$0] } ?? [])
        let list = ways.count == 2 ? ways.joined(separator: " or ") : ways.dropLast().joined(separator: ", ") + ", or " + ways.last!
        throw ValidationError("standard output is a terminal, and a binary trace is not text: \(list)")
    }
}
