import Foundation
import LifecycleHost
import LifetraceRecorder

/// The sample app: a notes app that opens its database and builds its first screen at launch,
/// saves its state inside a background task when it enters the background, and drops its caches
/// on a memory warning.
///
/// `--heavy-launch` also indexes the notes for search on the main thread during launch: the
/// mistake the seeds warn about ("at launch, move tasks off the main thread"), which the
/// analyzer reports as a `launch-stall` blaming `IndexSearchCatalog`.
///
/// `--unmarked-heavy-launch` builds the same search index on the main thread during launch,
/// inside no signpost: the blame names `didFinishLaunching`, and the stall's stack samples name
/// `SearchIndex.init` in `SearchIndex.swift`.
///
/// `--slow-save` makes the background save take 3 s, longer than a short background-task limit:
/// the system expires the task (`bgtask.expire`, the analyzer's `background-time` warning).
/// `--crash-in CALLBACK` and `--hang-in CALLBACK` make the app abort, or block its main thread
/// for good, in that callback: how `lifetrace record` copes with a crashing or frozen app is
/// tested with them. `--stall-in CALLBACK SECONDS` blocks the main thread there for that long
/// (a slow resume, a willTerminate that overruns).
///
/// At launch it registers the scheduler task `com.example.notes.cleanup` (a BGProcessingTask in
/// its scenarios), which compacts the notes off the main thread inside the signpost
/// `CompactNotes` and completes the task, or stops at once when the task expires.
final class SampleAppDelegate: ApplicationDelegate, @unchecked Sendable {
    private var store: NoteStore?
    private var screen: FirstScreen?
    private var searchIndex: SearchIndex?
    private let heavyLaunch = CommandLine.arguments.contains("--heavy-launch")
    private let unmarkedHeavyLaunch = CommandLine.arguments.contains("--unmarked-heavy-launch")
    private let slowSave = CommandLine.arguments.contains("--slow-save")
    private let crashIn = SampleAppDelegate.option("--crash-in")
    private let hangIn = SampleAppDelegate.option("--hang-in")
    private let stallIn = SampleAppDelegate.option("--stall-in")
    private let stallSeconds = SampleAppDelegate.option("--stall-in", offset: 2).flatMap(Double.init) ?? 0
    /// The scheduler task the app registers at launch.
    static let cleanupTaskIdentifier = "com.example.notes.cleanup"

    init() {}

    private static func option(_ name: String, offset: Int = 1) -> String? {
        guard let index = CommandLine.arguments.firstIndex(of: name), index + offset < CommandLine.arguments.count else {
            return nil
        }
        return CommandLine.arguments[index + offset]
    }

    /// Crashes, freezes or stalls here if asked to.
    private func misbehave(in callback: String) {
        if crashIn == callback { abort() }
        if hangIn == callback { while true { sleep(60) } }
        if stallIn == callback { Thread.sleep(forTimeInterval: stallSeconds) }
    }

    func willFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool {
        misbehave(in: "willFinishLaunching")
        return true
    }

    func didFinishLaunching(_ application: HostApplication, options: LaunchOptions) -> Bool {
        misbehave(in: "didFinishLaunching")
        let recorder = application.recorder
        do {
            let store = try recorder.interval("OpenDatabase") { try NoteStore.open(directory: SampleAppDelegate.dataDirectory) }
            self.store = store
            screen = recorder.interval("BuildFirstScreen") { FirstScreen(notes: store.notes) }
            registerCleanupTask(application, store: store)
            if heavyLaunch {
                searchIndex = recorder.interval("IndexSearchCatalog") {
                    SearchIndex(notes: store.notes, minimumDuration: .milliseconds(400))
                }
            }
            if unmarkedHeavyLaunch {
                searchIndex = SearchIndex(notes: store.notes, minimumDuration: .milliseconds(400), held: true)
            }
        } catch {
            FileHandle.standardError.write(Data("sample app: \(error)\n".utf8))
            return false
        }
        return true
    }

    /// Registers the cleanup task, as an iOS app registers its BGTaskScheduler launch handlers
    /// before the end of its launch.
    private func registerCleanupTask(_ application: HostApplication, store: NoteStore) {
        application.registerScheduledTask(identifier: SampleAppDelegate.cleanupTaskIdentifier) { task in
            let cancelled = SendableBox(false)
            task.expirationHandler = {
                cancelled.value = true
                task.setTaskCompleted(success: false)
            }
            DispatchQueue.global().async {
                application.recorder.interval("CompactNotes") {
                    _ = store.notes.reduce(0) { $0 + $1.title.utf8.count }
                }
                task.setTaskCompleted(success: !cancelled.value)
            }
        }
    }

    func didBecomeActive(_ application: HostApplication) {
        misbehave(in: "didBecomeActive")
        application.recorder.mark("ScreenShown")
    }

    func willResignActive(_ application: HostApplication) {
        misbehave(in: "willResignActive")
    }

    func willEnterForeground(_ application: HostApplication) {
        misbehave(in: "willEnterForeground")
    }

    func didEnterBackground(_ application: HostApplication) {
        misbehave(in: "didEnterBackground")
        guard let store else { return }
        let snapshot = screen?.visibleTitles ?? []
        // Saving takes a while: do it off the main thread, under a background task so the system
        // does not suspend the app half-way through.
        let task = SendableBox<BackgroundTaskIdentifier>(.invalid)
        task.value = application.beginBackgroundTask(withName: "SaveState") {
            application.endBackgroundTask(task.value)
        }
        let slowSave = self.slowSave
        DispatchQueue.global().async {
            application.recorder.interval("SaveState") {
                try? store.saveState(visibleTitles: snapshot)
                // A save stuck on a slow disk: the system expires the task before it ends.
                if slowSave { sleep(3) }
            }
            application.endBackgroundTask(task.value)
        }
    }

    func didReceiveMemoryWarning(_ application: HostApplication) {
        misbehave(in: "didReceiveMemoryWarning")
        searchIndex = nil
        screen?.dropThumbnails()
        application.recorder.mark("CachesPurged")
    }

    func open(_ application: HostApplication, url: URL) -> Bool {
        application.recorder.mark("OpenedURL")
        return true
    }

    func willTerminate(_ application: HostApplication) {
        misbehave(in: "willTerminate")
        try? store?.saveState(visibleTitles: screen?.visibleTitles ?? [])
        // What the stack samples cost (docs/PERFORMANCE.md, "Stack samples").
        if ProcessInfo.processInfo.environment["SAMPLE_APP_SAMPLER_COSTS"] == "1", let sampler = StallSampler.current {
            let (handler, roundTrip, write) = sampler.costs
            let count = max(sampler.sampleCount, 1)
            FileHandle.standardError.write(Data(
                "sampler: \(sampler.sampleCount) samples; per sample: handler \(handler / Int64(count)) ns, signal to answer \(roundTrip / Int64(count)) ns, ring write \(write / Int64(count)) ns\n".utf8))
        }
    }

    /// Where the database lives: `SAMPLE_APP_DATA` if set, else a folder in the temporary directory.
    static var dataDirectory: URL {
        if let path = ProcessInfo.processInfo.environment["SAMPLE_APP_DATA"] { return URL(fileURLWithPath: path) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("lifetrace-sample-app")
    }
}

/// The sample's scene delegate: marks when its scene is shown.
final class SampleSceneDelegate: SceneDelegate {
    init() {}

    func sceneDidBecomeActive(_ scene: HostScene) {
        Recorder.shared?.mark("SceneShown")
    }
}

/// A mutable value shared with an escaping closure that runs on one thread at a time.
final class SendableBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
