import Foundation
import LifetraceAnalysis
import LifetraceTestSupport
import Testing

/// CONTRIBUTING.md's recipe "Add a built-in threshold rule" on its example, `background-callback`:
/// the rule is in the two source files the recipe names and nowhere else, and its samples pass
/// and fail as a new rule's must.
@Suite struct ThresholdRuleRecipeTests {
    private static let repository = SampleTraces.directory.deletingLastPathComponent().deletingLastPathComponent()

    /// The two files of the example, as the recipe names them.
    static let exampleFiles = [
        "Sources/LifetraceAnalysis/Rules/BuiltInRule.swift",
        "Sources/LifetraceAnalysis/Monitors/BackgroundCallbackMonitor.swift",
    ]

    /// Every Swift source of the package, relative to the repository's root.
    static func sources() -> [String] {
        let root = repository.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let path = walker?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append("Sources/" + path) }
        }
        return files.sorted()
    }

    @Test func theExampleRuleLivesInTheTwoFilesTheRecipeNames() throws {
        // The rule's case, its monitor, or anything that hands the monitor its edges by name.
        let mention = try Regex(#"\bbackgroundCallback\b|\bBackgroundCallbackMonitor\b"#)
        var naming: [String] = []
        // Every source counts, Rule.swift too: a rule's shortcut there would be a third file.
        for file in Self.sources() {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
            if text.contains(mention) { naming.append(file) }
        }
        #expect(naming.sorted() == Self.exampleFiles.sorted())
        #expect(naming.count <= 2)
    }

    @Test func theRecipeNamesTheExampleFiles() throws {
        let contributing = try String(contentsOf: Self.repository.appendingPathComponent("CONTRIBUTING.md"), encoding: .utf8)
        let recipe = try #require(contributing.range(of: "### Add a built-in threshold rule (two source files)"))
        let section = contributing[recipe.upperBound...]
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        let text = section[..<end]
        for file in Self.exampleFiles {
            #expect(text.contains((file as NSString).lastPathComponent), "the recipe names \(file)")
        }
        #expect(text.contains("BackgroundCallbackMonitor"))
        #expect(text.contains("BuiltInRule.monitors"))
        #expect(text.contains("RuleEdge"))
    }

    @Test func theExampleRulesSamplesPassAndFail() throws {
        let id = BuiltInRule.backgroundCallback.id
        let pass = try SampleTraces.analyze("\(id).pass.jsonl")
        #expect(pass.violations.isEmpty)
        let fail = try SampleTraces.analyze("\(id).fail.jsonl")
        #expect(!fail.violations.isEmpty)
        #expect(fail.violations.allSatisfy { $0.rule == Rule(.backgroundCallback) })
    }
}
