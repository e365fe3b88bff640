import LifecycleModel
import LifetraceFormat
import Testing

struct SystemMoveTests {
    @Test("moves between Active and Background must pass through Inactive")
    func skipsInactive() {
        #expect(SystemMove.classify(from: .active, to: .background) == .backgroundWithoutResigning)
        #expect(SystemMove.classify(from: .active, to: .suspended) == .backgroundWithoutResigning)
        #expect(SystemMove.classify(from: .background, to: .active) == .activeWithoutForeground)
        #expect(SystemMove.classify(from: .suspended, to: .active) == .activeWithoutForeground)
    }

    @Test("the diagram's edges are legal")
    func edges() {
        let edges: [(LifecycleState, LifecycleState)] = [
            (.notRunning, .inactive), (.notRunning, .background), (.inactive, .active), (.active, .inactive),
            (.inactive, .background), (.background, .inactive), (.background, .suspended),
            (.suspended, .background), (.suspended, .notRunning), (.background, .notRunning),
        ]
        for (from, to) in edges { #expect(SystemMove.classify(from: from, to: to) == .legal, "\(from) to \(to)") }
        #expect(SystemMove.classify(from: .inactive, to: .suspended) == .unusual)
    }
}
