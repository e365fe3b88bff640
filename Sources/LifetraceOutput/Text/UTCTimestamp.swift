import Foundation

/// A moment of the wall clock written as ISO 8601 in UTC, to the second: `2026-11-29T01:07:00Z`,
/// the text `Date.ISO8601FormatStyle()` gives (``text(_:zone:)``). The JUnit report's timestamp
/// and a build's date in the history are written by it.
///
/// It reads the calendar fields from the C library (`gmtime_r`, POSIX) rather than from
/// Foundation's formatter, which loads ICU's time-zone data to format in UTC: that load alone
/// cost `history add` more CPU time than writing its build's rows.
package enum UTCTimestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS` followed by `zone` (`"Z"`, or `""` where a schema wants
    /// no zone). The seconds are truncated, as Foundation's formatter truncates them. A year
    /// before 1583 (Foundation's calendar is Julian before the Gregorian reform of 1582, the C
    /// library's is Gregorian throughout) or past 9999 is written by Foundation's formatter.
    package static func text(_ date: Date, zone: String = "Z") -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        var fields = tm()
        guard seconds.isFinite, abs(seconds) < 1e15, var time = time_t(exactly: seconds), gmtime_r(&time, &fields) != nil,
            (1583...9999).contains(Int(fields.tm_year) + 1900)
        else {
            var style = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!)
            style = style.year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false).timeSeparator(.colon)
            return date.formatted(style) + zone
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(19 + zone.utf8.count)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") &+ UInt8((value / divisor) % 10))
                divisor /= 10
            }
        }
        digits(fields.tm_year + 1900, 4)
        bytes.append(UInt8(ascii: "-"))
        digits(fields.tm_mon + 1, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(fields.tm_mday, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(fields.tm_hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(fields.tm_min, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(fields.tm_sec, 2)
        bytes.append(contentsOf: zone.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }
}
