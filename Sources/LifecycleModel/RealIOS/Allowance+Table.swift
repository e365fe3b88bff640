extension Allowance {
    /// The table of allowances, in the order of the cases: the one place each is written down.
    /// docs/LIFECYCLE.md, "Real iOS", is this table in prose; a test keeps the two in step.
    public static let table: [AllowanceEntry] = [
        AllowanceEntry(
            id: "prewarm-resume",
            sequence: "launch (prewarm: true), pre-main or willFinishLaunching/didFinishLaunching, a pause of "
                + "seconds to hours, then the user's launch (the resume); or no resume at all: the system purges "
                + "the prewarmed process before the user opens the app (never opened)",
            sources: [
                "Apple, About the app launch sequence, \"Prepare your app for prewarming\" "
                    + "(https://developer.apple.com/documentation/uikit/about-the-app-launch-sequence)",
                "sentry-cocoa issue 1897 (https://github.com/getsentry/sentry-cocoa/issues/1897)",
                "firebase-ios-sdk issue 9026 (https://github.com/firebase/firebase-ios-sdk/issues/9026)",
                "Apple Developer Forums threads 706782 and 764625 (https://developer.apple.com/forums/thread/706782)",
                "bugsnag-cocoa pull request 1248, a prewarmed process terminated before the user launches the app "
                    + "(https://github.com/bugsnag/bugsnag-cocoa/pull/1248)",
            ],
            appliesWhere: "a launch with prewarm: true (iOS 15 and later prewarm; the launch event says so)",
            osVersions: nil,
            textbookRules: ["launch-watchdog", "launch-stall", "unexpected-exit"],
            stillViolation: "the user's launch, from the resume to the first frame, longer than the watchdog limit; "
                + "a stall that starts after the resume inside the launch window"),
        AllowanceEntry(
            id: "scene-app-order",
            sequence: "in a scene-based app, the app delegate's willEnterForeground / didBecomeActive / "
                + "willResignActive / didEnterBackground before or after the scenes' callbacks of the same transition "
                + "(at a cold launch, willEnterForeground and didBecomeActive also after sceneDidBecomeActive)",
            sources: [
                "Amplitude-iOS pull request 494 (https://github.com/amplitude/Amplitude-iOS/pull/494)",
                "bugsnag-cocoa pull request 1180 and BSGRunContext.m (https://github.com/bugsnag/bugsnag-cocoa/pull/1180)",
                "dd-sdk-ios RUMApplicationScope.swift (https://github.com/DataDog/dd-sdk-ios)",
            ],
            appliesWhere: "a lifetime in which a scene is connected (iOS 13 and later)",
            osVersions: nil,
            textbookRules: ["legal-transition", "balanced-activation", "foreground-before-active"],
            stillViolation: "an app-delegate callback legal neither from the app delegate's own state nor from the "
                + "scenes' (didBecomeActive while the app and every scene are in Background), and the same "
                + "app-delegate callback twice in a row (didBecomeActive, didBecomeActive)"),
        AllowanceEntry(
            id: "switcher-quit",
            sequence: "willResignActive, (sceneDidDisconnect,) willTerminate with no didEnterBackground: the "
                + "user quits the app from the app switcher while it is Inactive",
            sources: [
                "Apple Developer Forums thread 732170 (https://developer.apple.com/forums/thread/732170)",
                "bugsnag-cocoa BSGRunContextWasKilled, PLAT-3259 (https://github.com/bugsnag/bugsnag-cocoa)",
            ],
            appliesWhere: "any iOS version (the sources name none)",
            osVersions: nil,
            textbookRules: ["legal-transition"],
            stillViolation: "willTerminate or sceneDidDisconnect while Active (no willResignActive first); "
                + "willTerminate while Suspended; a SIGKILL while Inactive stays an unexpected-exit warning"),
        AllowanceEntry(
            id: "background-launch",
            sequence: "a launch recorded as foreground whose first move to the foreground is willEnterForeground "
                + "(an app without scenes), or that pauses 2 s or more, or runs a BGTaskScheduler task "
                + "(BGProcessingTask, BGAppRefreshTask), before its first move to the foreground: a background "
                + "launch (silent push, background fetch, BGTask, location) the user opened later, or never",
            sources: [
                "Apple, App Programming Guide for iOS: The App Life Cycle, Table 2-3 (\"An app being launched "
                    + "directly into the background enters this state instead of the inactive state\")",
                "bugsnag-cocoa BSGRunContext.m (the application state at launch) (https://github.com/bugsnag/bugsnag-cocoa)",
                "dd-sdk-ios, the task role at launch (https://github.com/DataDog/dd-sdk-ios)",
                "Apple, BGTaskScheduler, register(forTaskWithIdentifier:using:launchHandler:) (\"The system runs "
                    + "the block of code for the launch handler when it launches the app in the background\") "
                    + "(https://developer.apple.com/documentation/backgroundtasks/bgtaskscheduler/register(fortaskwithidentifier:using:launchhandler:))",
            ],
            appliesWhere: "a launch that is not marked background or prewarmed (an in-app recorder that cannot "
                + "read the task role writes foreground), or an inferred launch",
            osVersions: nil,
            textbookRules: ["launch-watchdog", "legal-transition", "unexpected-exit"],
            stillViolation: "a background launch whose didFinishLaunching runs past the watchdog limit; "
                + "didBecomeActive straight from Background"),
        AllowanceEntry(
            id: "abandoned-launch",
            sequence: "a foreground launch whose app (or scene) enters Background before its first activation: "
                + "the user left, and comes back later",
            sources: [
                "sentry-cocoa SentryAppStartTracker.swift (https://github.com/getsentry/sentry-cocoa)",
                "firebase-ios-sdk FPRAppActivityTracker.m (https://github.com/firebase/firebase-ios-sdk)",
            ],
            appliesWhere: "any foreground launch",
            osVersions: nil,
            textbookRules: ["launch-watchdog"],
            stillViolation: "a launch-stall that began before the user left; a launch window over the watchdog "
                + "limit before the user left"),
        AllowanceEntry(
            id: "inferred-suspension",
            sequence: "in a lifetime without state events, no app-side event for 10 s or more while the app view "
                + "is in Background: the system suspended the app, which cannot see its own suspension",
            sources: [
                "Apple, App Programming Guide for iOS: The App Life Cycle, Table 2-3 (\"The system moves apps to "
                    + "this state automatically and does not notify them before doing so\")",
                "Apple, MetricKit, MXAppLaunchMetric histogrammedApplicationResumeTime "
                    + "(https://developer.apple.com/documentation/metrickit/mxapplaunchmetric)",
            ],
            appliesWhere: "a lifetime with no system state events (an in-app recording), while no callback is "
                + "running on the main thread",
            osVersions: nil,
            textbookRules: ["background-time"],
            stillViolation: "running in Background past the limit with no task while the app keeps producing "
                + "events (no silence of 10 s)"),
        AllowanceEntry(
            id: "background-modes",
            sequence: "minutes in Background with no UIKit background task, in an app that declares a continuous "
                + "background mode (audio, location, voip, external-accessory, bluetooth-central, bluetooth-peripheral)",
            sources: [
                "Apple, Information Property List: UIBackgroundModes "
                    + "(https://developer.apple.com/documentation/bundleresources/information-property-list/uibackgroundmodes)",
                "Apple, BGProcessingTask (https://developer.apple.com/documentation/backgroundtasks/bgprocessingtask)",
            ],
            appliesWhere: "a trace whose backgroundModes metadata names one of those modes",
            osVersions: nil,
            textbookRules: ["background-time"],
            stillViolation: "the same stretch in an app that declares none of them (or whose modes are unknown); "
                + "a background task or BGTask the app does not end when it expires"),
        AllowanceEntry(
            id: "quick-minimise",
            sequence: "willResignActive, willEnterForeground, didEnterBackground: the app is minimised and "
                + "reopened quickly, and UIKit delivers the return before the departure",
            sources: ["Apple Developer Forums thread 732170 (https://developer.apple.com/forums/thread/732170)"],
            appliesWhere: "any iOS version (the source names none); willEnterForeground right after willResignActive",
            osVersions: nil,
            textbookRules: ["legal-transition"],
            stillViolation: "willEnterForeground while Active, or while Inactive other than right after willResignActive"),
        AllowanceEntry(
            id: "double-activation",
            sequence: "didBecomeActive, didBecomeActive with no willResignActive between, after a pull of "
                + "Notification Center",
            sources: ["rdar 49216830, OpenRadar: applicationDidBecomeActive called twice (https://openradar.appspot.com/49216830)"],
            appliesWhere: "iOS 11.0 to 12.1.4, read from the os metadata (an unknown OS keeps the textbook rule)",
            osVersions: OSVersion(11)...OSVersion(12, 1, 4),
            textbookRules: ["balanced-activation"],
            stillViolation: "the same on any other iOS version or an unknown one; willResignActive while not Active"),
        AllowanceEntry(
            id: "late-recording",
            sequence: "a launch event at process start, but the recorder started (recordingStart) after the launch "
                + "callbacks: they are not in the trace, nor the scenes' connection and the moves made before the "
                + "recording; the app delegate's and each scene's state is learnt from its first recorded callback, "
                + "and the launch window (its first frame may precede the recording) is unknown",
            sources: ["sentry-cocoa SentryAppStartTracker start() (https://github.com/getsentry/sentry-cocoa)"],
            appliesWhere: "a lifetime that began before the trace's recordingStart metadata",
            osVersions: nil,
            textbookRules: [
                "launch-sequence", "scene-connection", "balanced-activation", "legal-transition", "launch-watchdog",
                "launch-stall",
            ],
            stillViolation: "a missing launch sequence without recordingStart, or in a lifetime launched after it; "
                + "a launch callback twice or out of order"),
    ]
}

/// The times the allowances and the launch budget rest on (docs/LIFECYCLE.md, "Real iOS").
public enum RealIOSTimes {
    /// Apple's target for a launch, to the first frame: 400 ms (WWDC19 session 423, "Optimizing App
    /// Launch"). `launch-stall`'s default threshold: one main-thread turn that alone uses the whole
    /// budget makes the launch miss it, and a launch that meets it never holds such a turn.
    public static let launchBudget: Int64 = 400_000_000
    /// A pause of the app (no app-side event) at least this long before the first move to the
    /// foreground: the process was not launching in front of the user (a prewarm or a background
    /// launch). Five times the launch budget: a foreground launch runs its callbacks back to back.
    public static let launchPause: Int64 = 2_000_000_000
    /// A silence of the app (no app-side event on any thread) at least this long while the app
    /// view is in Background, without `state` events: a suspension. Twice the ~5 s the system gives
    /// didEnterBackground before it suspends an app with no task open.
    public static let suspensionSilence: Int64 = 10_000_000_000
}
