import LifetraceAnalysis
import LifetraceFormat
import LifetraceTestSupport
import Testing

/// Random walks over the seeds' state diagram follow the life cycle; one mutation of such a walk
/// breaks exactly the rule it should.
struct LifecyclePropertyTests {
    static let seeds: [UInt64] = Array(1...200)

    @Test("random walks over the state diagram produce no violation", arguments: seeds)
    func walksAreClean(seed: UInt64) {
        let walk = LifecycleWalk.make(seed: seed)
        let analysis = walk.build().analyze()
        #expect(analysis.violations.isEmpty, "seed \(seed): \(analysis.violations.map { "\($0.rule.id): \($0.message)" })")
        #expect(analysis.lifetimes.count == 3)
        // Without state events a kill after suspension looks like a kill in Background.
        let silentEnd: LifetimeEnd.Kind = walk.states ? .killedWhileSuspended : .killedInBackground
        for lifetime in analysis.lifetimes {
            #expect(lifetime.end.kind == .terminated || lifetime.end.kind == silentEnd)
        }
    }

    /// A mutation of a walk and the rule it must produce.
    enum Mutation: CaseIterable {
        case dropResignBeforeBackground, dropForegroundBeforeActive, dropWillFinishLaunching
        case duplicateBecomeActive, duplicateEnterForeground, swapLaunchCallbacks
        case swapResignAndEnterBackground, willTerminateWhileSuspended, callbackOffMainThread

        var rule: Rule {
            switch self {
            case .dropResignBeforeBackground, .swapResignAndEnterBackground: .resignBeforeBackground
            case .dropForegroundBeforeActive: .foregroundBeforeActive
            case .dropWillFinishLaunching, .swapLaunchCallbacks: .launchSequence
            case .duplicateBecomeActive: .balancedActivation
            // (A second didEnterBackground is legal: the background execution sequence.)
            case .duplicateEnterForeground: .legalTransition
            case .willTerminateWhileSuspended: .noTerminateWhileSuspended
            case .callbackOffMainThread: .mainThreadCallbacks
            }
        }

        /// Whether the rule must be the only one: a swap leaves the model one step out of phase
        /// with the trace, so later callbacks may be reported too.
        var isExclusive: Bool { self != .swapResignAndEnterBackground }
    }

    @Test("one mutation produces the expected rule", arguments: Mutation.allCases)
    func mutationIsCaught(mutation: Mutation) {
        var applied = 0
        for seed in Self.seeds {
            var walk = LifecycleWalk.make(seed: seed)
            var random = SeededRandom(seed: seed &* 7919)
            guard let mutatedAt = Self.mutate(&walk.items, mutation, using: &random) else { continue }
            applied += 1
            let analysis = walk.build().analyze()
            let rules = analysis.violations.map(\.rule)
            if mutation.isExclusive {
                #expect(Set(rules) == [mutation.rule], "seed \(seed): \(analysis.violations.map { "\($0.rule.id): \($0.message)" })")
            } else {
                #expect(rules.first == mutation.rule, "seed \(seed): \(rules)")
                #expect(analysis.violations.first?.timestamp == TraceBuilder.ns(mutatedAt))
            }
        }
        #expect(applied >= 20, "the walks gave too few places to apply \(mutation)")
    }

    /// Applies `mutation` at a random place where it fits; returns the time of the mutated item.
    static func mutate(_ items: inout [WalkItem], _ mutation: Mutation, using random: inout SeededRandom) -> Double? {
        func callbacks(_ names: Set<String>) -> [Int] { items.indices.filter { items[$0].callback.map(names.contains) ?? false } }
        func nextCallback(after index: Int) -> Int? { items.indices.first { $0 > index && items[$0].callback != nil } }
        switch mutation {
        case .dropResignBeforeBackground, .dropForegroundBeforeActive:
            let (first, second) = mutation == .dropResignBeforeBackground
                ? (["willResignActive", "sceneWillResignActive"], ["didEnterBackground", "sceneDidEnterBackground"])
                : (["willEnterForeground", "sceneWillEnterForeground"], ["didBecomeActive", "sceneDidBecomeActive"])
            let places = callbacks(Set(first)).filter { index in
                nextCallback(after: index).map { second.contains(items[$0].callback!) } ?? false
            }
            // A scene-based foreground launch enters the foreground before its first activation;
            // dropping that is a legal-transition mistake, not the one under test.
            let usable = places.filter { index in
                mutation == .dropResignBeforeBackground || !items[..<index].reversed().prefix(4).contains { $0.callback == "sceneWillConnect" }
            }
            guard let index = usable.randomElement(using: &random) else { return nil }
            let time = items[nextCallback(after: index)!].ms
            items.remove(at: index)
            return time
        case .dropWillFinishLaunching:
            guard let index = callbacks(["willFinishLaunching"]).randomElement(using: &random) else { return nil }
            let time = items[nextCallback(after: index)!].ms
            items.remove(at: index)
            return time
        case .duplicateBecomeActive, .duplicateEnterForeground:
            let names: Set<String> = mutation == .duplicateBecomeActive
                ? ["didBecomeActive", "sceneDidBecomeActive"] : ["willEnterForeground", "sceneWillEnterForeground"]
            guard let index = callbacks(names).randomElement(using: &random) else { return nil }
            var copy = items[index]
            copy.ms += 0.75
            items.insert(copy, at: index + 1)
            return copy.ms
        case .swapLaunchCallbacks, .swapResignAndEnterBackground:
            let (first, second) = mutation == .swapLaunchCallbacks
                ? ("willFinishLaunching", "didFinishLaunching") : ("willResignActive", "didEnterBackground")
            let places = callbacks([first]).filter { index in nextCallback(after: index).map { items[$0].callback == second } ?? false }
            guard let index = places.randomElement(using: &random) else { return nil }
            let other = nextCallback(after: index)!
            let kind = items[index].kind
            items[index].kind = items[other].kind
            items[other].kind = kind
            return items[index].ms
        case .willTerminateWhileSuspended:
            let places = items.indices.filter { index in
                if case .exit(_, signal: 9) = items[index].kind { return true }
                return false
            }
            guard let index = places.randomElement(using: &random), index > 0,
                case .state(.suspended) = items[index - 1].kind
            else { return nil }
            let time = (items[index - 1].ms + items[index].ms) / 2
            items.insert(WalkItem(ms: time.rounded(), kind: .callback("willTerminate", scene: nil, thread: .main)), at: index)
            return time.rounded()
        case .callbackOffMainThread:
            let lifecycle = items.indices.filter { index in
                items[index].callback.flatMap(CallbackName.init(rawValue:))?.isLifecycleCallback ?? false
            }
            guard let index = lifecycle.randomElement(using: &random),
                case .callback(let name, let scene, _) = items[index].kind
            else { return nil }
            items[index].kind = .callback(name, scene: scene, thread: .numbered(7))
            return items[index].ms
        }
    }
}
