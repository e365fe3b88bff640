import Foundation
import LifetraceAnalysis
import LifetraceFormat

/// Resolves sampled addresses to functions, files and lines with the platform's tools, offline:
/// `llvm-symbolizer` on the image files that are at hand (one run for all of them; `addr2line`
/// runs once per distinct file), then `swift-demangle` for Swift names (docs/REPORTS.md,
/// "Symbolication"); the tools run as ``ToolProcess``es. On Apple platforms the same is done with
/// `atos -o BINARY.dSYM -l LOAD_ADDRESS` (not built here). It is the resolver `--symbolicate`
/// gives the analysis's stall sample pass (``StackSymbolResolver``), and `lifetrace symbolicate`'s.
public struct Symbolizer: StackSymbolResolver {
    /// The symbolizer of the tools on PATH.
    public init() {}

    /// ``symbolize(_:)``.
    public func symbols(for stacks: SampledStacks) throws -> [UInt64: FrameSymbol] {
        try Self.symbolize(stacks)
    }

    /// ``symbolizeWithNotes(_:)``.
    public func resolve(_ stacks: SampledStacks) throws -> (symbols: [UInt64: FrameSymbol], notes: [String]) {
        let (symbols, skipped) = try Self.symbolizeWithNotes(stacks)
        return (symbols, skipped.isEmpty ? [] : [Self.skippedNote(skipped)])
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

    /// The symbols of every sampled address whose image file is at hand with the build id the
    /// trace recorded (a file rebuilt since, whose addresses moved, is not used). Addresses in no
    /// image, or in an image whose file is missing or different, get none.
    public static func symbolize(_ stacks: SampledStacks) throws(Failure) -> [UInt64: FrameSymbol] {
        try symbolizeWithNotes(stacks).symbols
    }

    /// ``symbolize(_:)``, with the images whose sampled frames got no symbols because their file
    /// is missing here or is not the one recorded (its build id differs).
    public static func symbolizeWithNotes(_ stacks: SampledStacks) throws(Failure) -> (symbols: [UInt64: FrameSymbol], skipped: [SkippedImage]) {
        let (symbolizer, demangler) = tools()
        guard let symbolizer else {
            throw Failure(description: "no llvm-symbolizer or addr2line on PATH (install llvm or binutils)")
        }
        let tool = Tool(path: symbolizer)
        var byImage: [Int: Set<UInt64>] = [:]
        for node in stacks.nodes {
            guard let index = stacks.imageIndex(containing: node.address) else { continue }
            byImage[index, default: []].insert(node.address)
        }
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
        var files = ImageFiles()
        var queries: [Query] = []
        var lookups: [(address: UInt64, base: UInt64, image: Int)] = []
        for (index, addresses) in byImage.sorted(by: { $0.key < $1.key }) {
            let image = stacks.images[index]
            let file: String
            switch files.check(image) {
            case .usable(let resolved): file = resolved
            case .skipped(let reason):
                if !skipped.contains(where: { $0.path == image.path }) { skipped.append(SkippedImage(path: image.path, reason: reason)) }
                continue
            }
            for address in addresses.sorted() {
                // A return address is the instruction after the call: its call is one byte before.
                let offset = (address - image.base) &- (address > image.base && !interrupted.contains(address) ? 1 : 0)
                queries.append(Query(file: file, offset: offset))
                lookups.append((address, image.base, index))
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
                    let offset = (address - base) &- 1
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

    /// What is known of the images' files, each looked at once: whether it can be read and is
    /// the one recorded, and its linker stubs.
    struct ImageFiles {
        enum Verdict {
            /// The file to give the tools: the image's path, symbolic links resolved.
            case usable(String)
            case skipped(String)
        }

        /// By the image's path: the file to give the tools, or why there is none.
        private var regular: [String: Verdict] = [:]
        private var buildIDs: [String: String?] = [:]
        private var linkageStubs: [String: [Range<UInt64>]] = [:]

        /// Whether the image's frames can be looked up in its file, and in which.
        mutating func check(_ image: LoadedImage) -> Verdict {
            let resolved: String
            let verdict: Verdict
            if let known = regular[image.path] {
                verdict = known
            } else {
                // Only a regular file is read or given to a tool: a trace can name a FIFO,
                // which would block, or a device such as /dev/zero, which a symbolizer would read
                // without end. Of a regular file, only an ELF one: the tools name nothing in any
                // other (an empty file, a text file, /proc/self/status), and /proc/self/mem
                // cannot be read from its start at all.
                let path = URL(fileURLWithPath: image.path).resolvingSymlinksInPath().path
                let usable = FileManager.default.isReadableFile(atPath: image.path)
                    && (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
                if !usable {
                    verdict = .skipped(Self.unusable(image.path))
                } else if let elf = Self.startsAsELF(path), !elf {
                    verdict = .skipped("not an ELF file")
                } else if Self.startsAsELF(path) == nil {
                    verdict = .skipped("file not readable")
                } else {
                    verdict = .usable(path)
                }
                regular[image.path] = verdict
            }
            switch verdict {
            case .skipped: return verdict
            case .usable(let path): resolved = path
            }
            if !image.buildID.isEmpty {
                if buildIDs[resolved] == nil { buildIDs[resolved] = .some(buildID(ofFile: resolved)) }
                if buildIDs[resolved]! != image.buildID {
                    return .skipped("build id differs from the recorded \(image.buildID): rebuilt since")
                }
            }
            return .usable(resolved)
        }

        /// The file's procedure linkage table sections (``linkageStubSections(ofFile:)``).
        mutating func stubs(of file: String) -> [Range<UInt64>] {
            if let known = linkageStubs[file] { return known }
            let found = linkageStubSections(ofFile: file)
            linkageStubs[file] = found
            return found
        }

        /// Whether the file at `path` starts with the ELF magic number; nil when it cannot be read.
        private static func startsAsELF(_ path: String) -> Bool? {
            guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            do {
                return try handle.read(upToCount: 4) == Data([0x7F, 0x45, 0x4C, 0x46])
            } catch {
                return nil
            }
        }

        /// Why the file at `path` is not used: missing, unreadable, or no regular file.
        private static func unusable(_ path: String) -> String {
            guard FileManager.default.isReadableFile(atPath: path) else {
                return FileManager.default.fileExists(atPath: path) ? "file not readable" : "file missing"
            }
            return "not a regular file"
        }
    }

    /// The symbolizer on PATH, asked about many files' addresses at once.
    struct Tool {
        var path: String
        var isLLVM: Bool { path.hasSuffix("llvm-symbolizer") }

        /// The symbols of the `count` queries `query(i)` gives, each handed to `answer` with its
        /// index as it comes (a query with no answer gets none), in the queries' order for each
        /// file. llvm-symbolizer answers them all in one process (each input line names its
        /// file: `"FILE" 0xOFFSET`, every file read once); addr2line, which takes one file, runs
        /// once per distinct file, as does llvm-symbolizer for a file whose name no input line
        /// can carry (a path holding a newline or both quotes). The queries are made as the tool
        /// reads them and no answer is kept here: what is held is what `answer` keeps.
        func ask(count: Int, query: (Int) -> Query, answer: (Int, FrameSymbol) -> Void) throws(Failure) {
            guard count > 0 else { return }
            func isShared(_ index: Int) -> Bool { isLLVM && Self.inputLineName(query(index).file) != nil }
            var sharedCount = 0
            var byFile: [String: [Int]] = [:]
            var order: [String] = []
            for index in 0..<count {
                if isShared(index) {
                    sharedCount += 1
                } else {
                    let file = query(index).file
                    if byFile[file] == nil { order.append(file) }
                    byFile[file, default: []].append(index)
                }
            }
            if sharedCount > 0 {
                // The shared queries, in order: one cursor for the question, one for the answer.
                func nextShared(after cursor: inout Int) -> Int? {
                    while cursor < count {
                        let index = cursor
                        cursor += 1
                        if isShared(index) { return index }
                    }
                    return nil
                }
                var asked = 0
                var answered = 0
                var pairs = AnswerPairs()
                try run(path, arguments: Self.llvmArguments, lines: sharedCount, line: { _ in
                    let index = nextShared(after: &asked)!
                    return Self.inputLineName(query(index).file)! + " 0x" + String(query(index).offset, radix: 16)
                }) { line in
                    if let symbol = pairs.take(line), let index = nextShared(after: &answered) { answer(index, symbol) }
                }
            }
            for file in order {
                let indices = byFile[file]!
                let arguments = isLLVM ? ["--obj=" + file] + Self.llvmArguments : ["-e", file, "-f"]
                var next = 0
                var pairs = AnswerPairs()
                try run(path, arguments: arguments, lines: indices.count, line: { "0x" + String(query(indices[$0]).offset, radix: 16) }) { line in
                    if let symbol = pairs.take(line), next < indices.count {
                        answer(indices[next], symbol)
                        next += 1
                    }
                }
            }
        }

        static let llvmArguments = ["--functions=linkage", "--no-inlines", "--output-style=GNU"]

        /// The file's name as llvm-symbolizer reads it at the start of an input line: in double
        /// quotes, or in single quotes if it holds a double one; nil when it holds both or a
        /// line break.
        static func inputLineName(_ file: String) -> String? {
            guard !file.contains("\n"), !file.contains("\r") else { return nil }
            if !file.contains("\"") { return "\"" + file + "\"" }
            if !file.contains("'") { return "'" + file + "'" }
            return nil
        }
    }

    /// The file-address ranges of the ELF file's procedure linkage table sections (`.plt`,
    /// `.plt.got`, `.plt.sec`): code the linker made, in no function of the image's own.
    public static func linkageStubSections(ofFile path: String) -> [Range<UInt64>] {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), header.count == 64,
            header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2, header[5] == 1
        else { return [] }
        func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, _: T.Type) -> T {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let tableOffset = integer(header, 0x28, UInt64.self)
        let entrySize = Int(integer(header, 0x3A, UInt16.self))
        let count = Int(integer(header, 0x3C, UInt16.self))
        let namesIndex = Int(integer(header, 0x3E, UInt16.self))
        guard entrySize >= 64, count <= 1 << 12, namesIndex < count, (try? handle.seek(toOffset: tableOffset)) != nil,
            let table = try? handle.read(upToCount: entrySize * count), table.count == entrySize * count
        else { return [] }
        let namesEntry = namesIndex * entrySize
        let namesOffset = integer(table, namesEntry + 24, UInt64.self)
        let namesSize = integer(table, namesEntry + 32, UInt64.self)
        guard namesSize <= 1 << 20, (try? handle.seek(toOffset: namesOffset)) != nil,
            let names = try? handle.read(upToCount: Int(namesSize)), names.count == Int(namesSize)
        else { return [] }
        var ranges: [Range<UInt64>] = []
        for index in 0..<count {
            let entry = index * entrySize
            let nameStart = Int(integer(table, entry, UInt32.self))
            guard nameStart < names.count else { continue }
            let nameEnd = names[nameStart...].firstIndex(of: 0) ?? names.count
            let name = String(decoding: names[nameStart..<nameEnd], as: UTF8.self)
            guard name == ".plt" || name == ".plt.got" || name == ".plt.sec" else { continue }
            let address = integer(table, entry + 16, UInt64.self)
            let size = integer(table, entry + 32, UInt64.self)
            if size > 0, address <= UInt64.max - size { ranges.append(address..<(address + size)) }
        }
        return ranges
    }

    /// The GNU build id of the ELF file at `path`, in lower-case hexadecimal, or nil.
    public static func buildID(ofFile path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 64), header.count == 64,
            header.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]), header[4] == 2, header[5] == 1
        else { return nil }
        func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, _: T.Type) -> T {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let tableOffset = integer(header, 0x20, UInt64.self)
        let entrySize = Int(integer(header, 0x36, UInt16.self))
        let count = Int(integer(header, 0x38, UInt16.self))
        guard entrySize >= 56, count <= 256, (try? handle.seek(toOffset: tableOffset)) != nil,
            let table = try? handle.read(upToCount: entrySize * count), table.count == entrySize * count
        else { return nil }
        for index in 0..<count {
            let entry = index * entrySize
            guard integer(table, entry, UInt32.self) == 4 else { continue }
            let offset = integer(table, entry + 8, UInt64.self)
            let size = integer(table, entry + 32, UInt64.self)
            guard size <= 1 << 16, (try? handle.seek(toOffset: offset)) != nil,
                let notes = try? handle.read(upToCount: Int(size)), notes.count == Int(size)
            else { continue }
            var position = 0
            while position + 12 <= notes.count {
                let nameSize = Int(integer(notes, position, UInt32.self))
                let descSize = Int(integer(notes, position + 4, UInt32.self))
                let type = integer(notes, position + 8, UInt32.self)
                let name = position + 12
                let desc = name + ((nameSize + 3) & ~3)
                guard nameSize <= notes.count, descSize <= notes.count, desc + descSize <= notes.count else { break }
                if type == 3 && nameSize == 4 && notes[name..<(name + 3)] == Data("GNU".utf8) {
                    return notes[desc..<(desc + descSize)].map { String(format: "%02x", $0) }.joined()
                }
                position = desc + ((descSize + 3) & ~3)
            }
        }
        return nil
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
    private static func run(_ tool: String, arguments: [String], lines: Int, line: (Int) -> String, answer: (String) -> Void) throws(Failure) {
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
