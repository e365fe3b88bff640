import Foundation
import LifetraceOutput
import Testing

/// The wall-clock timestamps (a build's date, the JUnit report's) are Foundation's ISO 8601 text
/// in UTC, written from the C library's calendar.
@Suite struct UTCTimestampTests {
    static func foundation(_ date: Date) -> String {
        var style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
        style = style.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)
        return date.formatted(style)
    }

    @Test func itIsFoundationsTextForEveryKindOfDate() {
        // Leap days, the turns of years and centuries, the last second of a day, fractions of a
        // second (truncated), before 1970, and a spread of moments up to 9999.
        var seconds: [Double] = [
            0, 0.999, -0.5, -1, 951_782_400, 951_868_799.75, 4_107_542_399, 1_795_910_400, 253_402_300_799, -62_135_596_800,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            seconds.append(Double(state >> 30) - 2_000_000_000 + Double(state & 1023) / 1024)
        }
        for value in seconds {
            let date = Date(timeIntervalSince1970: value)
            #expect(UTCTimestamp.text(date) == Self.foundation(date) + "Z", "\(value)")
            #expect(UTCTimestamp.text(date, zone: "") == Self.foundation(date), "\(value)")
        }
        #expect(UTCTimestamp.text(Date(timeIntervalSince1970: 1_795_914_828)) == "2026-11-29T01:13:48Z")
        // What Foundation writes by default for a build's date.
        let now = Date()
        #expect(UTCTimestamp.text(now) == now.formatted(.iso8601))
    }

    @Test func aYearPastFourDigitsIsWrittenAsFoundationWritesIt() {
        for value in [253_402_300_800.0, -62_135_596_801, 1e14] {
            let date = Date(timeIntervalSince1970: value)
            #expect(UTCTimestamp.text(date) == Self.foundation(date) + "Z", "\(value)")
        }
    }
}
