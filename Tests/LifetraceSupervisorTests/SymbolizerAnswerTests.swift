import Foundation
import LifetraceAnalysis
import LifetraceFormat
@testable import LifetraceRunner
import Testing

/// What the symbolizer holds of a tool's answer (a line at a time, never the whole of it), and
/// the images whose files the tools can name nothing in.
@Suite struct SymbolizerAnswerTests {
    @Test func anAnswerIsHeldALineAtATime() {
        var reader = Symbolizer.AnswerLines()
        var pairs = Symbolizer.AnswerPairs()
        let answer = Array(String(repeating: "$s4main3fooyyF\n/work/app/Sources/main.swift:12:3\n\n", count: 20_000).utf8)
        var symbols = 0
        var mostHeld = 0
        var start = 0
        // Pieces of an odd size, so that lines are cut between two of them.
        while start < answer.count {
            let end = min(answer.count, start + 4093)
            var wrong: [FrameSymbol] = []
            let taken = reader.take(answer[start..<end]) { line in
                guard let symbol = pairs.take(line) else { return }
                if symbol != FrameSymbol(function: "$s4main3fooyyF", file: "main.swift", line: 12) { wrong.append(symbol) }
                symbols += 1
            }
            #expect(taken)
            #expect(wrong.isEmpty)
            mostHeld = max(mostHeld, reader.held.count)
            start = end
        }
        var left = 0
        reader.finish { _ in left += 1 }
        #expect(left == 0)
        #expect(symbols == 20_000)
        // Only the line not yet ended is held: before, the whole answer (1.4 MB here) was.
        #expect(mostHeld < 64)
    }

    @Test func aLineLongerThanTheLimitIsRefused() {
        var reader = Symbolizer.AnswerLines()
        let long = [UInt8](repeating: 0x41, count: Symbolizer.AnswerLines.lineLimit)
        var lines: [Int] = []
        #expect(reader.take(long[...]) { lines.append($0.utf8.count) })
        #expect(!reader.take([0x41, 0x0A][...]) { lines.append($0.utf8.count) })
        #expect(lines.isEmpty)
        var other = Symbolizer.AnswerLines()
        #expect(other.take((long + [0x0A])[...]) { lines.append($0.utf8.count) })
        #expect(lines == [Symbolizer.AnswerLines.lineLimit])
    }

    /// An image at `path` with no build id, and one sample in it.
    static func resolve(_ paths: [String]) throws -> String {
        var stacks = SampledStacks()
        for (index, path) in paths.enumerated() {
            let base = UInt64(0x1000_0000) * UInt64(index + 1)
            stacks.addImage(LoadedImage(timestamp: 0, path: path, buildID: "", base: base, size: 0x100_0000))
            stacks.addSample(timestamp: Int64(index), thread: ThreadID(rawValue: 0), stack: stacks.intern([base + 0x10_0000]))
        }
        let (symbols, notes) = try Symbolizer().resolve(stacks)
        #expect(symbols.isEmpty)
        #expect(notes.count == 1)
        return notes.first ?? ""
    }

    @Test func aFileThatIsNoELFFileIsNamedWithWhy() throws {
        guard Symbolizer.tools().symbolizer != nil else { return }
        let directory = NSTemporaryDirectory() + "lifetrace-symbolizer-answers-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let empty = directory + "/empty.bin"
        let random = directory + "/random.bin"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        var generator = SystemRandomNumberGenerator()
        #expect(FileManager.default.createFile(atPath: random, contents: Data((0..<5000).map { _ in UInt8.random(in: 0...0x7E, using: &generator) })))
        // Before, each frame stayed `empty.bin+0x100000` and no note named the image.
        let note = try Self.resolve([empty, random, "/proc/self/status", "/proc/self/mem"])
        #expect(note.contains("in 4 images could not be symbolicated"), "\(note)")
        #expect(note.contains("\(empty) (not an ELF or Mach-O file)"), "\(note)")
        #expect(note.contains("\(random) (not an ELF or Mach-O file)"), "\(note)")
        #expect(note.contains("/proc/self/status (not an ELF or Mach-O file)"), "\(note)")
        #expect(note.contains("/proc/self/mem (file not readable)"), "\(note)")
    }

    @Test func anELFFileTheToolsNameNothingInIsNamedWithWhy() throws {
        guard Symbolizer.tools().symbolizer != nil else { return }
        let path = NSTemporaryDirectory() + "lifetrace-symbolizer-bare-\(getpid()).so"
        defer { unlink(path) }
        // The ELF magic number and nothing of use after it: no symbol table, no line table.
        #expect(FileManager.default.createFile(atPath: path, contents: Data([0x7F, 0x45, 0x4C, 0x46]) + Data(count: 5000)))
        let note = try Self.resolve([path])
        #expect(note.contains("\(path) (no symbols or debug information)"), "\(note)")
    }
}
