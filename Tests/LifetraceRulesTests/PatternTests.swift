import Foundation
import LifetraceAnalysis
import LifetraceRules
import Testing

/// Each pattern, in the lifetime scope, with a trace that passes and one that violates.
struct PatternTests {
    typealias T = RuleTrace

    @Test func never() throws {
        let rule = T.rule("never: mark oops*")
        #expect(try T.check(rule, T.launch + [T.mark(300, "fine"), T.exit(400)]) == [])
        // One violation per stretch, at the first match.
        #expect(try T.check(rule, T.launch + [T.mark(300, "oops-1"), T.mark(310, "oops-2"), T.exit(400)]) == ["r@300"])
    }

    @Test func require() throws {
        let rule = T.rule("require: mark saved")
        #expect(try T.check(rule, T.launch + [T.mark(300, "saved"), T.exit(400)]) == [])
        // At the stretch's end: here the exit.
        #expect(try T.check(rule, T.launch + [T.mark(300, "other"), T.exit(400)]) == ["r@400"])
    }

    @Test func precedence() throws {
        let rule = T.rule("precedence: {first: signpost db-open, then: first-frame}")
        let open = [T.event("signpost.begin", 20, #""name":"db-open""#), T.event("signpost.end", 30, #""name":"db-open""#)]
        #expect(try T.check(rule, Array(T.launch[0...2]) + open + Array(T.launch[3...]) + [T.exit(400)]) == [])
        #expect(try T.check(rule, T.launch + open.map { $0.replacingOccurrences(of: #""ts":20"#, with: #""ts":200"#) } + [T.exit(400)])
            == ["r@150"])
    }

    @Test func responseWithin() throws {
        let rule = T.rule("response: {after: mark request, expect: mark reply, within: 100ms}")
        #expect(try T.check(rule, T.launch + [T.mark(300, "request"), T.mark(350, "reply"), T.exit(400)]) == [])
        // Late: at the request's time plus `within`.
        #expect(try T.check(rule, T.launch + [T.mark(300, "request"), T.mark(450, "reply"), T.exit(500)]) == ["r@400"])
        // Never answered, the deadline after the stretch's end: at the end.
        #expect(try T.check(rule, T.launch + [T.mark(300, "request"), T.exit(350)]) == ["r@350"])
        // One violation per request.
        #expect(try T.check(rule, T.launch + [T.mark(300, "request"), T.mark(310, "request"), T.exit(900)]) == ["r@400", "r@410"])
    }

    @Test func responseWithoutWithin() throws {
        let rule = T.rule("response: {after: mark request, expect: mark reply}")
        #expect(try T.check(rule, T.launch + [T.mark(300, "request"), T.mark(5000, "reply"), T.exit(6000)]) == [])
        #expect(try T.check(rule, T.launch + [T.mark(300, "reply"), T.mark(400, "request"), T.exit(6000)]) == ["r@6000"])
    }

    @Test func maxDurationOfCallback() throws {
        let rule = T.rule("max-duration: {of: callback didEnterBackground, limit: 5s}")
        #expect(try T.check(rule, T.launch + T.toBackground(1000) + [T.exit(2000)]) == [])
        let slow = [T.event("callback", 1000, #""name":"didEnterBackground","dur":6000000000"#), T.exit(8000)]
        // At its begin plus the limit.
        #expect(try T.check(rule, T.launch + slow) == ["r@6000"])
    }

    @Test func maxDurationOfSignpostAndTask() throws {
        let signpost = T.rule("max-duration: {of: signpost sync*, limit: 1s}")
        let sync = [T.event("signpost.begin", 200, #""name":"sync-feed""#), T.event("signpost.end", 1500, #""name":"sync-feed""#)]
        #expect(try T.check(signpost, T.launch + sync + [T.exit(2000)]) == ["r@1200"])
        #expect(try T.check(signpost, T.launch + [T.exit(2000)]) == [])
        let task = T.rule("max-duration: {of: bgtask upload, limit: 10s}")
        let upload = [T.event("bgtask.begin", 200, #""id":7,"name":"upload""#), T.event("bgtask.end", 20200, #""id":7,"name":"upload""#)]
        #expect(try T.check(task, T.launch + upload + [T.exit(30000)]) == ["r@10200"])
        #expect(try T.check(task, T.launch + [upload[0], T.event("bgtask.end", 2200, #""id":7,"name":"upload""#), T.exit(30000)]) == [])
    }

    @Test("max-duration follows the analyzer's intervals: a task ends at its expiry, a callback with the callback that encloses it")
    func maxDurationEndsWhereTheAnalyzerEndsTheInterval() throws {
        let task = T.rule("max-duration: {of: bgtask upload, limit: 10s}")
        let expired = [T.event("bgtask.begin", 200, #""id":7,"name":"upload""#), T.event("bgtask.expire", 5200, #""id":7,"name":"upload""#)]
        // Expired after 5 s: over no limit of 10 s, though its bgtask.end never comes.
        #expect(try T.check(task, T.launch + expired + [T.exit(30000)]) == [])
        let longer = [expired[0], T.event("bgtask.expire", 12200, #""id":7,"name":"upload""#)]
        #expect(try T.check(task, T.launch + longer + [T.exit(30000)]) == ["r@10200"])
        // An expiry is not an end: `bgtask.end` matches only the task's own end event.
        #expect(try T.check(T.rule("require: bgtask.end upload"), T.launch + expired + [T.exit(30000)]) == ["r@30000"])

        let callback = T.rule("max-duration: {of: callback refresh, limit: 1s}")
        // `refresh` begins inside `didBecomeActive`, which returns first: it ends there, 300 ms in.
        let enclosed = [
            T.event("callback.begin", 1000, #""name":"didBecomeActive""#), T.event("callback.begin", 1100, #""name":"refresh""#),
            T.event("callback.end", 1400, #""name":"didBecomeActive""#),
        ]
        #expect(try T.check(callback, T.launch + enclosed + [T.exit(5000)]) == [])
        let late = [enclosed[0], enclosed[1], T.event("callback.end", 2500, #""name":"didBecomeActive""#)]
        #expect(try T.check(callback, T.launch + late + [T.exit(5000)]) == ["r@2100"])
    }

    @Test func maxDurationOfStallLaunchAndState() throws {
        let busy = [T.event("runloop.wake", 300), T.event("runloop.sleep", 900)]
        #expect(try T.check(T.rule("max-duration: {of: stall, limit: 500ms}"), T.launch + busy + [T.exit(1000)]) == ["r@800"])
        #expect(try T.check(T.rule("max-duration: {of: stall, limit: 700ms}"), T.launch + busy + [T.exit(1000)]) == [])
        #expect(try T.check(T.rule("max-duration: {of: launch, limit: 100ms}"), T.launch + [T.exit(1000)]) == ["r@100"])
        #expect(try T.check(T.rule("max-duration: {of: launch, limit: 200ms}"), T.launch + [T.exit(1000)]) == [])
        let background = T.rule("max-duration: {of: state background, limit: 400ms}")
        #expect(try T.check(background, T.launch + T.toBackground(1000) + [T.exit(2000)]) == ["r@1405"])
        #expect(try T.check(background, T.launch + T.toBackground(1000, suspend: false) + [T.exit(1300)]) == [])
    }

    @Test func maxCount() throws {
        let rule = T.rule("max-count: {of: mark retry, limit: 2}")
        #expect(try T.check(rule, T.launch + [T.mark(300, "retry"), T.mark(310, "retry"), T.exit(400)]) == [])
        #expect(try T.check(rule, T.launch + [T.mark(300, "retry"), T.mark(310, "retry"), T.mark(320, "retry"), T.mark(330, "retry"), T.exit(400)])
            == ["r@320"])
    }

    @Test func selectorsFilterByThreadAndScene() throws {
        let rule = T.rule("never: callback sceneDidDisconnect thread=main scene=main*")
        let other = T.event("callback", 300, #""name":"sceneDidDisconnect","scene":"extra""#)
        let main = T.event("callback", 300, #""name":"sceneDidDisconnect","scene":"main-window""#)
        #expect(try T.check(rule, T.launch + [other, T.exit(400)]) == [])
        #expect(try T.check(rule, T.launch + [main, T.exit(400)]) == ["r@300"])
        let worker = T.rule("never: mark * thread=other")
        #expect(try T.check(worker, T.launch + [T.mark(300, "x"), T.exit(400)]) == [])
        #expect(try T.check(worker, T.launch + [T.event("mark", 300, #""name":"x","thread":3"#), T.exit(400)]) == ["r@300"])
    }
}
