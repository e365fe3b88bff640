import LifetraceHistory
import Testing

@Suite struct VersionOrderTests {
    @Test func versionsCompareByTheirNumbers() {
        let shuffled = ["2.0", "1.10", "1.2", "1.9", "1.2.1", "1.10-rc", "1.10-beta", "10.0", "1.02.5"]
        let sorted = shuffled.sorted { VersionOrder.precedes($0, $1) }
        #expect(sorted == ["1.2", "1.2.1", "1.02.5", "1.9", "1.10", "1.10-beta", "1.10-rc", "2.0", "10.0"])
    }

    @Test func buildsWithoutAVersionComeLast() {
        #expect(VersionOrder.precedes("1.0", nil))
        #expect(!VersionOrder.precedes(nil, "1.0"))
        #expect(!VersionOrder.precedes(nil, nil))
    }
}
