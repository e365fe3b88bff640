import Foundation
import LifetraceRecorder
import Testing

/// `LIFETRACE_OUTPUT`, read by the recorder on every platform.
struct RecorderOutputEnvironmentTests {
    static func path(_ output: RecorderOutput?) -> String? {
        if case .file(let path)? = output { return path }
        return nil
    }

    @Test("a path, a directory for a file per run, ~ for the home directory; unset or empty says nothing")
    func values() {
        let now = Date(timeIntervalSince1970: 1_795_000_000.987)
        func resolve(_ value: String?) -> String? {
            Self.path(RecorderOutput.fromEnvironment(value.map { ["LIFETRACE_OUTPUT": $0] } ?? [:], home: "/home/a/", pid: 9, now: now))
        }
        #expect(resolve(nil) == nil)
        #expect(resolve("") == nil)
        #expect(resolve("run.ltrace") == "run.ltrace")
        #expect(resolve("/tmp/traces/") == "/tmp/traces/lifetrace-20261118-110640.987-9.ltrace")
        #expect(resolve("~/Library/Caches/x.ltrace") == "/home/a/Library/Caches/x.ltrace")
        #expect(resolve("~nobody/x") == "~nobody/x")
    }

    @Test("per-run names sort in the order the runs started")
    func namesSortByTime() {
        let names = [0.0, 0.5, 59.999, 3600, 86400 * 400].map {
            RecorderOutput.traceFileName(pid: 99_999, now: Date(timeIntervalSince1970: 1_700_000_000 + $0))
        }
        #expect(names == names.sorted())
        #expect(names[0] == "lifetrace-20231114-221320.000-99999.ltrace")
    }

    @Test("the environment replaces the configured output, and only when it names one")
    func applying() {
        let options = RecorderOptions(output: .file("configured.ltrace"))
        #expect(Self.path(options.applyingEnvironment(["LIFETRACE_OUTPUT": "env.ltrace"]).output) == "env.ltrace")
        #expect(Self.path(options.applyingEnvironment([:]).output) == "configured.ltrace")
    }
}
