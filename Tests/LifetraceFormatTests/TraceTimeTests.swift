import LifetraceFormat
import Testing

/// Statistics computed in floating point come back as whole nanoseconds, saturated.
struct TraceTimeTests {
    @Test func nanosecondsRoundsAndSaturatesAtInt64sBounds() {
        #expect(TraceTime.nanoseconds(1.5) == 2)
        #expect(TraceTime.nanoseconds(-1.5) == -2)
        #expect(TraceTime.nanoseconds(.nan) == 0)
        // 2^63 is the first Double past Int64.max; the largest below it converts exactly.
        #expect(TraceTime.nanoseconds(0x1p63) == .max)
        #expect(TraceTime.nanoseconds(0x1p63.nextDown) == Int64(0x1p63.nextDown))
        #expect(TraceTime.nanoseconds(1e300) == .max)
        #expect(TraceTime.nanoseconds(.infinity) == .max)
        #expect(TraceTime.nanoseconds(-0x1p63) == .min)
        #expect(TraceTime.nanoseconds(-1e300) == .min)
        #expect(TraceTime.nanoseconds(-.infinity) == .min)
    }
}
