import Foundation
import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// Every trace under `Samples/real/` is a sequence real iOS produces, named with its public source
/// and its expected verdict in its `meta` line: `expect` with the allowances (the default) and
/// `expect-textbook` under `--textbook`, each `ok` or a comma-separated list of `severity:rule`.
/// A new sample is one file: this test reads them all.
struct RealIOSSamplesTests {
    static let directory = SampleTraces.directory.deletingLastPathComponent().appendingPathComponent("real")

    static var files: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.sorted()
    }

    /// The verdict of an analysis in the form of `expect`: the sorted `severity:rule` set, or `ok`.
    static func verdict(_ analysis: TraceAnalysis) -> String {
        let found = Set(analysis.violations.map { "\($0.rule.severity.rawValue):\($0.rule.id)" })
        return found.isEmpty ? "ok" : found.sorted().joined(separator: ",")
    }

    /// `expect` written in any order, normalised like ``verdict(_:)``.
    static func normalised(_ expect: String) -> String {
        expect == "ok" ? "ok" : expect.split(separator: ",").map(String.init).sorted().joined(separator: ",")
    }

    static func analyze(_ name: String, textbook: Bool) throws -> TraceAnalysis {
        var source = try TraceInputs.open(path: directory.appendingPathComponent(name).path)
        return try LifecycleAnalyzer.analyze(&source, path: name, options: AnalysisOptions(textbook: textbook))
    }

    @Test("there is a sample per sequence, at least twenty, each naming its source and verdicts")
    func samplesNameTheirSources() throws {
        #expect(Self.files.count >= 20)
        var sequences: Set<String> = []
        for name in Self.files {
            let metadata = try TraceInputs.open(path: Self.directory.appendingPathComponent(name).path).metadata
            #expect(!(metadata["source"] ?? "").isEmpty, "\(name) names no source")
            #expect(metadata["expect"] != nil && metadata["expect-textbook"] != nil, "\(name) states no verdict")
            if let sequence = metadata["sequence"]?.split(separator: " ").first { sequences.insert(String(sequence)) }
        }
        #expect(Set((1...10).map(String.init) + ["miss:"]).isSubset(of: sequences))
    }

    @Test("every sample gets the verdict its meta line expects", arguments: files)
    func expectedVerdict(name: String) throws {
        let analysis = try Self.analyze(name, textbook: false)
        let expect = try #require(analysis.metadata["expect"])
        #expect(Self.verdict(analysis) == Self.normalised(expect), "\(analysis.violations.map(\.message))")
    }

    @Test("under --textbook every sample gets the textbook's verdict", arguments: files)
    func textbookVerdict(name: String) throws {
        let analysis = try Self.analyze(name, textbook: true)
        let expect = try #require(analysis.metadata["expect-textbook"])
        #expect(Self.verdict(analysis) == Self.normalised(expect), "\(analysis.violations.map(\.message))")
    }

    @Test("each allowance has a sample it turns from a violation into a pass, and textbook rules it names")
    func everyAllowanceIsExercised() throws {
        var relaxed = 0
        for name in Self.files {
            let real = try Self.analyze(name, textbook: false)
            let textbook = try Self.analyze(name, textbook: true)
            if Self.verdict(real) != Self.verdict(textbook) { relaxed += 1 }
        }
        #expect(relaxed >= Allowance.allCases.count - 1)
        for allowance in Allowance.allCases {
            #expect(allowance.entry.textbookRules.allSatisfy { Rule(id: $0) != nil }, "\(allowance.id)")
            #expect(!allowance.entry.sources.isEmpty && !allowance.entry.stillViolation.isEmpty)
        }
    }
}
