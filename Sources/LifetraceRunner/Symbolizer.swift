import Foundation
import LifetraceAnalysis
import LifetraceFormat

/// Resolves sampled addresses to functions, files and lines with the platform's tools, offline:
/// `llvm-symbolizer` (or `addr2line`) on each image file that is at hand, then `swift-demangle`
/// for Swift names (docs/REPORTS.md, "Symbolication"). On Apple platforms the same is done with
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
        /// Why: its file is missing or unreadable, or its build id differs from the recorded one.
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
        for (index, addresses) in byImage.sorted(by: { $0.key < $1.key }) {
            let image = stacks.images[index]
            guard FileManager.default.isReadableFile(atPath: image.path) else {
                if !skipped.contains(where: { $0.path == image.path }) {
                    let exists = FileManager.default.fileExists(atPath: image.path)
                    skipped.append(SkippedImage(path: image.path, reason: exists ? "file not readable" : "file missing"))
                }
                continue
            }
            // Only a regular file is read or given to a tool: a trace can name a FIFO, which would
            // block, or a device such as /dev/zero, which a symbolizer would read without end.
            let resolved = URL(fileURLWithPath: image.path).resolvingSymlinksInPath().path
            guard (try? FileManager.default.attributesOfItem(atPath: resolved)[.type] as? FileAttributeType) == .typeRegular else {
                if !skipped.contains(where: { $0.path == image.path }) {
                    skipped.append(SkippedImage(path: image.path, reason: "not a regular file"))
                }
                continue
            }
            if !image.buildID.isEmpty, buildID(ofFile: image.path) != image.buildID {
                if !skipped.contains(where: { $0.path == image.path }) {
                    skipped.append(SkippedImage(path: image.path, reason: "build id differs from the recorded \(image.buildID): rebuilt since"))
                }
                continue
            }
            let ordered = addresses.sorted()
            // A return address is the instruction after the call: its call is one byte before.
            func fileOffset(_ address: UInt64) -> UInt64 {
                (address - image.base) &- (address > image.base && !interrupted.contains(address) ? 1 : 0)
            }
            let offsets = ordered.map { "0x" + String(fileOffset($0), radix: 16) }
            let stubs = linkageStubSections(ofFile: image.path)
            let lines = try run(symbolizer, arguments: symbolizerArguments(symbolizer, object: image.path), input: offsets.joined(separator: "\n") + "\n")
            let answers = parse(lines, isLLVM: symbolizer.hasSuffix("llvm-symbolizer"))
            for (address, answer) in zip(ordered, answers) {
                // A stub the linker made has no symbol: the tools name it after the symbol before
                // it (`_init`, of the C runtime's crti.o) and its file after a guess.
                if stubs.contains(where: { $0.contains(fileOffset(address)) }) {
                    result[address] = FrameSymbol(function: stubName)
                    continue
                }
                guard answer.function != "??" else { continue }
                result[address] = answer
                if answer.function.hasPrefix("$s") || answer.function.hasPrefix("_$s") { mangled.insert(answer.function) }
            }
            // Code the compiler made (an iterator's call in a loop header) has line 0: such a
            // frame gets the nearest line before it in the same function (up to 128 bytes back), or
            // else the nearest after it (up to 64 bytes on).
            let lineless = ordered.filter { result[$0] != nil && result[$0]!.line == 0 }
            if !lineless.isEmpty {
                let steps = Array(stride(from: 4, through: 128, by: 4)) + Array(stride(from: -4, through: -64, by: -4))
                var candidates: [String] = []
                for address in lineless {
                    let offset = (address - image.base) &- 1
                    for step in steps { candidates.append("0x" + String(offset &- UInt64(bitPattern: Int64(step)), radix: 16)) }
                }
                let more = parse(
                    try run(symbolizer, arguments: symbolizerArguments(symbolizer, object: image.path), input: candidates.joined(separator: "\n") + "\n"),
                    isLLVM: symbolizer.hasSuffix("llvm-symbolizer"))
                for (index, address) in lineless.enumerated() {
                    let tries = more.dropFirst(index * steps.count).prefix(steps.count)
                    if let found = tries.first(where: { $0.function == result[address]!.function && $0.line > 0 }) {
                        result[address]!.file = found.file
                        result[address]!.line = found.line
                    } else if result[address]!.file != "<compiler-generated>" {
                        // No line anywhere near: the code has no line table, and the file the
                        // tools name is the symbol table's nearest preceding file symbol
                        // (`crtstuff.c`, `Swift.o`), a guess that is often another object's.
                        result[address]!.file = ""
                    }
                }
            }
        }
        if let demangler, !mangled.isEmpty {
            let names = Array(mangled)
            let output = try run(demangler, arguments: ["--simplified", "--compact"], input: names.joined(separator: "\n") + "\n")
            let demangled = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            var map: [String: String] = [:]
            for (name, plain) in zip(names, demangled) where !plain.isEmpty { map[name] = plain }
            for (address, symbol) in result { if let plain = map[symbol.function] { result[address]?.function = plain } }
        }
        return (result, skipped)
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

    private static func symbolizerArguments(_ tool: String, object: String) -> [String] {
        if tool.hasSuffix("llvm-symbolizer") {
            return ["--obj=" + object, "--functions=linkage", "--no-inlines", "--output-style=GNU"]
        }
        return ["-e", object, "-f"]
    }

    /// Pairs of lines (function, then `file:line`) into symbols.
    private static func parse(_ output: String, isLLVM: Bool) -> [FrameSymbol] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var symbols: [FrameSymbol] = []
        var index = 0
        while index + 1 < lines.count {
            let function = lines[index]
            var location = lines[index + 1]
            // `file:line:column` from llvm-symbolizer, `file:line (discriminator n)` from addr2line.
            if let space = location.firstIndex(of: " ") { location = String(location[..<space]) }
            let parts = location.split(separator: ":").map(String.init)
            let file = parts.first.map { ($0 as NSString).lastPathComponent } ?? ""
            let line = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            symbols.append(FrameSymbol(function: function, file: file == "??" ? "" : file, line: line))
            index += 2
        }
        return symbols
    }

    private static func run(_ tool: String, arguments: [String], input: String) throws(Failure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run \(tool): \(error.localizedDescription)")
        }
        // Written from another thread: a large answer must not wait for the whole question.
        let data = Data(input.utf8)
        let writer = Thread {
            stdin.fileHandleForWriting.write(data)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
