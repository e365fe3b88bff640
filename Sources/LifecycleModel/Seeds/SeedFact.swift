/// A fact from the life cycle reference (`shared/seeds/`): the file it is in and a short quote.
///
/// Messages quote these so that a developer sees why an ordering is expected, not only that it was
/// broken. Quotes are verbatim; a translation follows in brackets where the original is not English.
public struct SeedFact: Sendable, Hashable, CustomStringConvertible {
    /// The seed file's number, for example `000`, or a document's path for facts of the event model.
    public var file: String
    /// The quoted sentence.
    public var quote: String

    /// Creates a fact.
    public init(file: String, quote: String) {
        self.file = file
        self.quote = quote
    }

    /// Where the fact is: `seed 000` for a seed file, else the document's path.
    public var source: String { file.allSatisfy(\.isNumber) ? "seed \(file)" : file }

    /// The quote followed by its source, for example `"…" (seed 000)`.
    public var description: String { "\"\(quote)\" (\(source))" }
}

extension SeedFact {
    /// Suspended apps execute no code.
    public static let suspendedRunsNoCode = SeedFact(
        file: "000", quote: "While suspended, an app remains in memory but does not execute any code.")
    /// willTerminate is not delivered to a suspended app.
    public static let noTerminateWhenSuspended = SeedFact(
        file: "000", quote: "This method is not called if your app is suspended.")
    /// willTerminate announces the end of the process.
    public static let terminateIsTheEnd = SeedFact(
        file: "000",
        quote: "Lets you know that your app is being terminated. Suspended apps receive no notification "
            + "when they are terminated; the system kills the process")
    /// Scenes live between connection and disconnection.
    public static let scenesConnect = SeedFact(
        file: "001",
        quote: "当 UIKit 连接到应用的场景时 … 场景取消连接的时候 [when UIKit connects a scene … when the "
            + "scene disconnects]")
    /// The launch callbacks come first, in this order.
    public static let launchFirst = SeedFact(
        file: "000",
        quote: "willFinishLaunchingWithOptions:—This method is your app’s first chance to execute code "
            + "at launch time.")
    /// Active and Background are never adjacent.
    public static let throughInactive = SeedFact(
        file: "003",
        quote: "Active 和 Background 状态之间的转换都会是经过一个短暂的 Inactive 状态的 [every move between "
            + "Active and Background passes through a brief Inactive]")
    /// didBecomeActive and willResignActive frame the Active state.
    public static let activationPairs = SeedFact(
        file: "000",
        quote: "applicationDidBecomeActive:—Lets your app know that it is about to become the foreground "
            + "app. … applicationWillResignActive:—Lets you know that your app is transitioning away "
            + "from being the foreground app.")
    /// The diagram of states.
    public static let stateDiagram = SeedFact(
        file: "000", quote: "Figure 2-3 shows the paths that an app takes when moving from state to state.")
    /// Lifecycle callbacks arrive through the main run loop.
    public static let mainRunLoop = SeedFact(
        file: "000", quote: "As the name suggests, the main run loop executes on the app’s main thread.")
    /// The main run loop handles events one at a time.
    public static let serialEvents = SeedFact(
        file: "000",
        quote: "This behavior ensures that user-related events are processed serially in the order "
            + "in which they were received.")
    /// Slow apps are killed.
    public static let watchdog = SeedFact(
        file: "000",
        quote: "the system may also terminate apps that are misbehaving or not responding to events "
            + "in a timely manner.")
    /// Only UI set-up belongs on the main thread at launch.
    public static let launchMainThread = SeedFact(
        file: "000",
        quote: "Only tasks that contribute to setting up the user interface should be performed on "
            + "the main thread.")
    /// Background execution is short unless extra time is requested.
    public static let backgroundBriefly = SeedFact(
        file: "000",
        quote: "Most apps enter this state briefly on their way to being suspended. However, an app "
            + "that requests extra execution time may remain in this state for a period of time.")
    /// A running background app gets willTerminate before it is terminated.
    public static let terminateWhenRunning = SeedFact(
        file: "000",
        quote: "If an app is currently running in the background and not suspended, the system calls "
            + "the applicationWillTerminate: of its app delegate prior to termination.")
    /// Trace timestamps come from one monotonic clock per trace (the event model, not the seeds).
    public static let monotonicClock = SeedFact(
        file: "docs/FORMAT.md", quote: "ts: integer nanoseconds on the trace's monotonic clock")
}
