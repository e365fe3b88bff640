/// A command the host cannot carry out, and why.
public struct HostCommandError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The command.
    public var command: HostCommand
    /// Why it cannot be carried out.
    public var reason: String

    /// One line: the command and the reason.
    public var description: String { "cannot \(command.wireText): \(reason)" }
}
