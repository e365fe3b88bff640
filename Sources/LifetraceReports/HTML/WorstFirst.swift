import LifecycleModel
import LifetraceAnalysis
import LifetraceFormat
import LifetraceOutput

/// What a long trace's page shows first: its slowest launches, its longest stalls, and the work
/// the stalls are blamed on, ranked by its share of the stall time (as Xcode Organizer ranks hang
/// signatures). The zoomed views and the detailed lifetimes follow the same ranking, so that the
/// worst of a trace of thousands of lifetimes is drawn, not its first minutes.
public enum WorstFirst {
    /// A stall with its number in time order over the whole trace (its anchor, `stall-N`) and
    /// its lifetime.
    public struct NumberedStall: Sendable {
        /// Its number, from 1, in time order.
        public var number: Int
        /// The stall.
        public var stall: Stall
        /// Its lifetime.
        public var lifetime: LifetimeReport
    }

    /// Work the stalls are blamed on (its chain of callbacks and signposts), with what it cost.
    public struct BlamedWork: Sendable {
        /// The chain (`didFinishLaunching > IndexSearchCatalog`), or a phrase when no work ran.
        public var work: String
        /// The stalls blamed on it.
        public var stalls: Int
        /// Their total duration (ns).
        public var total: Int64
        /// The longest of them.
        public var longest: NumberedStall
    }

    /// Every stall the analysis kept, numbered in time order.
    public static func stalls(_ analysis: TraceAnalysis) -> [NumberedStall] {
        var result: [NumberedStall] = []
        for lifetime in analysis.lifetimes {
            for stall in lifetime.stalls {
                result.append(NumberedStall(number: result.count + 1, stall: stall, lifetime: lifetime))
            }
        }
        return result
    }

    /// The `limit` longest stalls, longest first (the earlier first among equals).
    public static func longestStalls(_ analysis: TraceAnalysis, limit: Int) -> [NumberedStall] {
        Array(stalls(analysis).sorted { ($1.stall.duration, $0.number) < ($0.stall.duration, $1.number) }.prefix(limit))
    }

    /// How long a lifetime's launch took: its duration, or for a launch that never finished,
    /// the length of the window seen (to the lifetime's end); nil without a launch window.
    public static func launchTime(_ lifetime: LifetimeReport) -> Int64? {
        lifetime.launch.duration ?? lifetime.launchWindow.map { $0.end - $0.start }
    }

    /// The launch kinds of `analysis` that have a launch window, cold first (in the order of
    /// ``LaunchKind``): launches are ranked within their kind, never across kinds. A cold launch
    /// builds the process and its first scene; a prewarmed one is timed from its resume, a
    /// background one to the end of didFinishLaunching. Xcode Organizer likewise gives launch
    /// time for cold launches and resumes apart.
    public static func launchKinds(_ analysis: TraceAnalysis) -> [LaunchKind] {
        let present = Set(analysis.lifetimes.filter { $0.launchWindow != nil }.map(\.launch.kind))
        return LaunchKind.allCases.filter(present.contains)
    }

    /// The `limit` lifetimes of launch kind `kind` with the slowest launches, slowest first (a
    /// launch that never finished by the window it was seen for; the earlier first among equals).
    public static func slowestLaunches(_ analysis: TraceAnalysis, kind: LaunchKind, limit: Int) -> [LifetimeReport] {
        let launched = analysis.lifetimes.filter { $0.launchWindow != nil && $0.launch.kind == kind }
        return Array(launched.sorted {
            (launchTime($1) ?? 0, $0.index) < (launchTime($0) ?? 0, $1.index)
        }.prefix(limit))
    }

