import Foundation
import LifetraceFormat
import LifetraceRunner
import LifetraceZstd
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The symbolizer's processes: how many `--symbolicate` starts, and that none outlives lifetrace
/// or inherits the signals it blocks.
@Suite struct SymbolizerProcessTests {
    static func temporaryDirectory() throws -> String {
        let directory = NSTemporaryDirectory() + "symbolizer-processes-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A script named `name` in `directory`: it appends its process id to `log`, then runs `body`.
    static func script(_ name: String, in directory: String, log: String, body: String) throws {
        let path = directory + "/" + name
        try "#!/bin/sh\necho $$ >> '\(log)'\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    /// A text trace whose samples lie in `images` copies of the image at `path`, each at its own
    /// base and each with the same sampled offsets.
    static func trace(images: Int, path: String, buildID: String?, offsets: [UInt64]) -> String {
        var lines = [
            #"{"type":"meta","recorder":"test","app":"Symbolized"}"#,
            #"{"ts":1000,"type":"launch","reason":"user","pid":1}"#,
        ]
        let size: UInt64 = 0x1000_0000
        let id = buildID.map { #","buildId":"\#($0)""# } ?? ""
        for index in 0..<images {
            let base = 0x1000_0000_0000 + UInt64(index) * size
            lines.append(#"{"ts":2000,"type":"image","path":"\#(path)"\#(id),"base":"0x\#(String(base, radix: 16))","size":"0x\#(String(size, radix: 16))"}"#)
        }
        for index in 0..<images {
            let base = 0x1000_0000_0000 + UInt64(index) * size
            let frames = offsets.map { #""0x\#(String(base + $0, radix: 16))""# }.joined(separator: ",")
            lines.append(#"{"type":"stack","id":\#(index + 1),"frames":[\#(frames)]}"#)
            lines.append(#"{"ts":\#(3000 + index * 10),"type":"sample","stack":\#(index + 1)}"#)
        }
        lines.append(#"{"ts":\#(3000 + images * 10 + 10),"type":"exit","code":0}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// Process ids, one a line.
    static func pids(_ log: String) -> [pid_t] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { pid_t($0) }
    }

    /// A field of /proc/PID/status (`SigBlk`), or nil once the process is gone.
    static func status(_ pid: pid_t, _ field: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// Polls `condition` every 10 ms until it holds or `seconds` passed; returns whether it held.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// lifetrace started with `arguments` and only `path` on PATH (where its tools are found).
    static func startLifetrace(_ arguments: [String], path: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: BuiltProducts.path("lifetrace"))
        process.arguments = arguments
        process.environment = ["PATH": path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Some offsets of functions in the sample app's code, as the symbol table has them.
    static func functionOffsets(_ count: Int) throws -> [UInt64] {
        let app = BuiltProducts.path("SampleApp")
        // The sample app's own functions, a few bytes into each.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/nm")
        process.arguments = ["--defined-only", app]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var found: [UInt64] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, parts[1] == "T", parts[2].hasPrefix("$s9SampleApp"), let address = UInt64(parts[0], radix: 16) else { continue }
            found.append(address + 4)
            if found.count == count { break }
        }
        return found
    }

    @Test func aSymbolizerStartsWithNoSignalBlockedAndDiesWithLifetraceOnSIGTERM() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/started"
        // A symbolizer that never answers: lifetrace is still waiting for it when stopped.
        try Self.script("llvm-symbolizer", in: directory, log: log, body: "exec /bin/sleep 300")
        let trace = directory + "/trace.jsonl"
        let app = BuiltProducts.path("SampleApp")
        try Self.trace(images: 1, path: app, buildID: nil, offsets: [0x1000, 0x2000]).write(toFile: trace, atomically: true, encoding: .utf8)

        let process = try Self.startLifetrace(["check", "--symbolicate", trace], path: directory)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            for pid in Self.pids(log) { kill(pid, SIGKILL) }
        }
        #expect(Self.eventually(within: 60) { !Self.pids(log).isEmpty }, "the symbolizer never started")
        let child = try #require(Self.pids(log).first)
        #expect(Self.eventually(within: 30) { Self.status(child, "Name") == "sleep" })
        // Before, it inherited lifetrace's blocked SIGHUP, SIGINT and SIGTERM (0000000000004003).
        #expect(Self.status(child, "SigBlk") == "0000000000000000")
        let ignored = UInt64(Self.status(child, "SigIgn") ?? "", radix: 16) ?? .max
        for signal in [SIGHUP, SIGINT, SIGTERM, SIGPIPE] { #expect(ignored & (1 << UInt64(signal - 1)) == 0, "signal \(signal) ignored") }

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGTERM)
        // Before, it kept running, its parent now PID 1.
        #expect(Self.eventually(within: 30) { Self.status(child, "State") == nil }, "the symbolizer outlived lifetrace: \(Self.status(child, "State") ?? "")")
    }

    @Test func aSymbolizerThatOutlivesItsQuestionIsEndedWhenLifetraceEnds() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = directory + "/started"
        // Answers nothing and closes its output, but keeps running: lifetrace ends it.
        try Self.script("llvm-symbolizer", in: directory, log: log, body: "exec 1>&-\nexec /bin/sleep 300")
        let trace = directory + "/trace.jsonl"
        try Self.trace(images: 1, path: BuiltProducts.path("SampleApp"), buildID: nil, offsets: [0x1000]).write(
            toFile: trace, atomically: true, encoding: .utf8)
        let process = try Self.startLifetrace(["check", "--symbolicate", trace], path: directory)
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            for pid in Self.pids(log) { kill(pid, SIGKILL) }
        }
        #expect(Self.eventually(within: 60) { !process.isRunning }, "lifetrace waited for a symbolizer that no longer answers")
        for pid in Self.pids(log) { #expect(Self.status(pid, "State") == nil, "\(pid) outlived lifetrace") }
    }

    /// Runs `lifetrace symbolicate` on `images` images of the sample app with only `directory`
    /// on PATH, and returns the symbol records of its copy, by offset in the image.
    static func symbolicate(images: Int, directory: String) throws -> (symbols: [UInt64: Set<String>], started: Int) {
        let app = BuiltProducts.path("SampleApp")
        let offsets = try functionOffsets(6)
        let trace = directory + "/trace.jsonl"
        try Self.trace(images: images, path: app, buildID: Symbolizer.buildID(ofFile: app), offsets: offsets).write(
            toFile: trace, atomically: true, encoding: .utf8)
        let copy = directory + "/copy.ltrace"
        let process = try startLifetrace(["symbolicate", trace, "-o", copy], path: directory)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var reader = try BinaryTraceReader(path: copy)
        while try reader.next() != nil {}
        let stacks = reader.sampledStacks
        var symbols: [UInt64: Set<String>] = [:]
        for (address, symbol) in stacks.symbols {
            let offset = (address - 0x1000_0000_0000) % 0x1000_0000
            symbols[offset, default: []].insert("\(symbol.function) \(symbol.file):\(symbol.line)")
        }
        return (symbols, pids(directory + "/started").count)
    }

    @Test func llvmSymbolizerRunsOnceForManyImagesOfOneFile() throws {
        let (symbolizer, demangler) = Symbolizer.tools()
        guard let symbolizer, symbolizer.hasSuffix("llvm-symbolizer") else { return }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.script("llvm-symbolizer", in: directory, log: directory + "/started", body: #"exec '\#(symbolizer)' "$@""#)
        if let demangler { try FileManager.default.createSymbolicLink(atPath: directory + "/swift-demangle", withDestinationPath: demangler) }
        let (symbols, started) = try Self.symbolicate(images: 40, directory: directory)
        // Before, one run per image (40), and one more per image for frames without a line.
        #expect(started >= 1 && started <= 2, "\(started) symbolizer runs")
        #expect(symbols.count == 6, "\(symbols)")
        // Every image's frame at an offset is named alike: each the function the file has there.
        for (offset, names) in symbols {
            #expect(names.count == 1, "0x\(String(offset, radix: 16)): \(names)")
            #expect(names.first?.contains("??") == false)
        }
    }

    @Test("the search for a line near a frame without one asks at most 4,096 frames' questions, however many addresses a trace claims")
    func theLineSearchIsBounded() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let questions = directory + "/questions"
        // Names every address `f` without a line, and keeps every question it was asked.
        try Self.script(
            "llvm-symbolizer", in: directory, log: directory + "/started",
            body: #"/usr/bin/tee -a '\#(questions)' | /usr/bin/awk '{ print "f"; print "f.c:0"; fflush() }'"#)
        let trace = directory + "/trace.jsonl"
        let offsets = (0..<1000).map { 0x80_0000 + UInt64($0) * 16 }
        try Self.trace(images: 5, path: BuiltProducts.path("SampleApp"), buildID: nil, offsets: offsets).write(
            toFile: trace, atomically: true, encoding: .utf8)
        let process = try Self.startLifetrace(["check", "--symbolicate", trace], path: directory)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        let asked = ((try? String(contentsOfFile: questions, encoding: .utf8)) ?? "").split(separator: "\n").count
        // 5,000 frames, then 48 questions for each of the first 4,096 without a line. Before,
        // 48 for each of the 5,000 (245,000 in all): a trace claiming 2^18 addresses asked 12.6 M.
        #expect(asked == 5000 + 4096 * 48, "\(asked) questions")
    }

    @Test func addr2lineRunsOncePerDistinctFile() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/addr2line") else { return }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.script("addr2line", in: directory, log: directory + "/started", body: #"exec /usr/bin/addr2line "$@""#)
        let (symbols, started) = try Self.symbolicate(images: 12, directory: directory)
        #expect(started >= 1 && started <= 2, "\(started) addr2line runs")
        #expect(symbols.count == 6, "\(symbols)")
        for (offset, names) in symbols { #expect(names.count == 1, "0x\(String(offset, radix: 16)): \(names)") }
    }

    @Test func aFileWhoseNameHoldsQuotesAndSpacesIsStillSymbolicated() throws {
        guard Symbolizer.tools().symbolizer?.hasSuffix("llvm-symbolizer") == true else { return }
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = BuiltProducts.path("SampleApp")
        let offsets = try Self.functionOffsets(3)
        // One name llvm-symbolizer reads in double quotes, one in single quotes, one in neither
        // (given with --obj): the same file's frames are named alike in each.
        var names: [[String]] = []
        for name in [#"Sample App"#, #"Sample "App""#, #"Sample 'A' "pp""#] {
            let copy = directory + "/" + name
            try FileManager.default.copyItem(atPath: app, toPath: copy)
            var stacks = SampledStacks()
            stacks.addImage(LoadedImage(timestamp: 0, path: copy, buildID: "", base: 0x5570_0000_0000, size: 0x1000_0000))
            stacks.addSample(timestamp: 0, thread: ThreadID(rawValue: 0), stack: stacks.intern(offsets.map { 0x5570_0000_0000 + $0 }))
            let symbols = try Symbolizer().symbolize(stacks)
            names.append(offsets.map { symbols[0x5570_0000_0000 + $0]?.function ?? "" })
        }
        #expect(names[0].allSatisfy { !$0.isEmpty }, "\(names)")
        #expect(names[1] == names[0])
        #expect(names[2] == names[0])
    }
}
