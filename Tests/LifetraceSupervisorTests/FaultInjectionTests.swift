import Foundation
import LifecycleHost
import LifetraceAnalysis
import LifetraceFormat
import LifetraceRecorder
import Testing

@testable import LifetraceSupervisor

/// Each fault really happens in the recorded run: the events that its rule reports are there.
@Suite struct FaultInjectionTests {
    /// The sample scenario that exposes each fault: the one the fault names.
    static func scenario(for fault: RecordFault) -> String { fault.scenario }

    @Test(arguments: RecordFault.allCases)
    func faultLeavesItsWitnessInTheTrace(_ fault: RecordFault) throws {
        let (outcome, trace, analysis) = try SampleRecording.record(
            try SampleRecording.scenario(Self.scenario(for: fault)), faults: [fault])
        #expect(outcome == .completed, "\(fault.name): \(outcome)")
        let lines = trace.lifecycleLines
        #expect(Self.witnessed(fault, lines: lines, trace: trace), "\(fault.name):\n\(lines.joined(separator: "\n"))")
        // The analyzer reports the fault under its rule.
        #expect(analysis.violatedRules.map(\.id).contains(fault.rule), "\(fault.name): \(analysis.violations.map(\.message))")
    }

    @Test func everyFaultNamesARuleOfTheAnalyzer() {
        for fault in RecordFault.allCases {
            #expect(Rule(id: fault.rule) != nil, "\(fault.name) -> \(fault.rule)")
            #expect(RecordFault(name: fault.name) == fault)
        }
    }

    /// Whether the run shows what `fault` must cause.
    static func witnessed(_ fault: RecordFault, lines: [String], trace: RecordedTrace) -> Bool {
        let callbacks = lines.filter { $0.hasPrefix("begin ") }
        func follows(_ first: String, _ second: String, in list: [String]) -> Bool {
            zip(list, list.dropFirst()).contains { $0 == first && $1 == second }
        }
        switch fault {
        case .host(.skipResignActive):
            return !lines.contains("begin willResignActive")
                && follows("begin didBecomeActive", "begin didEnterBackground", in: callbacks)
        case .host(.skipWillFinishLaunching):
            return callbacks.first == "begin didFinishLaunching" && !lines.contains("begin willFinishLaunching")
        case .host(.skipEnterForeground):
            return !lines.contains("begin willEnterForeground")
                && follows("begin didEnterBackground", "begin didBecomeActive", in: callbacks)
        case .host(.doubleActivate):
            return follows("begin didBecomeActive", "begin didBecomeActive", in: callbacks)
        case .host(.doubleEnterForeground):
            return follows("begin willEnterForeground", "begin willEnterForeground", in: callbacks)
        case .host(.callbackOffMain):
            return trace.events.contains { trace.line($0) == "begin didBecomeActive" && !$0.thread.isMain }
        case .host(.callbackAfterTerminate):
            return follows("begin willTerminate", "begin didReceiveMemoryWarning", in: callbacks)
        case .host(.unbalancedCallbackEnd):
            let ends = lines.filter { $0 == "end didBecomeActive" }.count
            return ends > lines.filter { $0 == "begin didBecomeActive" }.count
        case .host(.sceneBeforeConnect):
            guard let early = lines.firstIndex(of: "begin sceneWillEnterForeground main"),
                let connect = lines.firstIndex(of: "begin sceneWillConnect main")
            else { return false }
            return early < connect
        case .terminateWhileSuspended:
            let relevant = lines.filter { $0.hasPrefix("state ") || $0 == "begin willTerminate" }
            return follows("state suspended", "begin willTerminate", in: relevant)
        case .runWhileSuspended:
            let relevant = lines.filter { $0.hasPrefix("state ") || $0.hasPrefix("begin ") }
            return follows("state suspended", "begin didReceiveMemoryWarning", in: relevant)
        case .skipInactiveState:
            let states = lines.filter { $0.hasPrefix("state ") }
            return follows("state active", "state background", in: states)
        }
    }
}
