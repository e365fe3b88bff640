import Foundation
import LifetraceTestSupport
import Testing

/// Small traces that claim a lot: many lifetimes, stalls, threads or scenes, and drop counts past
/// 2^63. Every command stays within its caps (docs/RELIABILITY.md, "Memory: bounded per trace")
/// and says what it left out. The traces here are just past each cap;
/// `scripts/make-hostile-claims.py` writes the million-scale ones docs/PERFORMANCE.md measures.
@Suite struct HostileClaimsTests {
    typealias Workspace = HostileInputTests.Workspace

    /// The same kinds of trace as `scripts/make-hostile-claims.py`, in JSONL.
    static func trace(_ kind: String, _ count: Int) -> String {
        var text = ""
        if kind == "launches" {
            for index in 0..<count { text += "{\"ts\":\(1000 + index * 1000),\"type\":\"launch\"}\n" }
            return text
        }
        text = "{\"ts\":1000,\"type\":\"launch\"}\n"
        var time = 2000
        for index in 0..<count {
            switch kind {
            case "stalls":
                text += "{\"ts\":\(time),\"type\":\"runloop.wake\"}\n{\"ts\":\(time + 300_000_000),\"type\":\"runloop.sleep\"}\n"
                time += 300_001_000
            case "threads":
                text += "{\"ts\":\(time + index),\"type\":\"signpost.begin\",\"name\":\"s\",\"thread\":\(index + 1)}\n"
            case "scenes":
                text += "{\"ts\":\(time + index),\"type\":\"state\",\"to\":\"inactive\",\"scene\":\"s\(index)\"}\n"
            default:
                text += "{\"ts\":\(time + index),\"type\":\"dropped\",\"count\":\(1 << 62)}\n"
            }
        }
        return text
    }

    /// The output without white space, so that JSON members read the same however they are indented.
    static func compact(_ text: String) -> String { String(text.unicodeScalars.filter { $0 != " " && $0 != "\n" }) }

    @Test("5,005 launches: reports list the first 5,000 lifetimes, count the rest and say so in every format")
    func lifetimes() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("launches.jsonl", Self.trace("launches", 5005))
        let text = try HostileInputTests.run(["report", trace], in: workspace, expect: 0).output
        #expect(text.hasPrefix("Trace \(trace): 5005 events, 5005 lifetimes"))
        #expect(text.components(separatedBy: "\nLifetime ").count - 1 == 5000)
        #expect(text.contains("Note: 5 more lifetimes were found and not listed: an analysis keeps the first 5000 lifetimes"))
        let markdown = try HostileInputTests.run(["report", trace, "--format", "markdown"], in: workspace, expect: 0).output
        #expect(markdown.components(separatedBy: "\n## Lifetime ").count - 1 == 5000)
        #expect(markdown.contains("5 more lifetimes were found and not listed"))
        for command in [["report", trace, "--format", "json"], ["check", trace, "--format", "json"]] {
            let json = Self.compact(try HostileInputTests.run(command, in: workspace, expect: 0).output)
            #expect(json.components(separatedBy: "\"busySource\"").count - 1 == 5000, "\(command)")
            #expect(json.contains("\"capped\":{\"lifetimes\":5}"), "\(command)")
            #expect(json.contains("\"lifetimes\":5005"), "\(command)")
        }
        let html = workspace.path + "/r.html"
        try LifetraceCommand.run(["report", trace, "--format", "html", "-o", html]).expectStatus(0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        try FileManager.default.removeItem(atPath: html)
        #expect(page.contains("5005 events, 5005 lifetimes"))
        #expect(page.contains("Note: 5 more lifetimes were found and not listed"))
        let diff = try HostileInputTests.run(["diff", trace, "--", trace], in: workspace, expect: 0).output
        #expect(diff.contains("the samples of 2 traces come from the first 5000 lifetimes of each"))
        let summary = try HostileInputTests.run(["report", trace, trace], in: workspace, expect: 0).output
        #expect(summary.contains("2 traces, 10010 lifetimes"))
        #expect(summary.contains("the statistics of 2 traces come from the first 5000 lifetimes of each"))
        // The first 5,000 lifetimes' slices are named apart, the rest share a name: the exports'
        // name tables stay bounded.
        let exported = workspace.path + "/x.json"
        try LifetraceCommand.run(["export", trace, "--format", "chrome-json", "-o", exported]).expectStatus(0)
        let records = try String(contentsOfFile: exported, encoding: .utf8)
        try FileManager.default.removeItem(atPath: exported)
        #expect(records.contains("\"lifetime 4999\""))
        #expect(!records.contains("\"lifetime 5000\""))
    }