    /// The launches the page zooms into, at most `limit`: the slowest of each kind in turn (the
    /// slowest cold launch, the slowest prewarmed, ..., then the second slowest of each), so
    /// that every kind's worst is drawn; listed by kind, cold first, the slowest first in each.
    public static func zoomedLaunches(_ analysis: TraceAnalysis, limit: Int) -> [LifetimeReport] {
        let ranked = launchKinds(analysis).map { slowestLaunches(analysis, kind: $0, limit: limit) }
        var taken = ranked.map { _ in 0 }
        var count = 0
        for rank in 0..<limit {
            for (kind, list) in ranked.enumerated() where count < limit && rank < list.count {
                taken[kind] += 1
                count += 1
            }
        }
        return zip(ranked, taken).flatMap { $0.0.prefix($0.1) }
    }

    /// The work the stalls are blamed on, by total stall time, largest first (the most stalls
    /// first among equals, then the name).
    public static func blamedWork(_ analysis: TraceAnalysis) -> [BlamedWork] {
        var byWork: [String: BlamedWork] = [:]
        for entry in stalls(analysis) {
            let work = entry.stall.work?.chainText ?? "no callback or signpost on the main thread"
            if var known = byWork[work] {
                known.stalls += 1
                known.total &+= entry.stall.duration
                if entry.stall.duration > known.longest.stall.duration { known.longest = entry }
                byWork[work] = known
            } else {
                byWork[work] = BlamedWork(work: work, stalls: 1, total: entry.stall.duration, longest: entry)
            }
        }
        return byWork.values.sorted { ($1.total, $1.stalls, $0.work) < ($0.total, $0.stalls, $1.work) }
    }

    /// The rows of each table of the section.
    public static let tableRows = 10

