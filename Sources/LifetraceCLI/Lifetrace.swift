import ArgumentParser

@main
struct Lifetrace: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lifetrace",
        abstract: "Record, inspect and analyse traces of the iOS app life cycle.",
        version: "0.1.0",
        subcommands: [SynthCommand.self, RecordCommand.self]
    )
}
