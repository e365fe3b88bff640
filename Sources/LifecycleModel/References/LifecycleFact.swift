/// A public document the lifecycle model rests on, named so that a reader can find it.
public enum ReferenceDocument: String, Sendable, Hashable, CaseIterable {
    /// Apple's "App Programming Guide for iOS", chapter "The App Life Cycle".
    case appLifeCycleGuide = "app-life-cycle"
    /// Apple's article "Managing your app's life cycle" (UIKit documentation).
    case managingLifeCycle = "managing-life-cycle"
    /// Apple's reference page for `UIApplicationDelegate.applicationDidEnterBackground(_:)`.
    case didEnterBackgroundReference = "did-enter-background"
    /// Lifetrace's own specification of a trace's events, `docs/JSONL.md`.
    case traceFormat = "trace-format"

    /// The document's title as a reader would search for it.
    public var title: String {
        switch self {
        case .appLifeCycleGuide: "Apple, App Programming Guide for iOS: The App Life Cycle"
        case .managingLifeCycle: "Apple, Managing your app's life cycle"
        case .didEnterBackgroundReference: "Apple, UIApplicationDelegate: applicationDidEnterBackground(_:)"
        case .traceFormat: "Lifetrace, the text form of a trace (docs/JSONL.md)"
        }
    }
}

/// A sentence of a public document that a rule rests on: the document, the section, the quote.
///
/// Messages quote these so that a developer sees why an ordering is expected, not only that it was
/// broken, and can open the document to read more. Quotes are in English: verbatim where the
/// document is, an English translation, marked as one, where the text at hand was not English.
public struct LifecycleFact: Sendable, Hashable, CustomStringConvertible {
    /// The document.
    public var document: ReferenceDocument
    /// The section (or table, or figure) of the document the sentence is in.
    public var section: String
    /// The quoted sentence, in English.
    public var quote: String
    /// Whether ``quote`` is a translation rather than the document's own words.
    public var isTranslation: Bool

    /// Creates a fact.
    public init(_ document: ReferenceDocument, section: String, quote: String, isTranslation: Bool = false) {
        self.document = document
        self.section = section
        self.quote = quote
        self.isTranslation = isTranslation
    }

    /// Where the fact is, for example `Apple, App Programming Guide for iOS: The App Life Cycle,
    /// "App Termination"`.
    public var source: String { "\(document.title), \(section)" }

    /// The quote followed by its source, for example `"…" (Apple, …, "App Termination")`; a
    /// translation says so.
    public var description: String {
        "\"\(quote)\" (\(source)\(isTranslation ? "; quoted in translation" : ""))"
    }
}

extension LifecycleFact {
    private static let states = "Execution States for Apps, Table 2-3"
    private static let callbacks = "Execution States for Apps, the app delegate's methods"
    private static let termination = "\"App Termination\""
    private static let runLoop = "\"The Main Run Loop\""
    private static let threads = "\"Threads and Concurrency\""

    /// Suspended apps execute no code.
    public static let suspendedRunsNoCode = LifecycleFact(
        .appLifeCycleGuide, section: states,
        quote: "While suspended, an app remains in memory but does not execute any code.")
    /// willTerminate is not delivered to a suspended app.
    public static let noTerminateWhenSuspended = LifecycleFact(
        .appLifeCycleGuide, section: callbacks,
        quote: "applicationWillTerminate:—Lets you know that your app is being terminated. This method "
            + "is not called if your app is suspended.")
    /// willTerminate announces the end of the process.
    public static let terminateIsTheEnd = LifecycleFact(
        .appLifeCycleGuide, section: termination,
        quote: "Suspended apps receive no notification when they are terminated; the system kills the "
            + "process and reclaims the corresponding memory.")
    /// Scenes live between connection and disconnection.
    public static let scenesConnect = LifecycleFact(
        .managingLifeCycle, section: "\"Respond to scene-based life-cycle events\"",
        quote: "When UIKit connects a scene to your app, configure your app's initial state and load "
            + "the data the scene needs … When a scene disconnects, clean up any shared data associated "
            + "with the scene.",
        isTranslation: true)
    /// The launch callbacks come first, in this order.
    public static let launchFirst = LifecycleFact(
        .appLifeCycleGuide, section: callbacks,
        quote: "willFinishLaunchingWithOptions:—This method is your app’s first chance to execute code "
            + "at launch time.")
    /// Active and Background are never adjacent.
    public static let throughInactive = LifecycleFact(
        .appLifeCycleGuide, section: "\(states) and Figure 2-3",
        quote: "Inactive: The app is running in the foreground but is currently not receiving events. "
            + "… An app usually stays in this state only briefly as it transitions to a different state.")
    /// didBecomeActive and willResignActive frame the Active state.
    public static let activationPairs = LifecycleFact(
        .appLifeCycleGuide, section: callbacks,
        quote: "applicationDidBecomeActive:—Lets your app know that it is about to become the foreground "
            + "app. … applicationWillResignActive:—Lets you know that your app is transitioning away "
            + "from being the foreground app.")
    /// The diagram of states.
    public static let stateDiagram = LifecycleFact(
        .appLifeCycleGuide, section: "Execution States for Apps, Figure 2-3",
        quote: "Figure 2-3 shows the paths that an app takes when moving from state to state.")
    /// Lifecycle callbacks arrive through the main run loop.
    public static let mainRunLoop = LifecycleFact(
        .appLifeCycleGuide, section: runLoop,
        quote: "As the name suggests, the main run loop executes on the app’s main thread.")
    /// The main run loop handles events one at a time.
    public static let serialEvents = LifecycleFact(
        .appLifeCycleGuide, section: runLoop,
        quote: "This behavior ensures that user-related events are processed serially in the order "
            + "in which they were received.")
    /// Slow apps are killed.
    public static let watchdog = LifecycleFact(
        .appLifeCycleGuide, section: termination,
        quote: "the system may also terminate apps that are misbehaving or not responding to events "
            + "in a timely manner.")
    /// Only UI set-up belongs on the main thread at launch.
    public static let launchMainThread = LifecycleFact(
        .appLifeCycleGuide, section: threads,
        quote: "Only tasks that contribute to setting up the user interface should be performed on "
            + "the main thread.")
    /// Long work belongs off the main thread, which handles the user's events.
    public static let lengthyWorkOffMain = LifecycleFact(
        .appLifeCycleGuide, section: threads,
        quote: "Lengthy tasks … should always be performed on a background thread.")
    /// didEnterBackground has about five seconds.
    public static let backgroundCallbackLimit = LifecycleFact(
        .didEnterBackgroundReference, section: "Discussion",
        quote: "Your implementation of this method has approximately five seconds to perform any tasks "
            + "and return. … If the method does not return before time runs out your app is terminated "
            + "and purged from memory.")
    /// Background execution is short unless extra time is requested.
    public static let backgroundBriefly = LifecycleFact(
        .appLifeCycleGuide, section: states,
        quote: "Most apps enter this state briefly on their way to being suspended. However, an app "
            + "that requests extra execution time may remain in this state for a period of time.")
    /// A running background app gets willTerminate before it is terminated.
    public static let terminateWhenRunning = LifecycleFact(
        .appLifeCycleGuide, section: termination,
        quote: "If an app is currently running in the background and not suspended, the system calls "
            + "the applicationWillTerminate: of its app delegate prior to termination.")
    /// Trace timestamps come from one monotonic clock per trace (the event model).
    public static let monotonicClock = LifecycleFact(
        .traceFormat, section: "\"Events\"", quote: "ts: integer nanoseconds on the trace's monotonic clock")
}
