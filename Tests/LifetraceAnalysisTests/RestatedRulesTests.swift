import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRules
import LifetraceRunner
import LifetraceTestSupport
import LifetraceZstd
import Testing

/// `Samples/rules/restated-builtins.yml` restates five built-in rules in the rule-file language:
/// the restatements and the built-in rules flag the same traces among every sample and every
/// random walk of the property tests, clean or mutated.
struct RestatedRulesTests {
    /// Each restated built-in rule and the rules of the file that restate it.
    static let restated: [String: [String]] = [
        "background-callback": ["restated-background-callback", "restated-scene-background-callback"],
        "launch-watchdog": ["restated-launch-watchdog"],
        "launch-stall": ["restated-launch-stall"],
        "no-terminate-while-suspended": ["restated-no-terminate-while-suspended"],
        "main-thread-callbacks": [
            "willFinishLaunching", "didFinishLaunching", "didBecomeActive", "willResignActive", "didEnterBackground",
            "willEnterForeground", "willTerminate", "scene-callbacks",
        ].map { "restated-main-thread-\($0.lowercased())" },
    ]

    static let samples = SampleTraces.directory.deletingLastPathComponent()

    /// With the stall threshold given, launch-stall's threshold is the stall edge's (without, it is
    /// the 400 ms launch budget while stalls start at 250 ms).
    static func options() throws -> AnalysisOptions {
        var options = AnalysisOptions(stallThreshold: 250_000_000)
        options.userRules = UserRules(try RuleFileParser.load(paths: [samples.appendingPathComponent("rules/restated-builtins.yml").path]))
        return options
    }

    /// The built-in rules among the restated ones whose verdict differs from their restatement's.
    static func disagreements(_ analysis: TraceAnalysis) -> [String] {
        let violated = Set(analysis.violatedRules.map(\.id))
        return restated.keys.sorted().filter { builtIn in
            violated.contains(builtIn) != restated[builtIn]!.contains(where: violated.contains)
        }
    }

    /// Every trace under `Samples/`, text and binary.
    static var sampleFiles: [String] {
        let enumerator = FileManager.default.enumerator(atPath: samples.path)
        var files: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            // The real-iOS samples exercise the allowances and the findings the textbook rules
            // missed (a watchdog kill, willTerminate overrunning), which the restatements do not write.
            if relative.hasPrefix("real/") { continue }
            if relative.hasSuffix(".jsonl") || relative.hasSuffix(".ltrace") { files.append(relative) }
        }
        return files.sorted()
    }

    @Test func theFileRestatesFiveBuiltInRules() throws {
        let ids = try Self.options().userRules!.rules.map(\.id)
        #expect(Set(ids) == Set(Self.restated.values.joined()))
        #expect(Self.restated.keys.allSatisfy { Rule(id: $0) != nil })
    }

    @Test func theSamplesGetTheSameVerdicts() throws {
        let options = try Self.options()
        var flagged = 0
        for file in Self.sampleFiles {
            var source = try TraceInputs.open(path: Self.samples.appendingPathComponent(file).path)
            let analysis = try LifecycleAnalyzer.analyze(&source, path: file, options: options)
            #expect(Self.disagreements(analysis) == [], "\(file): \(analysis.violations.map { "\($0.rule.id): \($0.message)" })")
            if analysis.violatedRules.contains(where: { Self.restated[$0.id] != nil }) { flagged += 1 }
        }
        // The samples hold a failing trace for each restated rule at least.
        #expect(flagged >= Self.restated.count)
    }

    /// A prewarmed launch is timed from the resume of the user's launch by the built-in rules and
    /// by the rule file's `launch` alike (docs/RULES.md, "Scopes").
    @Test func thePrewarmedRealIOSSamplesGetTheSameVerdicts() throws {
        let options = try Self.options()
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.samples.appendingPathComponent("real").path)
            .filter { $0.hasPrefix("prewarm-") && $0.hasSuffix(".jsonl") }.sorted()
        #expect(files.count >= 8)
        for file in files {
            var source = try TraceInputs.open(path: Self.samples.appendingPathComponent("real/\(file)").path)
            let analysis = try LifecycleAnalyzer.analyze(&source, path: file, options: options)
            #expect(Self.disagreements(analysis) == [], "\(file): \(analysis.violations.map { "\($0.rule.id): \($0.message)" })")
        }
    }

    @Test func theRandomWalksGetTheSameVerdicts() throws {
        let options = try Self.options()
        for seed in LifecyclePropertyTests.seeds {
            let clean = LifecycleWalk.make(seed: seed)
            #expect(Self.disagreements(clean.build().analyze(options)) == [], "seed \(seed)")
            for mutation in LifecyclePropertyTests.Mutation.allCases {
                var walk = clean
                var random = SeededRandom(seed: seed &* 7919)
                guard LifecyclePropertyTests.mutate(&walk.items, mutation, using: &random) != nil else { continue }
                let analysis = walk.build().analyze(options)
                #expect(Self.disagreements(analysis) == [], "seed \(seed), \(mutation): \(analysis.violations.map { "\($0.rule.id): \($0.message)" })")
            }
        }
    }
}
