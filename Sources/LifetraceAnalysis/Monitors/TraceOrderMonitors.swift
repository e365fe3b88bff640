import LifecycleModel
import LifetraceFormat
import LifetraceOutput

// The monitors of the rules on the order of a trace's events themselves (docs/LIFECYCLE.md, rules
// 10 to 12): on which thread callbacks run, how begins and ends nest, and the streams' clocks.

/// `main-thread-callbacks`: a lifecycle callback began on a thread other than the main thread.
struct MainThreadCallbacksMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.mainThreadCallbacks
    static let edges: RuleEdge.Kinds = .callbackOffMain

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .callbackOffMain(let off) = edge else { return }
        let event = off.event
        findings.add(Rule(rule), at: event.timestamp, witnesses: [event]) {
            "\(context.callbackText(off.name, scene: off.scene)) ran on thread \(event.thread) at "
                + "\(context.when(event.timestamp)); expected lifecycle callbacks on the main thread."
        }
    }
}

/// `callback-nesting`: an end with no open begin on its thread (or one that returns around a begin
/// still open inside it), or a begin still open at a normal end.
struct CallbackNestingMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.callbackNesting
    static let edges: RuleEdge.Kinds = .nestingBroken

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .nestingBroken(let broken) = edge else { return }
        switch broken {
        case .returnedAroundInner(let end, let name, let scene, let inner):
            findings.add(Rule(rule), at: end.timestamp, witnesses: [inner, end]) {
                "\(context.callbackText(name, scene: scene)) returned at \(context.when(end.timestamp)) while "
                    + "\(context.describe(inner)), which began inside it at \(context.when(inner.timestamp)), had "
                    + "not returned on thread \(end.thread); expected callbacks to return innermost first."
            }
        case .callbackNeverBegan(let end, let name, let scene):
            findings.add(Rule(rule), at: end.timestamp, witnesses: [end]) {
                "\(context.callbackText(name, scene: scene)) returned at \(context.when(end.timestamp)) on thread "
                    + "\(end.thread) but never began there; expected a callback.begin with the same name and scene "
                    + "before it."
            }
        case .signpostNeverBegan(let end, let name, let key):
            findings.add(Rule(rule), at: end.timestamp, witnesses: [end]) {
                "signpost \"\(context.symbols.shown(name) ?? "")\"\(key == .min ? "" : " (id \(key))") ended at "
                    + "\(context.when(end.timestamp)) on thread \(end.thread) but never began there; expected a "
                    + "signpost.begin with the same name and id before it."
            }
        case .openAtExit(let begin, let exit):
            findings.add(Rule(rule), at: exit.timestamp, witnesses: [begin, exit]) {
                "\(context.describe(begin)) began at \(context.when(begin.timestamp)) on thread \(begin.thread) and "
                    + "had not ended when the process exited at \(context.when(exit.timestamp)); expected every "
                    + "begin to end before a normal exit."
            }
        }
    }
}

/// `time-order`: a timestamp goes backwards within its stream.
struct TimeOrderMonitor: BuiltInMonitor {
    static let rule = BuiltInRule.timeOrder
    static let edges: RuleEdge.Kinds = .timeBackwards

    static func judge(_ edge: RuleEdge, context: MonitorContext, findings: inout RuleFindings) {
        guard case .timeBackwards(let backwards) = edge else { return }
        let (event, previous) = (backwards.event, backwards.previous)
        findings.add(Rule(rule), at: event.timestamp, witnesses: [previous, event]) {
            "\(event.type.name) on the \(event.stream.name) stream has timestamp \(event.timestamp) ns, "
                + "\(DurationFormat.fixed.string(previous.timestamp - event.timestamp)) before the event before it "
                + "on the same stream (\(previous.type.name) at \(previous.timestamp) ns); expected "
                + "timestamps that never go backwards within a stream (the recorder's clock or "
                + "buffering is at fault)."
        }
    }
}
