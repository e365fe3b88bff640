import Foundation
import LifetraceAnalysis
import LifetraceFormat
import LifetraceReports
import LifetraceZstd
import Testing

/// The HTML page's graph of each stall's stack samples (``FlameGraphSVG``).
struct FlameGraphHTMLTests {
    static let app = LoadedImage(timestamp: 0, path: "/build/MyApp", buildID: "ab", base: 0x1000, size: 0x1000)
    static let libc = LoadedImage(timestamp: 0, path: "/lib/x86_64-linux-gnu/libc.so.6", buildID: "", base: 0x9000, size: 0x1000)
    static let main: UInt64 = 0x1010
    static let rebuild: UInt64 = 0x1200
    static let memcpy: UInt64 = 0x9100
    static let other: UInt64 = 0x1300

    /// A launch whose didFinishLaunching blocks the main thread for half a second; with
    /// `samples`, ten samples in it: 8 in rebuild (6 inside memcpy), 2 in Cache.warm.
    static func trace(samples: Bool) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-flame-\(UUID().uuidString).ltrace").path
        var symbols = SymbolTable()
        let name = symbols.intern("didFinishLaunching")
        let writer = try TraceWriter(path: path, metadata: TraceMetadata([("app", "com.example.sample")]))
        for event in [
            TraceEvent(timestamp: 0, payload: .launch(reason: .none, background: false, prewarm: false, pid: 1)),
            TraceEvent(timestamp: 1_000_000, payload: .runloopWake),
            TraceEvent(timestamp: 2_000_000, payload: .callbackBegin(name: name, scene: .none)),
            TraceEvent(timestamp: 500_000_000, payload: .callbackEnd(name: name, scene: .none)),
            TraceEvent(timestamp: 501_000_000, payload: .runloopSleep),
        ] {
            try writer.append(event, symbols: symbols)
        }
        if samples {
            try writer.appendImage(app)
            try writer.appendImage(libc)
            for (address, function) in [(main, "main"), (rebuild, "SearchIndex.rebuild()"), (memcpy, "memcpy"), (other, "Cache.warm()")] {
                try writer.appendSymbol(FrameSymbol(function: function, file: function == "memcpy" ? "" : "App.swift", line: 7), for: address, timestamp: 0)
            }
            let shapes: [[UInt64]] = Array(repeating: [main, rebuild, memcpy], count: 6) + Array(repeating: [main, rebuild], count: 2)
                + Array(repeating: [main, other], count: 2)
            for (index, frames) in shapes.enumerated() {
                try writer.appendSample(timestamp: 60_000_000 + Int64(index) * 10_000_000, thread: .main, frames: frames)
            }
        }
        try writer.close()
        return path
    }

    /// The graph's frames: (function, x, width, depth row) from each `<g>`'s rectangle.
    static func frames(_ html: String) throws -> [(tip: String, x: Double, width: Double, y: Int)] {
        let svg = try #require(html.components(separatedBy: "<svg class=\"flame\"").dropFirst().first?.components(separatedBy: "</svg>").first)
        return svg.components(separatedBy: "<g><title>").dropFirst().map { group in
            func attribute(_ name: String) -> String {
                group.components(separatedBy: " \(name)=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
            }
            let tip = group.components(separatedBy: "</title>").first ?? ""
            return (tip, Double(attribute("x")) ?? -1, Double(attribute("width")) ?? -1, Int(attribute("y")) ?? -1)
        }
    }

    @Test func aStallWithSamplesHasItsGraph() throws {
        let path = try Self.trace(samples: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let html = try TraceHTMLReport.make(path: path, options: AnalysisOptions()).html
        #expect(html.components(separatedBy: "<svg class=\"flame\"").count == 2, "one stall, one graph")
        // Under the stall's zoomed view, before the next section.
        let stallView = try #require(html.range(of: "<h3 id=\"stall-1\">"))
        let graph = try #require(html.range(of: "<svg class=\"flame\""))
        #expect(stallView.upperBound < graph.lowerBound)
        #expect(html.contains("Stack samples of the main thread: 10 during the stall; 8 of 10 stack samples in SearchIndex.rebuild() (App.swift:7), most in memcpy."))
        let frames = try Self.frames(html)
        #expect(frames.count == 4)
        let main = try #require(frames.first { $0.tip.hasPrefix("main (App.swift)") })
        #expect(main.x == 0 && main.width == 1000 && main.y == 0)
        #expect(main.tip.contains("10 of 10 samples (100.0%)"))
        let rebuild = try #require(frames.first { $0.tip.hasPrefix("SearchIndex.rebuild() (App.swift)") })
        #expect(rebuild.x == 0 && rebuild.width == 800 && rebuild.y == FlameGraphSVG.rowHeight)
        #expect(rebuild.tip.contains("8 of 10 samples (80.0%), 2 innermost"))
        // In-app frames are marked as such, the system's are not.
        #expect(rebuild.tip.hasSuffix("in-app") && main.tip.hasSuffix("in-app"))
        let warm = try #require(frames.first { $0.tip.hasPrefix("Cache.warm() (App.swift)") })
        #expect(warm.x == 800 && warm.width == 200 && warm.y == FlameGraphSVG.rowHeight)
        let memcpy = try #require(frames.first { $0.tip.hasPrefix("memcpy") })
        #expect(memcpy.x == 0 && memcpy.width == 600 && memcpy.y == 2 * FlameGraphSVG.rowHeight)
        #expect(!memcpy.tip.contains("in-app"))
        // The violation's message carries the blame on the page too.
        #expect(html.contains("Stack samples: 8 of 10 stack samples in SearchIndex.rebuild() (App.swift:7), most in memcpy."))
    }

    @Test func aTraceWithoutSamplesHasNoGraph() throws {
        let path = try Self.trace(samples: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let html = try TraceHTMLReport.make(path: path, options: AnalysisOptions()).html
        #expect(html.contains("<h3 id=\"stall-1\">"), "the stall is still shown")
        #expect(!html.contains("<svg class=\"flame\""))
        #expect(!html.contains("Stack samples of the main thread"))
    }
}
