import LifetraceFormat

/// Byte-level pieces of JSON text for the streamed Trace Event Format writer.
///
/// Strings are escaped by the package's one JSON string writer (`JSONLTraceWriter.appendQuoted`,
/// the escaping `dump` writes); numbers are written digit by digit into the caller's buffer so
/// that the per-event path allocates nothing.
enum JSONBytes {
    /// `string` as a JSON string literal (quotes included).
    static func quoted(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        JSONLTraceWriter.appendQuoted(string, to: &bytes)
        return bytes
    }

    /// Appends the decimal digits of `value`.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(value.magnitude, to: &bytes)
    }

    /// Appends `nanoseconds` as microseconds with three decimals (`1234567` -> `1234.567`), the
    /// Trace Event Format's unit for `ts` and `dur`.
    static func appendMicroseconds(_ nanoseconds: Int64, to bytes: inout [UInt8]) {
        if nanoseconds < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = nanoseconds.magnitude
        appendDigits(magnitude / 1000, to: &bytes)
        let fraction = magnitude % 1000
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    private static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        let start = bytes.count
        var value = value
        while value > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
            value /= 10
        }
        bytes[start...].reverse()
    }
}
