import Foundation
import Lifetrace
import LifetraceRecorder
import LifetraceTestSupport
import Testing

/// Where an app's traces go, and how many stay.
struct TraceRetentionTests {
    typealias Stored = TraceRetention.StoredTrace

    static func name(_ second: Int) -> String { "lifetrace-20261124-0300\(second < 10 ? "0" : "")\(second).000-1.ltrace" }

    @Test("the newest traces are kept up to the count and the byte limits; the oldest go first")
    func removalsKeepTheNewest() {
        let traces = (1...6).map { Stored(name: Self.name($0), size: 10) }
        #expect(TraceRetention(keepNewest: 3, maximumBytes: 1000).removals(from: traces, current: Self.name(6))
            == [Self.name(3), Self.name(2), Self.name(1)])
        #expect(TraceRetention(keepNewest: 10, maximumBytes: 25).removals(from: traces, current: Self.name(6))
            == [Self.name(4), Self.name(3), Self.name(2), Self.name(1)])
    }

    @Test("never the trace being written, one with a region beside it, or a file of another name")
    func protectedFiles() {
        let traces = [
            Stored(name: Self.name(1), size: 10, hasRegion: true), Stored(name: Self.name(2), size: 10),
            Stored(name: Self.name(3), size: 500), Stored(name: "notes.db", size: 10_000), Stored(name: "lifetrace-x.jsonl", size: 10),
        ]
        // The current trace (3) is over the byte limit alone, and is kept all the same.
        #expect(TraceRetention(keepNewest: 1, maximumBytes: 100).removals(from: traces, current: Self.name(3)) == [Self.name(2)])
    }

    /// The current trace and the one with a region count toward the three kept.
    @Test("applied to a directory, it removes the files it names and nothing else")
    func applyToADirectory() throws {
        let directory = try ScratchDirectory.make("retention")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for second in 1...5 {
            _ = FileManager.default.createFile(atPath: directory + "/" + Self.name(second), contents: Data(count: 100))
        }
        _ = FileManager.default.createFile(atPath: directory + "/" + Self.name(1) + TraceRecovery.regionSuffix, contents: Data(count: 10))
        _ = FileManager.default.createFile(atPath: directory + "/other.txt", contents: Data(count: 10))
        let removed = TraceRetention(keepNewest: 3, maximumBytes: 1 << 20).apply(directory: directory, current: Self.name(5))
        #expect(removed.sorted() == [Self.name(2), Self.name(3)])
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(left == ["lifetrace-20261124-030001.000-1.ltrace", "lifetrace-20261124-030001.000-1.ltrace.lifetrace-region",
            "lifetrace-20261124-030004.000-1.ltrace", "lifetrace-20261124-030005.000-1.ltrace", "other.txt"])
    }

    @Test("the default directory is Library/Caches/Lifetrace in the home directory, a file per run")
    func defaultDirectory() {
        let now = Date(timeIntervalSince1970: 1_795_000_000.25)
        #expect(TraceDirectory.defaultDirectory(home: "/var/mobile/Containers/Data/Application/X/")
            == "/var/mobile/Containers/Data/Application/X/Library/Caches/Lifetrace")
        let output = TraceDirectory.output(environment: [:], home: "/home/app", directory: nil, pid: 42, now: now)
        #expect(output.path == "/home/app/Library/Caches/Lifetrace/lifetrace-20261118-110640.250-42.ltrace")
        #expect(output.rotated == "/home/app/Library/Caches/Lifetrace")
        let chosen = TraceDirectory.output(environment: [:], home: "/home/app", directory: "/data/traces", pid: 42, now: now)
        #expect(chosen.rotated == "/data/traces")
    }

    @Test("LIFETRACE_OUTPUT wins: a file is written as named and never rotated; a directory gets a file per run")
    func environmentOutput() {
        let now = Date(timeIntervalSince1970: 0)
        let file = TraceDirectory.output(
            environment: ["LIFETRACE_OUTPUT": "/tmp/run.ltrace"], home: "/h", directory: "/d", pid: 1, now: now)
        #expect(file.path == "/tmp/run.ltrace" && file.rotated == nil)
        let perRun = TraceDirectory.output(
            environment: ["LIFETRACE_OUTPUT": "~/Library/Caches/Lifetrace/uitest/"], home: "/h", directory: nil, pid: 7, now: now)
        #expect(perRun.path == "/h/Library/Caches/Lifetrace/uitest/lifetrace-19700101-000000.000-7.ltrace")
        #expect(perRun.rotated == "/h/Library/Caches/Lifetrace/uitest")
    }
}
