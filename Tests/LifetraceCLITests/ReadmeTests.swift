import Foundation
import LifetraceTestSupport
import Testing

/// The README and docs/IOS.md are executed: every command a page shows (a line starting with `$ `
/// in a code block) runs, in order, in one shell per page from the repository's root, and must
/// print what the page shows under it. `…` stands for text that varies from run to run; the scratch
/// directory the examples write to is shown as `$OUT`. Commands that are not run here (they need a
/// Mac) are shown without the `$ `. After an intended change of output, edit the page.
@Suite struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// A command of the README and the output shown under it.
    struct Example: CustomStringConvertible {
        var command: String
        var expected: [String]
        var line: Int
        var page = "README.md"
        var description: String { "\(page):\(line): $ \(command)" }
    }

    /// The commands of `text`, in order, with the lines shown under each.
    static func examples(in text: String) -> [Example] {
        var examples: [Example] = []
        var inBlock = false
        var continuing = false
        // Whether the block being read has had a command: lines before one are not output.
        var commandInBlock = false
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inBlock.toggle()
                continuing = false
                commandInBlock = false
                continue
            }
            guard inBlock else { continue }
            if continuing, !examples.isEmpty {
                examples[examples.count - 1].command += "\n" + line
                continuing = line.hasSuffix("\\")
            } else if line.hasPrefix("$ ") {
                examples.append(Example(command: String(line.dropFirst(2)), expected: [], line: index + 1))
                continuing = line.hasSuffix("\\")
                commandInBlock = true
            } else if commandInBlock {
                examples[examples.count - 1].expected.append(String(line))
            }
        }
        return examples
    }

    /// Whether `actual` is what `expected` shows, `…` matching any text within a line.
    static func matches(_ actual: String, _ expected: String) -> Bool {
        guard expected.contains("…") else { return actual == expected }
        let parts = expected.components(separatedBy: "…")
        var rest = Substring(actual)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }

    /// Runs `examples` in one shell; returns each one's output (standard output and error).
    static func run(_ examples: [Example]) throws -> [String] {
        var script = "cd \"\(root)\"\n__status=0\n"
        for (index, example) in examples.enumerated() {
            script += "printf '\\n@@@%d@@@\\n' \(index)\n(exit $__status); { \(example.command)\n} 2>&1; __status=$?\n"
        }
        script += "printf '\\n@@@end@@@\\n%s\\n' \"$OUT\"\n[ -n \"$OUT\" ] && rm -rf \"$OUT\"\n"
        let scriptPath = NSTemporaryDirectory() + "lifetrace-readme-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sh"
        try script.write(toFile: scriptPath, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: scriptPath) }
        // Each example's standard error goes to its output inside the script (`2>&1`).
        let output = try ChildProcess.run("/bin/bash", [scriptPath], environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"]).output
        guard let end = output.range(of: "\n@@@end@@@\n") else { return [] }
        let scratch = output[end.upperBound...].trimmingCharacters(in: .newlines)
        var sections: [String] = []
        var rest = Substring(output[..<end.lowerBound])
        for index in examples.indices {
            let marker = "\n@@@\(index)@@@\n"
            guard let start = rest.range(of: marker) else { return sections }
            if index > 0 { sections.append(String(rest[..<start.lowerBound])) }
            rest = rest[start.upperBound...]
        }
        sections.append(String(rest))
        return sections.map { scratch.isEmpty ? $0 : $0.replacingOccurrences(of: scratch, with: "$OUT") }
    }

    @Test("every command of the README gives the output it shows, and writes nothing into the repository")
    func readmeRuns() throws {
        try Self.runPage("README.md", atLeast: 30)
    }

    @Test("every Linux command of docs/IOS.md gives the output it shows, and writes nothing into the repository")
    func iosGuideRuns() throws {
        try Self.runPage("docs/IOS.md", atLeast: 10)
    }

    /// Runs the commands of `page` (a path from the repository's root) and compares their output.
    static func runPage(_ page: String, atLeast minimum: Int) throws {
        let text = try String(contentsOfFile: Self.root + "/" + page, encoding: .utf8)
        let examples = Self.examples(in: text).map { example in
            var example = example
            example.page = page
            return example
        }
        #expect(examples.count >= minimum)
        let before = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root))
        let outputs = try Self.run(examples)
        #expect(outputs.count == examples.count)
        for (example, output) in zip(examples, outputs) {
            var actual = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            while actual.last == "" { actual.removeLast() }
            var expected = example.expected
            while expected.last == "" { expected.removeLast() }
            let same = actual.count == expected.count && zip(actual, expected).allSatisfy { Self.matches($0, $1) }
            #expect(same, "\(example)\nexpected:\n\(expected.joined(separator: "\n"))\nactual:\n\(actual.joined(separator: "\n"))")
        }
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root))
        #expect(after.subtracting(before).isEmpty, "the commands of \(page) wrote \(after.subtracting(before).sorted()) into the repository")
    }

    @Test("the README parser: commands, continuations and the output under each")
    func parser() {
        let examples = Self.examples(in: """
            text
            ```
            $ one \\
                --flag
            out 1
            $ two
            ```
            ```
            not a command
            ```
            """)
        #expect(examples.map(\.command) == ["one \\\n    --flag", "two"])
        #expect(examples.map(\.expected) == [["out 1"], []])
        #expect(Self.matches("took 0.123 s here", "took … s here"))
        #expect(!Self.matches("took 0.123 ms here", "took … s here"))
        #expect(Self.matches("pid 4121", "pid …"))
    }
}
