import Foundation
import LifetraceFormat

/// Resolves sampled addresses to functions, files and lines with the platform's tools, offline:
/// `llvm-symbolizer` (or `addr2line`) on each image file that is at hand, then `swift-demangle`
/// for Swift names (docs/REPORTS.md, "Symbolication"). On Apple platforms the same is done with
/// `atos -o BINARY.dSYM -l LOAD_ADDRESS` (not built here).
public enum Symbolizer {
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

    /// The symbols of every sampled address whose image file is at hand (and, when the trace
    /// has its build id, has the same build id is not checked here: the file at the path is
    /// taken as it is). Addresses in no image, or in an image whose file is missing, get none.
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
            let ordered = addresses.sorted()
            // A return address is the instruction after the call: its call is one byte before.
            let offsets = ordered.map { "0x" + String(($0 - image.base) &- ($0 > image.base ? 1 : 0), radix: 16) }
            let lines = try run(symbolizer, arguments: symbolizerArguments(symbolizer, object: image.path), input: offsets.joined(separator: "\n") + "\n")
            let answers = parse(lines, isLLVM: symbolizer.hasSuffix("llvm-symbolizer"))
            for (address, answer) in zip(ordered, answers) where answer.function != "??" {
                result[address] = answer
                if answer.function.hasPrefix("$s") || answer.function.hasPrefix("_$s") { mangled.insert(answer.function) }
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

    private static func symbolizerArguments(_ tool: String, object: String) -> [String] {
        if tool.hasSuffix("llvm-symbolizer") {
            return ["--obj=" + object, "--functions=linkage", "--no-inlines", "--no-demangle", "--output-style=GNU"]
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
