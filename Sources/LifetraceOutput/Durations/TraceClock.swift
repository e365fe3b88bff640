import LifetraceFormat

/// How every output for people names a moment of a trace: its time since the trace's first
/// event (the first event read), signed, in seconds (`+1305.633 s`), written by
/// ``DurationFormat/clock`` (``DurationFormat/preciseClock`` in `dump --format text`). There is
/// no other way to name a moment: a duration measured from a launch is a duration, written
/// without a sign and saying so (`412 ms after the launch`). Every output says once what its
/// moments count from (``origin``), or labels a moment that stands alone (``labelled(_:)``);
/// every option that takes a moment reads it as printed (``sinceStart(parsing:)``).
/// docs/REPORTS.md, "One clock".
public enum TraceClock {
    /// What moments count from, for headers and notes.
    public static let origin = "since the trace's first event"

    /// The moment `sinceStart` ns after the trace's first event: `+1305.633 s`, `-0.003 s`.
    public static func moment(_ sinceStart: Int64) -> String { DurationFormat.clock.signed(sinceStart) }

    /// A moment as a mark on a scale whose marks are `resolution` ns apart (an axis's ticks, a
    /// tooltip's pixel): to the digit that step needs, truncated (`+87.80 s` for 20 ms ticks,
    /// `+1305.633002 s` for 2 µs, `+88 s` for 1 s), so neighbouring marks never read the same.
    public static func moment(_ sinceStart: Int64, resolution: Int64) -> String {
        DurationFormat.clock.signed(sinceStart, resolution: resolution)
    }

    /// The same to the microsecond: `+1305.633203 s`.
    public static func preciseMoment(_ sinceStart: Int64) -> String { DurationFormat.preciseClock.signed(sinceStart) }

    /// A moment that stands alone, with its origin: `+1305.633 s into the trace`.
    public static func labelled(_ sinceStart: Int64) -> String { moment(sinceStart) + " into the trace" }

    /// The moment of `timestamp` (ns on the trace's clock) for a trace whose first event is at
    /// `origin`; the raw timestamp when the origin is not known.
    public static func moment(_ timestamp: Int64, origin: Int64?) -> String {
        guard let origin else { return "\(timestamp) ns" }
        return moment(TraceTime.elapsed(from: origin, to: timestamp))
    }

    /// A moment as the tool prints it (`+1.500 s`, `-0.003 s`) or as a duration since the first
    /// event (`1.5s`, `2 min 30 s`): ns since the trace's first event. One grammar
    /// (``DurationParser``) after an optional sign.
    public static func sinceStart(parsing text: String) throws(DurationError) -> Int64 {
        var body = Substring(text)
        while body.first?.isWhitespace == true { body = body.dropFirst() }
        let negative = body.first == "-"
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        do throws(DurationError) {
            let magnitude = try DurationParser.nanoseconds(String(body))
            return negative ? -magnitude : magnitude
        } catch {
            throw DurationError(text: text, reason: error.reason)
        }
    }
}