    /// The section: three sortable tables, every row linking to its lifetime and, where the page
    /// zoomed into it, its view. Empty for a trace with neither a finished launch nor a stall.
    static func section(_ analysis: TraceAnalysis, zoomed: Set<String>) -> String {
        let kinds = launchKinds(analysis)
        let all = stalls(analysis)
        guard !kinds.isEmpty || !all.isEmpty else { return "" }
        func lifetimeLink(_ lifetime: LifetimeReport) -> String {
            "<a href=\"#lifetime-\(lifetime.index + 1)\">lifetime \(lifetime.index + 1)</a>"
        }
        func cell(_ nanoseconds: Int64) -> String {
            "<td class=\"num\" data-v=\"\(nanoseconds)\">\(DurationFormat.fixed.string(nanoseconds))</td>"
        }
        func stallLink(_ entry: NumberedStall) -> String {
            let anchor = HTMLText.anchor("stall", entry.number)
            return zoomed.contains(anchor) ? "<a href=\"#\(anchor)\">stall \(entry.number)</a>" : "stall \(entry.number)"
        }
        var out = "<h2 id=\"worst\">The worst first</h2>\n<p class=\"axis-note\">Click a column's title to sort by it. "
            + "Launches are ranked within their kind (cold, prewarmed, background). "
            + "The views below zoom into the \(TraceHTMLReport.zoomedLaunchLimit) slowest launches (the slowest of each kind in turn) and the "
            + "\(TraceHTMLReport.zoomedStallLimit) longest stalls, in this order.</p>\n"
        // A table per launch kind, ranked within it: a cold launch is never ranked against a
        // prewarmed or background one.
        for kind in kinds {
            let launches = slowestLaunches(analysis, kind: kind, limit: tableRows)
            let launched = analysis.lifetimes.count { $0.launchWindow != nil && $0.launch.kind == kind }
            let id = kind == kinds.first ? "slowest-launches" : "slowest-\(kind.rawValue)-launches"
            out += "<h3 id=\"\(id)\">Slowest \(kind.rawValue) launches (\(launches.count) of \(launched))</h3>\n"
                + "<table class=\"sortable\">\n<tr><th>rank</th><th>lifetime</th><th>kind</th><th>launch time</th>"
                + "<th>busy in window</th><th>stalls in window</th><th>view</th></tr>\n"
            for (rank, lifetime) in launches.enumerated() {
                let anchor = HTMLText.anchor("launch", lifetime.index + 1)
                out += "<tr><td class=\"num\">\(rank + 1)</td><td data-v=\"\(lifetime.index + 1)\">\(lifetimeLink(lifetime))</td>"
                    + "<td>\(kind.rawValue)</td>"
                    + (lifetime.launch.duration == nil
                        ? "<td class=\"num\" data-v=\"\(launchTime(lifetime) ?? 0)\">unfinished after \(DurationFormat.fixed.string(launchTime(lifetime) ?? 0))</td>"
                        : cell(lifetime.launch.duration ?? 0))
                    // The launch's own stalls: a resume hang long after it is not one.
                    + "\(cell(lifetime.launch.busyInWindow))<td class=\"num\">\(lifetime.launchStalls.count)</td>"
                    + "<td>\(zoomed.contains(anchor) ? "<a href=\"#\(anchor)\">launch view</a>" : "-")</td></tr>\n"
            }
            out += "</table>\n"
        }
        guard !all.isEmpty else { return out }
        let longest = longestStalls(analysis, limit: tableRows)
        // With stack samples, each row says what they blame beside the callback/signpost chain.
        let profiles = analysis.stallProfilesByStart
        let sampled = profiles.isEmpty ? "" : "<th>stack samples</th>"
        func samplesCell(_ stall: Stall) -> String {
            profiles.isEmpty ? "" : "<td>\(HTMLText.escape(profiles[stall.start]?.blameLine ?? "-"))</td>"
        }
        out += "<h3 id=\"longest-stalls\">Longest stalls (\(longest.count) of \(all.count))</h3>\n"
            + "<table class=\"sortable\">\n<tr><th>rank</th><th>stall</th><th>lifetime</th><th>starts</th><th>after its launch</th>"
            + "<th>duration</th><th>work</th>\(sampled)</tr>\n"
        for (rank, entry) in longest.enumerated() {
            // The moment on the one clock, and the length since the launch as a duration.
            let starts = "<td class=\"num\" data-v=\"\(entry.stall.start)\">\(TraceClock.moment(entry.stall.start, origin: analysis.origin))</td>"
            let since = entry.stall.sinceLaunch.map(cell) ?? "<td>-</td>"
            out += "<tr><td class=\"num\">\(rank + 1)</td><td data-v=\"\(entry.number)\">\(stallLink(entry))</td>"
                + "<td data-v=\"\(entry.lifetime.index + 1)\">\(lifetimeLink(entry.lifetime))</td>\(starts)\(since)\(cell(entry.stall.duration))"
                + "<td>\(HTMLText.escape(entry.stall.work?.chainText ?? "-"))</td>\(samplesCell(entry.stall))</tr>\n"
        }
        out += "</table>\n"
        let work = blamedWork(analysis)
        let stallTime = all.reduce(Int64(0)) { $0 &+ $1.stall.duration }
        out += "<h3 id=\"blamed-work\">Blamed work by share of stall time (\(min(work.count, tableRows)) of \(work.count))</h3>\n"
            + "<table class=\"sortable\">\n<tr><th>work</th><th>stalls</th><th>stall time</th><th>share</th>"
            + "<th>longest</th>\(sampled.isEmpty ? "" : "<th>stack samples of the longest</th>")</tr>\n"
        for entry in work.prefix(tableRows) {
            let share = stallTime > 0 ? Double(entry.total) / Double(stallTime) * 100 : 0
            out += "<tr><td>\(HTMLText.escape(entry.work))</td><td class=\"num\">\(entry.stalls)</td>\(cell(entry.total))"
                + "<td class=\"num\" data-v=\"\(entry.total)\">\(DecimalText.string(share, decimals: 1)) %</td>"
                + "<td data-v=\"\(entry.longest.stall.duration)\">\(DurationFormat.fixed.string(entry.longest.stall.duration)), "
                + "\(stallLink(entry.longest)) in \(lifetimeLink(entry.longest.lifetime))</td>\(samplesCell(entry.longest.stall))</tr>\n"
        }
        return out + "</table>\n"
    }
}
