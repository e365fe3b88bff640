import LifetraceFormat

/// The order of the launch callbacks as a state machine: willFinishLaunching, then
/// didFinishLaunching, once each, before any other app-delegate lifecycle callback ("This method
/// is your app's first chance to execute code at launch time", 000, the app delegate's methods;
/// Apple, *About the app launch sequence*). ``Allowance/lateRecording`` relaxes it: a lifetime
/// launched before the recorder started has its launch callbacks outside the trace.
public struct LaunchSequence: Sendable, Hashable {
    /// How far the launch callbacks have come.
    public enum Progress: UInt8, Sendable, Hashable, Comparable {
        /// No launch callback yet.
        case notStarted
        /// willFinishLaunching came.
        case willFinishLaunching
        /// didFinishLaunching came, or another callback after which the launch callbacks are late
        /// (or the lifetime is not a launch).
        case done

        public static func < (lhs: Progress, rhs: Progress) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What is wrong with a launch callback's place, or with a callback that came before the
    /// launch callbacks ended.
    public enum Problem: Sendable, Hashable {
        /// willFinishLaunching came again, or after the launch had moved past it.
        case willFinishLaunchingAgain
        /// didFinishLaunching came with no willFinishLaunching before it.
        case willFinishLaunchingMissing
        /// didFinishLaunching came again, or after another lifecycle callback.
        case didFinishLaunchingAgain
        /// Another app-delegate lifecycle callback came before didFinishLaunching.
        case didFinishLaunchingNotYet
    }

    /// The machine's verdict on one app-delegate lifecycle callback.
    public struct Verdict: Sendable, Hashable {
        /// What the textbook finds wrong, nil when nothing is or an allowance accepts it.
        public var problem: Problem?
        /// The allowance that accepted what the textbook would report; nil when none did.
        public var allowance: Allowance?
    }

    /// How far the launch callbacks have come.
    public private(set) var progress = Progress.notStarted

    /// A sequence before its first callback.
    public init() {}

    /// Whether a lifetime with no `launch` event is a launch that began at its first event: its
    /// first app-delegate lifecycle callback (`callback`, with the app delegate's state not known
    /// and not moved yet) is a launch callback. Any other first callback means the trace started in
    /// the middle of the lifetime, where the launch rules do not apply (``giveUp()``).
    public func beginsInferredLaunch(_ callback: CallbackName, appDelegateKnown: Bool) -> Bool {
        progress == .notStarted && !appDelegateKnown
            && (callback == .willFinishLaunching || callback == .didFinishLaunching)
    }

    /// The lifetime is not a launch (the trace starts in its middle): nothing is judged.
    public mutating func giveUp() {
        progress = .done
    }

    /// Steps with the app-delegate lifecycle `callback`. `lateRecording`, asked only where the
    /// textbook finds a launch callback missing, says whether `late-recording` applies.
    public mutating func step(_ callback: CallbackName, lateRecording: () -> Allowance?) -> Verdict {
        let before = progress
        var problem: Problem?
        switch callback {
        case .willFinishLaunching:
            progress = max(before, .willFinishLaunching)
            if before != .notStarted { problem = .willFinishLaunchingAgain }
        case .didFinishLaunching:
            progress = .done
            switch before {
            case .notStarted: problem = .willFinishLaunchingMissing
            case .willFinishLaunching: break
            case .done: problem = .didFinishLaunchingAgain
            }
        default:
            progress = .done
            if before < .done { problem = .didFinishLaunchingNotYet }
        }
        assert(progress >= before, "the launch sequence went back")
        // Only a launch callback that is missing can be outside the trace: one that came twice
        // was recorded twice.
        guard let found = problem, found == .willFinishLaunchingMissing || found == .didFinishLaunchingNotYet,
            let allowance = lateRecording()
        else { return Verdict(problem: problem, allowance: nil) }
        return Verdict(problem: nil, allowance: allowance)
    }

    /// Whether the sequence has moved: a launch callback came, or the launch was given up on.
    public var started: Bool { progress != .notStarted }
}
