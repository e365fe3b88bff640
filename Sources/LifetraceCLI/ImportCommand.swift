import ArgumentParser
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd

/// `lifetrace import`: converts a trace (JSONL, binary, or the XML tables of an Instruments
/// recording) into a binary trace.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Convert a trace (JSONL, binary, or an Instruments export) into a binary trace (.ltrace).",
        discussion: """
            The input kind is detected from its content; '-' reads standard input or writes \
            standard output. Several inputs are the XML tables of one Instruments recording \
            ('xcrun xctrace export': life-cycle-period, os-signpost, and the --toc for the \
            metadata), read together into one trace (docs/INSTRUMENTS.md). The output is written under a temporary name and renamed, so a \
            failed import leaves nothing. Problems the input reader recovered from (a truncated \
            binary trace) are named on standard error; when they lost data (anything but an unclosed \
            end), the output is marked as missing data, which check does not pass. So are stack \
            samples, images and symbols past the reader's limits: one line names them and the \
            limit. Both end with exit status 2, the output written all the same. Standard \
            output must not be a terminal. Exit \
            status: 0 written, 2 bad input or usage, or an input that lost data (written all the \
            same), 7 the output could not be written (docs/CLI.md).
            """)

    @Argument(help: "The trace to import ('-' for standard input), or the XML tables of one Instruments recording.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "The binary trace to write ('-' for standard output).")
    var output: String

    @Option(name: .long, help: "zstd compression level, 1...19.")
    var level = 3

    @Option(name: .long, help: "Largest raw chunk size in bytes, 4096...16777216.")
    var chunkSize = BinaryTraceFormat.defaultChunkSize

    func validate() throws {
        try BinaryTraceOutput.refuseTerminal(output)
    }

    func run() throws {
        // The output appears only once the whole import succeeded (released unfinished, the
        // staged file is removed).
        try refuseOverwriting(inputs, with: output)
        var problems = ReadProblems()
        do throws(TraceError) {
            let staged = try StagedOutputFile(path: output)
            let source = try TraceInputs.open(paths: inputs)
            let options = TraceWriter.Options(compressionLevel: level, chunkSize: chunkSize)
            let writer = try TraceWriter(fileDescriptor: staged.descriptor, name: output, metadata: source.metadata, options: options)
            let issues = try source.copyEvents { (event, symbols) throws(TraceError) in
                try writer.append(event, symbols: symbols)
            }
            // The stack samples and images of a binary input (docs/FORMAT.md, "Stack samples").
            let stacks = source.sampledStacks
            try writer.appendSampledStacks(stacks)
            let losses = TraceCopyLosses(issues: issues, stacks: stacks)
            writer.marksDataLost = losses.losesData
            try writer.close()
            try staged.commit()
            problems.report(issues)
            if let line = losses.limitLine(input: inputs.joined(separator: ", ")) { problems.lost(line) }
        } catch {
            throw failure(error, writing: [output])
        }
        try problems.finish()
    }
}
