import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceRules
import LifetraceRunner

/// libFuzzer's entry point: an input as a rule file (docs/RULES.md), read as `--rules` reads it
/// and, when it is read, checked on the sample traces of the rules (docs/FUZZING.md). The
/// property: no crash, no hang, every refusal a `RuleFileError` with a line and a column, and
/// every format of `check` rendered with the rules' violations.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRuleFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = RuleFileInput.directory + "/rules.yml"
    guard FileManager.default.createFile(atPath: path, contents: Data(UnsafeBufferPointer(start: data, count: size))) else {
        fatalError("cannot write the fuzz input to \(path)")
    }
    let rules: [FileRule]
    do throws(RuleFileError) {
        rules = try RuleFileParser.load(paths: [path])
    } catch {
        // Line 0: the file as a whole (not UTF-8, too large); otherwise a line and a column.
        guard error.line >= 1 && error.column >= 1 || error.line == 0, !error.problem.contains("\n") else {
            fatalError("rule file error without a place, or on two lines: \(error)")
        }
        return 0
    }
    var options = AnalysisOptions(violationLimit: 50)
    options.userRules = UserRules(rules)
    for trace in RuleFileInput.traces {
        let analysis: TraceAnalysis
        do throws(TraceError) {
            analysis = try LifecycleAnalyzer.analyze(path: trace, options: options, prefetch: false)
        } catch {
            fatalError("a sample trace does not read: \(error)")
        }
        let output = CheckOutput(analyses: [analysis], rules: options.rules, userRules: options.userRules, strict: true)
        for format in CheckOutput.Format.allCases { RuleFileInput.consume(output.rendered(format)) }
    }
    return 0
}

enum RuleFileInput {
    /// A directory of this process's own for the input.
    static let directory: String = {
        let path = NSTemporaryDirectory() + "lifetrace-rule-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The traces every rule file is checked on: the rule samples, passing and failing.
    static let traces: [String] = {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples/rules/traces").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples)) ?? []
        guard !names.isEmpty else { fatalError("no sample traces under \(samples)") }
        return names.filter { $0.hasSuffix(".jsonl") }.sorted().map { samples + "/" + $0 }
    }()

    /// Keeps the optimiser from dropping a rendering.
    @inline(never)
    static func consume(_ text: String) {
        if text.utf8.count == Int.max { print(text) }
    }
}
