import Foundation
import Synchronization
import LifetraceAnalysis
import LifetraceFormat

/// Resolves sampled addresses to functions, files and lines with the platform's tools, offline:
/// `llvm-symbolizer` on the image files that are at hand (one run for all of them; `addr2line`
/// runs once per distinct file), then `swift-demangle` for Swift names (docs/REPORTS.md,
/// "Symbolication"); the tools run as ``ToolProcess``es. On Apple platforms the same is done with
/// `atos -o BINARY.dSYM -l LOAD_ADDRESS` (not built here). It is the resolver `--symbolicate`
/// gives the analysis's stall sample pass (``StackSymbolResolver``), and `lifetrace symbolicate`'s.
public struct Symbolizer: StackSymbolResolver {
    /// The symbol files given (`--symbols`): dSYM bundles, folders of them, Mach-O files.
    public let symbolFiles: [String]
    /// The environment whose PATH the tools are found on.
    public let environment: [String: String]
    /// The symbol files read, once for every trace this symbolizer names (`check DIR`), and only
    /// when a trace has a frame to name.
    private let readFiles: ReadOnce

    /// The symbolizer of the tools on `environment`'s PATH, with the symbol files under `symbolFiles`.
    public init(symbolFiles: [String] = [], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.symbolFiles = symbolFiles
        self.environment = environment
        readFiles = ReadOnce(paths: symbolFiles)
    }

    /// ``SymbolFiles`` of some paths, read the first time they are asked for.
    private final class ReadOnce: Sendable {
        let paths: [String]
        private let read = Mutex<SymbolFiles?>(nil)

        init(paths: [String]) { self.paths = paths }

        var files: SymbolFiles {
            read.withLock { files in
                if let files { return files }
                let found = SymbolFiles(paths: paths)
                files = found
                return found
            }
        }
    }

    /// ``symbolize(_:)``.
    public func symbols(for stacks: SampledStacks) throws -> [UInt64: FrameSymbol] {
        try symbolize(stacks)
    }

    /// ``symbolizeWithNotes(_:)``, with its notes as outputs print them: the images that could
    /// not be symbolicated, and the symbol files given that were of no use, each said once.
    public func resolve(_ stacks: SampledStacks) throws -> (symbols: [UInt64: FrameSymbol], notes: [String]) {
        let found = try symbolizeWithNotes(stacks)
        return (found.symbols, found.notes)
    }

    /// The symbols ``symbolizeWithNotes(_:)`` finds.
    public func symbolize(_ stacks: SampledStacks) throws(Failure) -> [UInt64: FrameSymbol] {
        try symbolizeWithNotes(stacks).symbols
    }

    /// ``symbolizeWithNotes(_:symbolFiles:environment:)`` with these symbol files and tools, and
    /// the notes: the images skipped (``skippedNote(_:)``), then each symbol file problem, then
    /// the symbol files whose UUID no sampled image has.
    public func symbolizeWithNotes(_ stacks: SampledStacks) throws(Failure) -> (symbols: [UInt64: FrameSymbol], notes: [String]) {
        let needed = stacks.nodes.contains { stacks.symbols[$0.address] == nil && stacks.imageIndex(containing: $0.address) != nil }
        guard needed else { return ([:], []) }
        let files = readFiles.files
        let (symbols, skipped) = try Self.symbolizeWithNotes(stacks, symbolFiles: files, environment: environment)
        var notes = skipped.isEmpty ? [] : [Self.skippedNote(skipped)]
        notes += files.problems.map { "symbol file not used: " + $0 }
        let recorded = Set(stacks.images.map(\.buildID))
        let unmatched = files.byUUID.values.filter { !recorded.contains($0.uuid) }.sorted { $0.symbolizerName < $1.symbolizerName }
        if !unmatched.isEmpty {
            notes.append("symbol file\(unmatched.count == 1 ? "" : "s") not used, no image of the trace has \(unmatched.count == 1 ? "its" : "their") UUID: "
                + unmatched.map { "\($0.symbolizerName) (\($0.uuid))" }.joined(separator: ", "))
        }
        return (symbols, notes)
    }

    /// An image whose frames were sampled and could not be symbolicated, and why.
    public struct SkippedImage: Hashable, Sendable {
        /// The image's path as the trace recorded it.
        public var path: String
        /// Why: its file is missing or unreadable, no regular or no ELF file, its build id differs
        /// from the recorded one, or the tools named none of its frames.
        public var reason: String
    }

