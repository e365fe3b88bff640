import Foundation
import LifetraceAnalysis
import LifetraceRules
import Testing

/// Each scope kind with a trace that passes and one that violates, and the stretches left open
/// by an exit, by a relaunch and by the end of the trace.
struct ScopeTests {
    typealias T = RuleTrace

    @Test func launchScope() throws {
        // The launch window ends at the first frame (150 ms).
        let rule = T.rule("never: mark slow-path", scope: "launch")
        #expect(try T.check(rule, T.launch + [T.mark(300, "slow-path"), T.exit(400)]) == [])
        #expect(try T.check(rule, Array(T.launch[0...4]) + [T.mark(120, "slow-path")] + [T.launch[5], T.exit(400)]) == ["r@120"])
        // A require judged at the window's end.
        let require = T.rule("require: mark db-open", scope: "launch")
        #expect(try T.check(require, T.launch + [T.mark(300, "db-open"), T.exit(400)]) == ["r@150"])
    }

    @Test func foregroundScope() throws {
        let rule = T.rule("never: mark upload", scope: "foreground")
        #expect(try T.check(rule, T.launch + T.toBackground(1000) + [T.mark(1100, "upload"), T.exit(2000)]) == [])
        #expect(try T.check(rule, T.launch + [T.mark(500, "upload")] + T.toBackground(1000) + [T.exit(2000)]) == ["r@500"])
        // Inactive and Active are one stretch: one violation for two matches across them.
        #expect(try T.check(rule, T.launch + [T.mark(500, "upload")] + Array(T.toBackground(1000)[0...1])
            + [T.mark(1002, "upload"), T.exit(2000)]) == ["r@500"])
    }

    @Test func activeAndInactiveScopes() throws {
        let active = T.rule("never: mark x", scope: "active")
        let inactive = T.rule("never: mark x", scope: "inactive")
        let inInactive = T.launch + Array(T.toBackground(1000)[0...1]) + [T.mark(1002, "x"), T.exit(2000)]
        #expect(try T.check(active, inInactive) == [])
        #expect(try T.check(inactive, inInactive) == ["r@1002"])
        let inActive = T.launch + [T.mark(500, "x"), T.exit(2000)]
        #expect(try T.check(active, inActive) == ["r@500"])
        #expect(try T.check(inactive, inActive) == [])
    }

    @Test func backgroundAndSuspendedScopes() throws {
        let suspended = T.rule("never: signpost network*", scope: "suspended")
        let network = T.event("signpost.begin", 1600, #""name":"network-sync""#)
        #expect(try T.check(suspended, T.launch + T.toBackground(1000) + [network, T.exit(2000)]) == ["r@1600"])
        #expect(try T.check(suspended, T.launch + T.toBackground(1000, suspend: false) + [network, T.exit(2000)]) == [])
        // Background ends at Suspended: a require judged there.
        let background = T.rule("require: mark saved", scope: "background")
        #expect(try T.check(background, T.launch + T.toBackground(1000)) == ["r@1500"])
        #expect(try T.check(background, T.launch + Array(T.toBackground(1000)[0...3]) + [T.mark(1200, "saved")]
            + [T.toBackground(1000)[4]]) == [])
    }

    @Test func fromToScope() throws {
        let rule = "rules:\n  - id: r\n    scope: {from: callback didEnterBackground, to: state suspended}\n    require: signpost save-state\n"
        let save = T.event("signpost.begin", 1100, #""name":"save-state""#)
        #expect(try T.check(rule, T.launch + Array(T.toBackground(1000)[0...3]) + [save, T.toBackground(1000)[4]]) == [])
        #expect(try T.check(rule, T.launch + T.toBackground(1000)) == ["r@1500"])
        // A `from` inside an open stretch is ignored; events outside any stretch do not count.
        #expect(try T.check(rule, T.launch + [save] + T.toBackground(1000)) == ["r@1500"])
    }

    @Test func fromWithoutToLastsToTheLifetimesEnd() throws {
        let rule = "rules:\n  - id: r\n    scope: {from: mark logout}\n    never: mark sync\n"
        #expect(try T.check(rule, T.launch + [T.mark(300, "sync"), T.mark(400, "logout"), T.exit(500)]) == [])
        #expect(try T.check(rule, T.launch + [T.mark(400, "logout"), T.mark(450, "sync"), T.exit(500)]) == ["r@450"])
    }

    @Test func aStretchOpenAtAnExitIsJudged() throws {
        let rule = T.rule("require: mark saved", scope: "background")
        #expect(try T.check(rule, T.launch + T.toBackground(1000, suspend: false) + [T.exit(1300)]) == ["r@1300"])
    }

    @Test func aStretchOpenAtARelaunchIsJudged() throws {
        let rule = T.rule("response: {after: mark request, expect: mark reply}", scope: "lifetime")
        let second = T.launch.map { $0.replacingOccurrences(of: #"{"ts":"#, with: #"{"ts":5"#) }
        // The first lifetime ends at its last event (the request at 300 ms) when the next launch comes.
        let analysis = try RuleTrace.analyze(rule, T.launch + [T.mark(300, "request")] + second + [T.exit(6000)])
        #expect(analysis.violations.map(\.timestamp) == [300_000_000])
        #expect(analysis.violations.map(\.lifetime) == [0])
    }

    @Test func aStretchCutByTheEndOfTheTraceIsNotJudgedByRequireOrResponse() throws {
        let cut = T.launch + T.toBackground(1000, suspend: false) + [T.mark(1200, "request")]
        #expect(try T.check(T.rule("require: mark saved", scope: "background"), cut) == [])
        #expect(try T.check(T.rule("response: {after: mark request, expect: mark reply}", scope: "background"), cut) == [])
        // A deadline already passed before the trace stops is seen, and reported.
        #expect(try T.check(T.rule("response: {after: mark request, expect: mark reply, within: 10ms}", scope: "background"),
            cut + [T.mark(1300, "other")]) == ["r@1210"])
        // never, max-count and max-duration report what they saw.
        #expect(try T.check(T.rule("never: mark request", scope: "background"), cut) == ["r@1200"])
        #expect(try T.check(T.rule("max-count: {of: mark request, limit: 0}", scope: "background"), cut) == ["r@1200"])
        let open = T.event("signpost.begin", 1100, #""name":"upload""#)
        #expect(try T.check(T.rule("max-duration: {of: signpost upload, limit: 50ms}", scope: "background"), cut + [open, T.mark(1300, "x")])
            == ["r@1150"])
    }

    @Test func aStallBelongsToTheStretchItBeganIn() throws {
        // The busy interval begins while Active and ends after the move to Background.
        let rule = T.rule("never: stall", scope: "active")
        let stall = [T.event("runloop.wake", 700)] + T.toBackground(1000, suspend: false) + [T.event("runloop.sleep", 1010), T.exit(2000)]
        #expect(try T.check(rule, T.launch + stall) == ["r@700"])
        #expect(try T.check(T.rule("never: stall", scope: "background"), T.launch + stall) == [])
    }
}
