import Foundation
import LifetraceFormat
import Testing

/// The package's one lock (`Locked`): every change made under it by many threads at once is kept.
@Suite struct LockedTests {
    @Test("increments from 8 threads at once all count")
    func concurrentIncrements() {
        let counter = Locked(0)
        let threads = 8
        let increments = 20_000
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<increments {
                // A read and a write apart, so that an unlocked pair would lose updates.
                counter.withLock { value in
                    let read = value
                    value = read + 1
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    @Test("what the body returns or throws comes out of withLock, and the lock is free after a throw")
    func resultAndError() {
        struct Refused: Error {}
        let names = Locked(["a"])
        #expect(names.withLock { $0.count } == 1)
        #expect(throws: Refused.self) {
            try names.withLock { (value: inout [String]) throws(Refused) in
                value.append("b")
                throw Refused()
            }
        }
        #expect(names.withLock { $0 } == ["a", "b"])
    }
}
