import ArgumentParser
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd

/// `lifetrace symbolicate`: a copy of a trace whose stack samples carry the function, file and
/// line of each sampled address, from the images' files on this machine.
struct SymbolicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "symbolicate",
        abstract: "Copy a trace, adding the function, file and line of each stack sample's addresses.",
        discussion: """
            Resolves every sampled address against the image it lies in (the executable and \
            libraries the recorder listed, read from their paths on this machine) with \
            llvm-symbolizer or addr2line, and demangles Swift names with swift-demangle; Apple \
            images (Mach-O, by UUID) are read from the symbol files given with --symbols; the \
            copy holds the events, the samples, and a symbol record per resolved address \
            (docs/FORMAT.md, "Stack samples"), so that check and report name functions \
            without the binaries. Addresses whose image is missing stay as image and offset. \
            Samples, images and symbols past the reader's limits are named on one line, and \
            the copy is marked as missing data, which check does not pass. \
            '-o -' writes standard output, which must not be a terminal. Exit status: 0 written, \
            2 bad input, usage, no symbolizer on PATH, or an input that lost data (written all \
            the same), 7 the output could not be written (docs/CLI.md).
            """)

    @Argument(help: "The trace to symbolicate.")
    var input: String

    @Option(name: .shortAndLong, help: "The trace to write ('-' for standard output).")
    var output: String

    @Option(name: .long, help: ArgumentHelp("Symbols of Apple images: a .dSYM bundle, a folder of them, or an unstripped Mach-O file, matched to the trace's images by UUID (repeatable).", valueName: "path"))
    var symbols: [String] = []

    func validate() throws {
        try BinaryTraceOutput.refuseTerminal(output)
    }

    func run() throws {
        try refuseOverwriting([input], with: output)
        var problems = ReadProblems()
        do throws(TraceError) {
            let source = try TraceInputs.open(path: input)
            let staged = try StagedOutputFile(path: output)
            let writer = try TraceWriter(fileDescriptor: staged.descriptor, name: output, metadata: source.metadata)
            let issues = try source.copyEvents { (event, symbols) throws(TraceError) in
                try writer.append(event, symbols: symbols)
            }
            var stacks = source.sampledStacks
            let found: [UInt64: FrameSymbol]
            let notes: [String]
            do {
                (found, notes) = try Symbolizer(symbolFiles: symbols).symbolizeWithNotes(stacks)
            } catch {
                throw TraceError(.io, file: input, "cannot symbolicate: \(error.description)")
            }
            for (address, symbol) in found where stacks.symbols[address] == nil { stacks.addSymbol(symbol, for: address) }
            try writer.appendSampledStacks(stacks)
            let losses = TraceCopyLosses(issues: issues, stacks: stacks)
            writer.marksDataLost = losses.losesData
            try writer.close()
            try staged.commit()
            problems.report(issues)
            if let line = losses.limitLine(input: input) { problems.lost(line) }
            for note in notes { printError("\(input): \(note)") }
            printError("\(input): \(stacks.symbols.count) of \(Set(stacks.nodes.map(\.address)).count) sampled addresses resolved")
        } catch {
            throw failure(error, writing: [output])
        }
        try problems.finish()
    }
}