    /// The one note outputs print for the images that could not be symbolicated: "the stack
    /// samples' frames in 1 image could not be symbolicated: .build/debug/SampleApp (no such
    /// file here)".
    public static func skippedNote(_ skipped: [SkippedImage]) -> String {
        "the stack samples' frames in \(skipped.count) image\(skipped.count == 1 ? "" : "s") could not be symbolicated: "
            + skipped.map { "\($0.path) (\($0.reason))" }.joined(separator: ", ")
    }

    /// The name a frame in a procedure linkage table stub is given: the trampoline the linker
    /// made for a call into another library, no function of the image's own code
    /// (``TraceSymbolNames/linkerStub``).
    static let stubName = TraceSymbolNames.linkerStub

    /// At most this many frames the tools name without a line (code the compiler made, or code
    /// without a line table) are searched for the nearest line (48 questions each): 196,608
    /// questions, a few seconds of `llvm-symbolizer`, however many addresses a trace claims.
    static let linelessSearchLimit = 4096

    /// Why symbolication could not run.
    public struct Failure: Error, CustomStringConvertible {
        /// One line.
        public var description: String
    }

    /// The tools found on PATH: the symbolizer and the demangler.
    public static func tools(environment: [String: String] = ProcessInfo.processInfo.environment) -> (symbolizer: String?, demangler: String?) {
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ names: [String]) -> String? {
            for name in names {
                for directory in path where FileManager.default.isExecutableFile(atPath: directory + "/" + name) {
                    return directory + "/" + name
                }
            }
            return nil
        }
        return (find(["llvm-symbolizer", "addr2line"]), find(["swift-demangle"]))
    }

    /// The symbols of every sampled address the trace names no symbol for, whose image's file is
    /// at hand with the build id the trace recorded (a file rebuilt since, whose addresses moved,
    /// is not used), or, for an Apple image, whose symbol file has its UUID. Addresses in no image,
    /// or in an image whose file is missing or different, get none: with the images whose sampled
    /// frames got no symbols, and why.
    public static func symbolizeWithNotes(
        _ stacks: SampledStacks, symbolFiles: SymbolFiles = SymbolFiles(paths: []),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) -> (symbols: [UInt64: FrameSymbol], skipped: [SkippedImage]) {
        var byImage: [Int: Set<UInt64>] = [:]
        for node in stacks.nodes where stacks.symbols[node.address] == nil {
            guard let index = stacks.imageIndex(containing: node.address) else { continue }
            byImage[index, default: []].insert(node.address)
        }
        // Nothing to name: no tool is looked for or started.
        guard !byImage.isEmpty else { return ([:], []) }
        let (symbolizer, demangler) = tools(environment: environment)
        guard let symbolizer else {
            throw Failure(description: "no llvm-symbolizer or addr2line on PATH (install llvm or binutils)")
        }
        let tool = Tool(path: symbolizer)
        // The innermost frame of a sample is the interrupted instruction itself, not a return
        // address: it is looked up as it is (one byte before it may be another function's end).
        var callers: Set<UInt64> = []
        for node in stacks.nodes where node.parent >= 0 && Int(node.parent) < stacks.nodes.count {
            callers.insert(stacks.nodes[Int(node.parent)].address)
        }
        var interrupted: Set<UInt64> = []
        for sample in stacks.samples where sample.stack < stacks.nodes.count {
            let address = stacks.nodes[sample.stack].address
            if !callers.contains(address) { interrupted.insert(address) }
        }
        var result: [UInt64: FrameSymbol] = [:]
        var skipped: [SkippedImage] = []
        var mangled: Set<String> = []
        // Each file is looked at once, however many images name it (a trace may list the same
        // library at hundreds of addresses), and all the images' addresses go to one tool.
        var files = ImageFiles(symbolFiles: symbolFiles)
        var queries: [Query] = []
        var lookups: [(address: UInt64, base: UInt64, image: Int)] = []
        for (index, addresses) in byImage.sorted(by: { $0.key < $1.key }) {
            let image = stacks.images[index]
            let file: String
            // An address in the file: less the load bias (ELF), or less the load address and
            // plus the `__TEXT` segment's address in the file (Mach-O).
            let bias: UInt64
            switch files.check(image) {
            case .usable(let resolved, let textAddress):
                file = resolved
                bias = image.base &- textAddress
            case .skipped(let reason):
                if !skipped.contains(where: { $0.path == image.path }) { skipped.append(SkippedImage(path: image.path, reason: reason)) }
                continue
            }
            for address in addresses.sorted() {
                // A return address is the instruction after the call: its call is one byte before.
                let offset = (address &- bias) &- (address > image.base && !interrupted.contains(address) ? 1 : 0)
                queries.append(Query(file: file, offset: offset))
                lookups.append((address, bias, index))
            }
        }
        var answers = [FrameSymbol](repeating: FrameSymbol(function: "??"), count: queries.count)
        try tool.ask(count: queries.count, query: { queries[$0] }, answer: { answers[$0] = $1 })
        var lineless: [(address: UInt64, base: UInt64, file: String)] = []
        // An image none of whose sampled frames the tool could name (a stripped file, or one it
        // cannot read) is named in the notes too.
        var named: Set<Int> = []
        for ((address, base, image), (query, answer)) in zip(lookups, zip(queries, answers)) {
            // A stub the linker made has no symbol: the tools name it after the symbol before
            // it (`_init`, of the C runtime's crti.o) and its file after a guess.
            if files.stubs(of: query.file).contains(where: { $0.contains(query.offset) }) {
                result[address] = FrameSymbol(function: stubName)
                named.insert(image)
                continue
            }
            guard answer.function != "??" else { continue }
            named.insert(image)
            result[address] = answer
            if answer.function.hasPrefix("$s") || answer.function.hasPrefix("_$s") { mangled.insert(answer.function) }
            if answer.line == 0 { lineless.append((address, base, query.file)) }
        }
        for index in byImage.keys.sorted() where !named.contains(index) {
            let path = stacks.images[index].path
            if !skipped.contains(where: { $0.path == path }) {
                skipped.append(SkippedImage(path: path, reason: "no symbols or debug information"))
            }
        }
        // Code the compiler made (an iterator's call in a loop header) has line 0: such a frame
        // gets the nearest line before it in the same function (up to 128 bytes back), or else
        // the nearest after it (up to 64 bytes on). The candidates are made as the tool reads
        // them and their answers looked at as they come: only the first line found for each
        // frame is kept (a frame has 48 candidates; keeping every answer cost tens of kilobytes
        // a frame).
        // The search asks 48 questions a frame: it is given to the first `linelessSearchLimit`
        // frames without a line (by image and address), so that a small trace of many distinct
        // addresses in code without lines cannot claim minutes of the tool's time. The others are
        // named without a line, as a frame whose search found none.
        // No line anywhere near: the code has no line table, and the file the tools name is the
        // symbol table's nearest preceding file symbol (`crtstuff.c`, `Swift.o`), a guess that is
        // often another object's; `<compiler-generated>`, which the debug info names, is kept.
        func dropGuessedFile(_ address: UInt64) {
            if result[address]!.file != "<compiler-generated>" { result[address]!.file = "" }
        }
        if lineless.count > Self.linelessSearchLimit {
            for (address, _, _) in lineless[Self.linelessSearchLimit...] { dropGuessedFile(address) }
            lineless.removeSubrange(Self.linelessSearchLimit...)
        }
        if !lineless.isEmpty {
            let steps = Array(stride(from: 4, through: 128, by: 4)) + Array(stride(from: -4, through: -64, by: -4))
            var nearest = [FrameSymbol?](repeating: nil, count: lineless.count)
            try tool.ask(
                count: lineless.count * steps.count,
                query: { index in
                    let (address, base, file) = lineless[index / steps.count]
                    let offset = (address &- base) &- 1
                    return Query(file: file, offset: offset &- UInt64(bitPattern: Int64(steps[index % steps.count])))
                },
                answer: { index, candidate in
                    // A frame's candidates are answered in their order (they share its file).
                    let frame = index / steps.count
                    guard nearest[frame] == nil, candidate.line > 0,
                        candidate.function == result[lineless[frame].address]?.function
                    else { return }
                    nearest[frame] = candidate
                })
            for (index, (address, _, _)) in lineless.enumerated() {
                if let found = nearest[index] {
                    result[address]!.file = found.file
                    result[address]!.line = found.line
                } else {
                    dropGuessedFile(address)
                }
            }
        }
        if let demangler, !mangled.isEmpty {
            let names = Array(mangled)
            var map: [String: String] = [:]
            var next = 0
            try run(demangler, arguments: ["--simplified", "--compact"], lines: names.count, line: { names[$0] }) { plain in
                guard next < names.count else { return }
                if !plain.isEmpty { map[names[next]] = plain }
                next += 1
            }
            for (address, symbol) in result { if let plain = map[symbol.function] { result[address]?.function = plain } }
        }
        return (result, skipped)
    }

    /// An address to look up: an offset in an image's file.
    struct Query {
        /// The file's path, symbolic links resolved.
        var file: String
        /// The address minus the image's load bias (one byte less for a return address).
        var offset: UInt64
    }

    /// Pairs of lines (function, then `file:line`) into symbols, a line at a time: empty lines
    /// are passed over.
    struct AnswerPairs {
        private var function: String?

        /// The symbol `line` completes, if it is a pair's second line.
        mutating func take(_ line: String) -> FrameSymbol? {
            guard !line.isEmpty else { return nil }
            guard let function else {
                self.function = line
                return nil
            }
            self.function = nil
            var location = Substring(line)
            // `file:line:column` from llvm-symbolizer, `file:line (discriminator n)` from addr2line.
            if let space = location.firstIndex(of: " ") { location = location[..<space] }
            let parts = location.split(separator: ":").map(String.init)
            let file = parts.first.map { ($0 as NSString).lastPathComponent } ?? ""
            let number = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            return FrameSymbol(function: function, file: file == "??" ? "" : file, line: number)
        }
    }

    /// A tool's answer cut into lines as its bytes come: only the line not yet ended is held,
    /// at most ``lineLimit`` bytes.
    struct AnswerLines {
        /// The longest line a tool may answer.
        static let lineLimit = 1 << 16
        /// The bytes of the line not yet ended.
        private(set) var held: [UInt8] = []

        /// Hands each line `bytes` ends to `line`, without its line break; false when a line is
        /// longer than ``lineLimit`` bytes.
        mutating func take(_ bytes: ArraySlice<UInt8>, line: (String) -> Void) -> Bool {
            var start = bytes.startIndex
            while let end = bytes[start...].firstIndex(of: 0x0A) {
                guard held.count + (end - start) <= Self.lineLimit else { return false }
                if held.isEmpty {
                    line(String(decoding: bytes[start..<end], as: UTF8.self))
                } else {
                    held.append(contentsOf: bytes[start..<end])
                    line(String(decoding: held, as: UTF8.self))
                    held.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            guard held.count + (bytes.endIndex - start) <= Self.lineLimit else { return false }
            held.append(contentsOf: bytes[start...])
            return true
        }

        /// Hands the last line, if the answer did not end with a line break.
        mutating func finish(line: (String) -> Void) {
            if !held.isEmpty { line(String(decoding: held, as: UTF8.self)) }
            held = []
        }
    }

    /// Runs `tool` (``ToolProcess``) on `lines` input lines, `line(i)` each, made as the tool
    /// reads them (a question of millions of addresses is never whole in memory), and hands
    /// `answer` each line of its answer as it comes (``AnswerLines``: at most 64 KiB a line; the
    /// answer is never whole in memory either).
    static func run(_ tool: String, arguments: [String], lines: Int, line: (Int) -> String, answer: (String) -> Void) throws(Failure) {
        var next = 0
        func chunk() -> [UInt8]? {
            guard next < lines else { return nil }
            var bytes: [UInt8] = []
            let end = min(lines, next + 4096)
            for index in next..<end {
                bytes.append(contentsOf: line(index).utf8)
                bytes.append(0x0A)
            }
            next = end
            return bytes
        }
        var reader = AnswerLines()
        do throws(ToolProcess.Failure) {
            try ToolProcess.run(tool, arguments: arguments, input: chunk, outputLimit: (1 << 20) + lines * (1 << 16)) { bytes throws(ToolProcess.Failure) in
                guard reader.take(bytes, line: answer) else {
                    throw ToolProcess.Failure(description: "\(tool) answered a line longer than \(AnswerLines.lineLimit) bytes")
                }
            }
            reader.finish(line: answer)
        } catch {
            throw Failure(description: error.description)
        }
    }
}