    @Test("1,500 stalls in one lifetime: the first 1,000 are listed, the rest counted, and hang still judges each")
    func stalls() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("stalls.jsonl", Self.trace("stalls", 1500))
        // No first frame: every stall is in the launch window, a launch-stall (300 ms: the threshold
        // is given, the default being the 400 ms launch budget), counted past the list too.
        let check = Self.compact(
            try HostileInputTests.run(["check", trace, "--format", "json", "--stall-threshold", "250ms"], in: workspace, expect: 1).output)
        #expect(check.contains("\"capped\":{\"stalls\":500}"))
        #expect(check.contains("\"launch-stall\":1500"))
        #expect(check.contains("\"omittedStalls\":500"))
        let text = try HostileInputTests.run(["report", trace], in: workspace, expect: 0).output
        #expect(text.contains("    500 more stalls not listed (1500 in all)"))
        #expect(text.contains("Note: 500 more stalls were found and not listed: an analysis keeps the first 1000 stalls of a lifetime"))
        #expect(text.components(separatedBy: "  300 ms  ").count - 1 == 1000)
        let rows = Self.compact(try HostileInputTests.run(["report", trace, "--format", "ndjson"], in: workspace, expect: 0).output)
        #expect(rows.contains("\"count\":1500"))
        #expect(rows.contains("\"omitted\":500"))
        // In the foreground after its launch window, every stall is a hang, counted past the list.
        let foreground = "{\"ts\":1000,\"type\":\"launch\"}\n{\"ts\":1500,\"type\":\"state\",\"to\":\"active\"}\n"
            + "{\"ts\":1600,\"type\":\"frame\"}\n" + Self.trace("stalls", 1500).split(separator: "\n").dropFirst().joined(separator: "\n") + "\n"
        let hangs = try workspace.write("hangs.jsonl", foreground)
        let judged = try HostileInputTests.run(["check", hangs, "--strict"], in: workspace, expect: 1).output
        #expect(judged.hasSuffix("1 failed: 0 errors, 1500 warnings (strict: warnings fail)\n"), "\(judged.suffix(300))")
    }

    @Test("an open signpost on each of 10,005 threads: 10,000 threads are followed, the other begins counted")
    func threads() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("threads.jsonl", Self.trace("threads", 10_005))
        let check = try HostileInputTests.run(["check", trace], in: workspace, expect: 0).output
        #expect(check.contains("note: 5 callback or signpost begins were not followed: an analysis follows at most 10000 threads"))
        let json = Self.compact(try HostileInputTests.run(["check", trace, "--format", "json"], in: workspace, expect: 0).output)
        #expect(json.contains("\"capped\":{\"threadBegins\":5}"))
        let github = try HostileInputTests.run(["check", trace, "--format", "github"], in: workspace, expect: 0).output
        #expect(github.contains("title=analysis caps in \(trace)::5 callback or signpost begins were not followed"))
        let junit = try HostileInputTests.run(["check", trace, "--format", "junit"], in: workspace, expect: 0).output
        #expect(junit.contains("<system-out>note: 5 callback or signpost begins were not followed"))
    }

    @Test("1,003 scenes in one lifetime: 1,000 are followed, the other scenes' events counted; replay lines stay short")
    func scenes() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("scenes.jsonl", Self.trace("scenes", 1003))
        let check = try HostileInputTests.run(["check", trace], in: workspace, expect: 0).output
        #expect(check.contains("note: 3 scene events were not followed: an analysis follows at most 1000 scenes per lifetime"))
        let replay = try HostileInputTests.run(["replay", trace], in: workspace, expect: 0).output
        let last = replay.split(separator: "\n").filter { $0.contains("scene=s1002") }.last ?? ""
        #expect(last.hasSuffix("984 more scenes"), "\(last)")
        #expect(replay.contains("note: 3 scene events were not followed"))
    }

    @Test("drop counts that add past 2^63 saturate: the lifetime says the recorder lost at least 2^63 - 1 events")
    func droppedCounts() throws {
        let workspace = try Workspace()
        let trace = try workspace.write("dropped.jsonl", Self.trace("dropped", 3))
        let text = try HostileInputTests.run(["report", trace], in: workspace, expect: 0).output
        #expect(text.contains("The recorder lost at least 9223372036854775807 events in this lifetime"))
        let json = Self.compact(try HostileInputTests.run(["report", trace, "--format", "json"], in: workspace, expect: 0).output)
        #expect(json.contains("\"droppedEvents\":9223372036854775807"))
    }
}
