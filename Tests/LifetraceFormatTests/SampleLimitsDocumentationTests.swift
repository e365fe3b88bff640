import Foundation
import LifetraceFormat
import Testing

/// The limits on what a reader keeps of a trace's stack samples, as docs/JSONL.md and
/// docs/FORMAT.md state them, against the constants of ``SampledStacks`` that enforce them: the
/// pages are held to the code, one source of truth.
struct SampleLimitsDocumentationTests {
    static func page(_ name: String) throws -> String {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return try String(contentsOfFile: parts.joined(separator: "/") + "/docs/" + name, encoding: .utf8)
    }

    /// `2^18` for a power of two.
    static func power(_ value: Int) -> String {
        #expect(value > 0 && value & (value - 1) == 0, "\(value) is not a power of two")
        return "2^\(value.trailingZeroBitCount)"
    }

    /// `262,144`: thousands separated by commas, as the pages write them.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    @Test("docs/JSONL.md gives the reader's limits on stack lines, images, frame nodes, samples and symbols as SampledStacks has them")
    func jsonlPage() throws {
        let page = try Self.page("JSONL.md").replacingOccurrences(of: "\n", with: " ")
        let stacks = SampledStacks.maxNodes
        #expect(page.contains("At most \(Self.grouped(stacks)) (\(Self.power(stacks))) `stack` lines"))
        #expect(page.contains("more than \(Self.grouped(stacks)) `stack` lines"))
        #expect(page.contains(
            "(\(Self.grouped(SampledStacks.maxImages)) images, \(Self.power(SampledStacks.maxNodes)) frame nodes, "
                + "\(Self.power(SampledStacks.maxSamples)) samples, \(Self.power(SampledStacks.maxNodes)) symbols or "
                + "\(SampledStacks.maxSymbolBytes >> 20) MiB of their text)"))
        // The ids' table: a node and a depth (4 bytes each) per stack line.
        #expect(page.contains("the table of ids stays bounded (\((stacks * 8) >> 20) MiB)"))
    }

    @Test("docs/FORMAT.md gives the same limits, in its text and in its table of limits")
    func formatPage() throws {
        let page = try Self.page("FORMAT.md").replacingOccurrences(of: "\n", with: " ")
        #expect(page.contains(
            "(`SampledStacks`): \(Self.grouped(SampledStacks.maxImages)) images, \(Self.power(SampledStacks.maxNodes)) frame nodes"))
        #expect(page.contains("\(Self.power(SampledStacks.maxSamples)) samples (6 MiB), \(Self.power(SampledStacks.maxNodes)) symbols and "
            + "\(SampledStacks.maxSymbolBytes >> 20) MiB of symbol text"))
        #expect(page.contains(
            "| images, frame nodes, samples, symbols kept | \(SampledStacks.maxImages), \(Self.power(SampledStacks.maxNodes)), "
                + "\(Self.power(SampledStacks.maxSamples)), \(Self.power(SampledStacks.maxNodes)) and \(SampledStacks.maxSymbolBytes >> 20) MiB of symbol text |"))
        #expect(page.contains("frames of one stack | \(SampledStacks.maxDepth) |"))
        #expect(page.contains("a trace's records look up at most \(Self.power(SampledStacks.maxWalkedFrames)) frames"))
        #expect(page.contains("| frames of stack records looked up in the tree, per trace | \(Self.power(SampledStacks.maxWalkedFrames)) "))
    }
}
