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
        let (symbolizer, demangler) = tools()
        guard let symbolizer else {
            throw Failure(description: "no llvm-symbolizer or addr2line on PATH (install llvm or binutils)")
        }
        var byImage: [Int: Set<UInt64>] = [:]
        for node in stacks.nodes {
            guard let index = stacks.images.lastIndex(where: { $0.contains(node.address) }) else { continue }
            byImage[index, default: []].insert(node.address)
        }
        var result: [UInt64: FrameSymbol] = [:]
        var mangled: Set<String> = []
        for (index, addresses) in byImage.sorted(by: { $0.key < $1.key }) {
            let image = stacks.images[index]
            guard FileManager.default.isReadableFile(atPath: image.path) else { continue }
            if !image.buildID.isEmpty, buildID(ofFile: image.path) != image.buildID { continue }
            let ordered = addresses.sorted()
            // A return address is the instruction after the call: its call is one byte before.
            let offsets = ordered.map { "0x" + String(($0 - image.base) &- ($0 > image.base ? 1 : 0), radix: 16) }
            let lines = try run(symbolizer, arguments: symbolizerArguments(symbolizer, object: image.path), input: offsets.joined(separator: "\n") + "\n")
            let answers = parse(lines, isLLVM: symbolizer.hasSuffix("llvm-symbolizer"))
            for (address, answer) in zip(ordered, answers) where answer.function != "??" {
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
        return result
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
