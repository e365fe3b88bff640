/// When an in-app recorder started (the `recordingStart` metadata), and what the `late-recording`
/// allowance reads of it: a lifetime launched before the recording has its launch callbacks, its
/// scenes' connection and the moves made before the recording outside the trace
/// (sentry-cocoa SentryAppStartTracker start(); ``Allowance/lateRecording``).
///
/// A `recordingStart` later than an event the app recorded contradicts the events (a recorder
/// cannot record before it starts): the allowance never applies on it, and the earliest such event
/// is kept (``contradictedAt``) for the trace's problems.
public struct RecordingStart: Sendable, Hashable {
    /// The metadata's `recordingStart` (ns on the trace's clock), or nil when unknown.
    public let time: Int64?
    /// Whether `late-recording` applies to the trace (not under `--textbook`).
    public let allowed: Bool
    /// The earliest app-side event found before ``time``, once one was.
    public private(set) var contradictedAt: Int64?

    /// The recording start `time` of a trace whose allowances are `allowances`.
    public init(_ time: Int64?, allowances: AllowanceSet) {
        self.time = time
        allowed = allowances.contains(.lateRecording)
    }

    /// Whether ``time`` is later than an app-side event of the lifetime (its first,
    /// `firstAppActivity`, or `time`, the event being judged); keeps the earliest such event.
    public mutating func isContradicted(firstAppActivity: Int64, by time: Int64) -> Bool {
        guard let start = self.time else { return false }
        let first = min(firstAppActivity, time)
        guard first < start else { return false }
        contradictedAt = min(contradictedAt ?? first, first)
        return true
    }

    /// `late-recording`: whether the lifetime launched at `launch` began before the recording
    /// started, on metadata the events do not contradict (judged at `time`).
    public mutating func launchPrecedes(_ launch: Int64?, firstAppActivity: Int64, at time: Int64) -> Allowance? {
        guard allowed, let start = self.time, let launch, launch < start,
            !isContradicted(firstAppActivity: firstAppActivity, by: time)
        else { return nil }
        return .lateRecording
    }

    /// `late-recording` for the launch window: a lifetime with a `launch` event before the
    /// recording, no resume found, and none of its launch callbacks recorded has a window whose
    /// end is not in the trace (its first frame may precede the recording), so its length is unknown.
    public mutating func launchWindowUnknown(
        launch: Int64, hasLaunchEvent: Bool, resumed: Bool, launchCallbacksSeen: Bool, firstAppActivity: Int64
    ) -> Allowance? {
        guard allowed, let start = self.time, launch < start, hasLaunchEvent, !resumed,
            !isContradicted(firstAppActivity: firstAppActivity, by: .max), !launchCallbacksSeen
        else { return nil }
        return .lateRecording
    }
}
