import Foundation
import LifetraceFormat

extension Symbolizer {
    /// The symbolizer on PATH, asked about many files' addresses at once.
    struct Tool {
        var path: String
        var isLLVM: Bool { path.hasSuffix("llvm-symbolizer") }

        /// The symbols of the `count` queries `query(i)` gives, each handed to `answer` with its
        /// index as it comes (a query with no answer gets none), in the queries' order for each
        /// file. llvm-symbolizer answers them in one process per ``imageBytesBudget`` of files
        /// (each input line names its file: `"FILE" 0xOFFSET`, every file read once); addr2line, which takes one file, runs
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
                // llvm-symbolizer keeps every file it has read loaded until it exits: the files
                // are given to one process at a time up to `imageBytesBudget` bytes of them (a
                // larger file alone), so that its memory follows the budget, not the images a
                // trace names.
                var batchOfFile: [String: Int] = [:]
                var batchBytes = 0
                var batches = 0
                var batchOfQuery = [Int32](repeating: -1, count: count)
                for index in 0..<count where isShared(index) {
                    let file = query(index).file
                    if let known = batchOfFile[file] {
                        batchOfQuery[index] = Int32(known)
                        continue
                    }
                    let bytes = Self.fileBytes(file)
                    if batches == 0 || (batchBytes > 0 && batchBytes + bytes > Self.imageBytesBudget) {
                        batches += 1
                        batchBytes = 0
                    }
                    batchBytes += bytes
                    batchOfFile[file] = batches - 1
                    batchOfQuery[index] = Int32(batches - 1)
                }
                for batch in 0..<Int32(batches) {
                    // The batch's queries, in order: one cursor for the question, one for the answer.
                    func next(after cursor: inout Int) -> Int? {
                        while cursor < count {
                            let index = cursor
                            cursor += 1
                            if batchOfQuery[index] == batch { return index }
                        }
                        return nil
                    }
                    var asked = 0
                    var answered = 0
                    var pairs = AnswerPairs()
                    let lines = batchOfQuery.reduce(0) { $0 + ($1 == batch ? 1 : 0) }
                    try run(path, arguments: Self.llvmArguments, lines: lines, line: { _ in
                        let index = next(after: &asked)!
                        return Self.inputLineName(query(index).file)! + " 0x" + String(query(index).offset, radix: 16)
                    }) { line in
                        if let symbol = pairs.take(line), let index = next(after: &answered) { answer(index, symbol) }
                    }
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

        /// The most bytes of image files one llvm-symbolizer process is given (256 MiB), unless
        /// one file alone is larger.
        static let imageBytesBudget = 256 << 20

        /// The size of the file a query names (`PATH` or `PATH:ARCH`), 0 when unknown.
        static func fileBytes(_ file: String) -> Int {
            for candidate in [file, file.split(separator: ":", omittingEmptySubsequences: false).dropLast().joined(separator: ":")]
            where !candidate.isEmpty {
                if let size = (try? FileManager.default.attributesOfItem(atPath: candidate)[.size]) as? NSNumber { return size.intValue }
            }
            return 0
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
}
